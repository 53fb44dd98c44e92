// The client's event stream when the server lets go of it for falling behind. A subscriber more
// than SUBSCRIPTION_BUFFER events behind gets SUBSCRIBER_TOO_SLOW naming the last event it was
// sent, "subscribe again with after: … to resume" (docs/events.md, "Bounded subscribers"); the client's
// docs (docs/client.md) promise a stream that "reconnects by itself and resumes after the last event it handed
// out". Here the network stalls for real: a fetch wrapper stops reading the SSE response (as a
// slow link would, so TCP's window closes and the server's socket fills) while page views with
// ~2 KB paths are committed (far more than the kernel's buffers hold); then the network recovers
// and the server, reading the ring again, finds the subscriber too far behind. The stream must go on after the last event it handed out: every committed event once,
// in commit order, and no error.
import { randomBytes } from 'node:crypto';
import { describe, expect } from 'vitest';
import { LearningClient, type FetchLike, type LearningEvent } from '../src/client/index.js';
import { serverTest } from './support/fixtures.js';
import { client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import type { TestServer } from './support/server.js';
import { sleep, waitFor } from './support/wait.js';

const BUFFER = 5;
/** Page views recorded per GraphQL request (aliases, at most 50), each with a ~2 KB path. */
const PER_REQUEST = 50;
/** 5,000 events of ~2 KB: more than the kernel's loopback buffers (a few MB) hold. */
const ROUNDS = 100;
const PAD = 'x'.repeat(1900);

/** A network that can stall: while stalled, no byte of an event-stream response is read. */
function stallingNetwork() {
  let open: Promise<void> = Promise.resolve();
  let recover = () => {};
  const fetchFn: FetchLike = async (input, init) => {
    const response = await fetch(input, init);
    const accept = new Headers(init?.headers).get('accept') ?? '';
    if (!accept.includes('text/event-stream') || !response.body) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          await open;
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return {
    fetch: fetchFn,
    stall() {
      open = new Promise((resolve) => (recover = resolve));
    },
    recover: () => recover(),
  };
}

const it = serverTest({ env: { ...NO_RATE_LIMITS, SUBSCRIPTION_BUFFER: String(BUFFER) } });

describe('events() when the server ends a subscriber that fell behind (SUBSCRIBER_TOO_SLOW)', () => {
  let server: TestServer;
  let ada: LearningClient;

  it.beforeAll(({ server: started, ada: token }) => {
    server = started;
    ada = new LearningClient({ baseUrl: server.url, token });
  });

  it('resumes after the last event it handed out: every event once, in commit order, and no error', { timeout: 240_000 }, async () => {
    const prefix = `/too-slow/${randomBytes(5).toString('hex')}`;
    const record = (round: number, views = PER_REQUEST) =>
      ada.query(
        {
          toString: () => `mutation($p: String!) { ${Array.from({ length: views }, (_, i) => `v${i}: recordPageView(path: $p)`).join(' ')} }`,
        },
        { p: `${prefix}/${round}/${PAD}` },
      );

    const net = stallingNetwork();
    const keyed = new LearningClient({ baseUrl: server.url, token: (await client(server.url).loginAs('ada')).token, fetch: net.fetch });
    const disconnects: unknown[] = [];
    const stream = keyed.events({ types: ['analytics.hit'], reconnectDelayMs: 50, onDisconnected: ({ error }) => disconnects.push(error) });
    const events: LearningEvent[] = [];
    let failure: unknown;
    const loop = (async () => {
      try {
        for await (const event of stream) events.push(event);
      } catch (error) {
        failure = error;
      }
    })();

    try {
      // Live: the first round arrives.
      await waitFor('the stream to go live', async () => {
        if (failure) throw failure;
        if (events.some((e) => e.path?.startsWith(`${prefix}/0/`))) return true;
        await record(0);
        await sleep(200);
        return false;
      });
      const firstId = events.find((e) => e.path?.startsWith(`${prefix}/0/`))!.id;

      // The network stalls while ~10 MB of events are committed: far past the kernel's buffers,
      // so the server's subscriber falls more than BUFFER events behind.
      net.stall();
      let round = 1;
      for (; round <= ROUNDS; round++) await record(round);

      // The network recovers: the server lets go of the subscriber, which resumes and reads what
      // it missed from the store, up to the last page view of the stall.
      net.recover();
      const stalled = ROUNDS * PER_REQUEST;
      const inStall = (e: LearningEvent) => e.path?.startsWith(`${prefix}/`) && !e.path.startsWith(`${prefix}/0/`);
      await waitFor(
        'the resumed stream to catch up',
        () => {
          if (failure) throw failure;
          return events.filter(inStall).length >= stalled;
        },
        120_000,
      );
      // Then one page view, live. One, not fifty: fifty at once are ten times the buffer, and a
      // subscriber that has not read them yet (a busy machine) would be let go of again, which is
      // the behaviour above, not what this step checks.
      await record(round, 1);
      await waitFor(
        'the page view after the recovery',
        () => {
          if (failure) throw failure;
          return events.some((e) => e.path?.startsWith(`${prefix}/${round}/`));
        },
        60_000,
      );

      const stored: string[] = [];
      for await (const e of ada.allEvents({ types: ['analytics.hit'], after: firstId, limit: 1000 })) {
        if (e.event === 'analytics.hit' && e.path.startsWith(`${prefix}/`)) stored.push(e.id);
      }
      const received = events
        .slice(events.findIndex((e) => e.id === firstId) + 1)
        .filter((e) => e.path?.startsWith(`${prefix}/`))
        .map((e) => e.id);
      expect(received.length).toBe(stored.length);
      expect(received).toEqual(stored);
      expect(disconnects).toHaveLength(1);
      expect(disconnects[0]).toMatchObject({ code: 'SUBSCRIBER_TOO_SLOW' });
    } finally {
      net.recover();
      await stream.return();
      await loop;
    }
    expect(failure).toBeUndefined();
  });
});
