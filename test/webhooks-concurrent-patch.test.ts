// Concurrent changes of one webhook endpoint over real HTTP: PATCHes that disagree about
// `enabled`, and PATCHes racing the endpoint's DELETE. Every PATCH reads the endpoint's current
// state to decide what `enabled` changes, so that read must see the row as its update will find
// it (locked), or a PATCH answers 200 with another request's state, or 500 when the row is gone.
import { describe, expect } from 'vitest';
import { serverTestOn } from './support/fixtures.js';
import type { Client, Reply } from './support/http.js';
import { DATABASES } from './support/server.js';
import { NO_RATE_LIMITS } from './support/limits.js';

const TARGET = 'http://127.0.0.1:9/hook';

const tests = serverTestOn({ env: NO_RATE_LIMITS });

describe.each(DATABASES)('concurrent changes of one webhook endpoint on %s', (kind) => {
  const it = tests[kind];
  // The fixture's client and ADMIN token, for the helper and tests below.
  let api: Client;
  let ada: string;
  it.beforeAll(({ api: itsClient, ada: adaToken }) => {
    [api, ada] = [itsClient, adaToken];
  });

  const create = async () => {
    const reply = await api.post('/api/v1/webhooks', { url: TARGET, events: ['lesson.published'] }, { token: ada });
    expect(reply.status, reply.text).toBe(201);
    return reply.body.id as string;
  };

  it('answers every concurrent PATCH with the state it asked for, and the endpoint ends in one of them', async () => {
    const id = await create();
    const wrong: string[] = [];
    for (let round = 0; round < 15; round++) {
      const wants = Array.from({ length: 6 }, (_, i) => (i + round) % 2 === 0);
      const replies = await Promise.all(
        wants.map((enabled, i) => api.patch(`/api/v1/webhooks/${id}`, { enabled, description: `round ${round}, request ${i}` }, { token: ada })),
      );
      replies.forEach((reply, i) => {
        expect(reply.status, reply.text).toBe(200);
        // Serialised, each PATCH's own answer shows what it set: `enabled` as asked, and the
        // reason that goes with it (a disabled endpoint names who disabled it, an enabled one none).
        if (reply.body.enabled !== wants[i] || (reply.body.disabledReason === null) !== wants[i]) {
          wrong.push(`round ${round}: asked enabled=${wants[i]}, got ${JSON.stringify({ enabled: reply.body.enabled, disabledReason: reply.body.disabledReason })}`);
        }
      });
      const final = await api.get(`/api/v1/webhooks/${id}`, { token: ada });
      const last = replies.find((r) => r.body.description === final.body.description);
      expect(last, 'the endpoint ends as one of the PATCHes left it').toBeDefined();
      expect(final.body.enabled).toBe(last!.body.enabled);
    }
    expect(wrong).toEqual([]);
  });

  it('answers PATCHes racing the DELETE of the endpoint with 200 or 404, never 500', async () => {
    const statuses: Reply[] = [];
    for (let round = 0; round < 15; round++) {
      const id = await create();
      const replies = await Promise.all([
        ...Array.from({ length: 4 }, (_, i) => api.patch(`/api/v1/webhooks/${id}`, { enabled: i % 2 === 0, description: `d${i}` }, { token: ada })),
        api.delete(`/api/v1/webhooks/${id}`, { token: ada }),
        ...Array.from({ length: 4 }, (_, i) => api.patch(`/api/v1/webhooks/${id}`, { enabled: i % 2 === 1, url: `${TARGET}/${i}` }, { token: ada })),
      ]);
      statuses.push(...replies);
      expect((await api.get(`/api/v1/webhooks/${id}`, { token: ada })).status).toBe(404);
    }
    const unexpected = statuses.filter((r) => r.status !== 200 && r.status !== 204 && r.status !== 404);
    expect(unexpected.map((r) => `${r.status} ${r.text}`)).toEqual([]);
    for (const r of statuses.filter((x) => x.status === 404)) expect(r.body).toMatchObject({ error: true, code: 404 });
  });
});
