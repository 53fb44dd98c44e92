// The `signal` of client.events() is often an application's long-lived one (its shutdown signal,
// a component's lifetime) shared by every stream it opens. A stream that is over (`break`, an
// error, close()) must let go of that signal: before, each one left its 'abort' listener on it,
// so the signal kept every stream it had ever opened (its connection state, its client) alive,
// and Node warned "Possible EventTarget memory leak detected" from the eleventh on. The signal
// still closes a stream that is open.
import { getEventListeners } from 'node:events';
import { describe, expect } from 'vitest';
import { LearningClient, ValidationError } from '../src/client/index.js';
import { serverTest } from './support/fixtures.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import type { TestServer } from './support/server.js';
import { waitFor } from './support/wait.js';

const it = serverTest({ env: NO_RATE_LIMITS });

describe("events() and the caller's signal", () => {
  let server: TestServer;
  let ada: LearningClient;

  it.beforeAll(({ server: started, ada: token }) => {
    server = started;
    ada = new LearningClient({ baseUrl: server.url, token });
  });

  it('streams that are over leave no listener on a shared signal, and no leak warning; an open one is still closed by it', async () => {
    await ada.analytics.recordPageView('/signal/0');
    await ada.analytics.recordPageView('/signal/1');
    // Listed once the relay has positioned both.
    const first = await waitFor('the two page views in the event list', async () => {
      const { items } = await ada.listEvents({ types: ['analytics.hit'] });
      return items.some((e) => e.event === 'analytics.hit' && e.path === '/signal/1') && items.find((e) => e.event === 'analytics.hit' && e.path === '/signal/0');
    });

    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    const app = new AbortController();
    try {
      // Twelve streams ended with `break` after the event replayed after `first`.
      for (let i = 0; i < 12; i++) {
        for await (const event of ada.events({ types: ['analytics.hit'], after: first.id, signal: app.signal })) {
          expect(event.path).toBe('/signal/1');
          break;
        }
      }
      // One ended by an error, one by close() before it was read.
      await expect(ada.events({ after: 'evt_unknown', signal: app.signal }).next()).rejects.toBeInstanceOf(ValidationError);
      ada.events({ signal: app.signal }).close();
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));

      expect(getEventListeners(app.signal, 'abort')).toHaveLength(0);
      expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);

      // The signal still closes a stream that is open: a pending next() resolves as done.
      const open = ada.events({ types: ['lesson.published'], signal: app.signal });
      const pending = open.next();
      await waitFor('the open stream to listen to the signal', () => getEventListeners(app.signal, 'abort').length === 1);
      app.abort();
      await expect(pending).resolves.toEqual({ done: true, value: undefined });
      expect(getEventListeners(app.signal, 'abort')).toHaveLength(0);
    } finally {
      process.off('warning', onWarning);
      app.abort();
    }
  });
});
