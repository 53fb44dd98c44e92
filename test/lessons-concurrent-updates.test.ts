// Concurrent changes of one lesson over real HTTP: every acknowledged PATCH has its event, and
// `updatedAt` follows the order in which the changes were applied, so the lesson's final state is
// the write with the latest `updatedAt`. A client that keeps the newest copy of a lesson by
// `updatedAt` (a cache, a sync) would otherwise keep a state the lesson no longer has.
import { describe, expect } from 'vitest';
import { serverTestOn } from './support/fixtures.js';
import type { Client } from './support/http.js';
import { DATABASES } from './support/server.js';
import { NO_RATE_LIMITS } from './support/limits.js';

const tests = serverTestOn({ env: NO_RATE_LIMITS });

describe.each(DATABASES)('concurrent changes of one lesson on %s', (kind) => {
  const it = tests[kind];

  const newestEventId = async (api: Client, ada: string) => {
    let after: string | undefined;
    for (;;) {
      const page = await api.get(`/api/v1/events?limit=1000${after ? `&after=${after}` : ''}`, { token: ada });
      expect(page.status, page.text).toBe(200);
      if (page.body.items.length) after = page.body.items.at(-1).id;
      if (!page.body.nextCursor) return after;
    }
  };

  it('never moves updatedAt back: the final state is the acknowledged write with the latest updatedAt', async ({ api, ada }) => {
    for (let round = 0; round < 3; round++) {
      const created = await api.post('/api/v1/lessons', { title: `Race ${round}`, body: 'b' }, { token: ada });
      expect(created.status, created.text).toBe(201);
      const id = created.body.id as string;
      const before = await newestEventId(api, ada);

      const replies = await Promise.all([
        ...Array.from({ length: 30 }, (_, i) => api.patch(`/api/v1/lessons?id=${id}`, { title: `Write ${i}` }, { token: ada })),
        api.post(`/api/v1/lessons/publish?id=${id}`, undefined, { token: ada }),
      ]);
      for (const r of replies) expect(r.status, r.text).toBe(200);

      const final = (await api.get(`/api/v1/lessons?id=${id}`, { token: ada })).body;
      const latest = replies.map((r) => r.body.updatedAt as string).sort().at(-1)!;
      // Nothing acknowledged is newer than what the lesson now holds...
      expect(final.updatedAt >= latest, `final updatedAt ${final.updatedAt} (title ${final.title}) is older than an acknowledged write's ${latest}`).toBe(true);
      // ...and what it holds is the write that carries the latest updatedAt.
      const writes = replies.slice(0, 30).filter((r) => r.body.updatedAt === final.updatedAt).map((r) => r.body.title);
      if (writes.length) expect(writes).toContain(final.title);
      expect(final.status).toBe('PUBLISHED');

      // Every acknowledged change has exactly one event.
      let after = before;
      const events: { event: string; lessonId?: string }[] = [];
      for (let tries = 0; tries < 50; tries++) {
        const page = await api.get(`/api/v1/events?limit=1000${after ? `&after=${after}` : ''}`, { token: ada });
        events.push(...page.body.items);
        if (page.body.items.length) after = page.body.items.at(-1).id;
        if (events.filter((e) => e.lessonId === id).length >= 31) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const mine = events.filter((e) => e.lessonId === id);
      expect(mine.filter((e) => e.event === 'lesson.updated')).toHaveLength(30);
      expect(mine.filter((e) => e.event === 'lesson.published')).toHaveLength(1);
    }
  });
});
