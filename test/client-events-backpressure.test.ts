// The client's event stream when its caller stops asking for events. `SUBSCRIPTION_BUFFER` bounds
// what the server keeps for a subscriber that does not read (docs/events.md, "Bounded subscribers"); the
// client must not undo it by reading the stream on regardless and queueing every event in the
// caller's memory. Here the caller takes one event, then ~4 MB of events are committed while it
// asks for nothing: the stream may read a little ahead, not the lot. When the caller asks again,
// it gets every committed event once, in commit order.
import { randomBytes } from 'node:crypto';
import { describe, expect } from 'vitest';
import { LearningClient, type FetchLike, type LearningEvent } from '../src/client/index.js';
import { serverTest } from './support/fixtures.js';
import { client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import type { TestServer } from './support/server.js';
import { sleep, waitFor } from './support/wait.js';

/** Page views recorded per GraphQL request (aliases, at most 50), each with a ~2 KB path. */
const PER_REQUEST = 50;
/** 2,000 events of ~2 KB: about 4 MB. */
const ROUNDS = 40;
const PAD = 'x'.repeat(1900);

/** A fetch that counts the bytes of event-stream responses the client has read off the network. */
function countingFetch() {
  const counter = { bytes: 0 };
  const fetchFn: FetchLike = async (input, init) => {
    const response = await fetch(input, init);
    const accept = new Headers(init?.headers).get('accept') ?? '';
    if (!accept.includes('text/event-stream') || !response.body) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          counter.bytes += value.byteLength;
          controller.enqueue(value);
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return { fetch: fetchFn, counter };
}

const it = serverTest({ env: NO_RATE_LIMITS });

describe('events() when its caller stops asking', () => {
  let server: TestServer;
  let ada: LearningClient;

  it.beforeAll(({ server: started, ada: token }) => {
    server = started;
    ada = new LearningClient({ baseUrl: server.url, token });
  });

  it('reads only a little ahead of the caller, then hands out every event once, in commit order', { timeout: 180_000 }, async () => {
    const prefix = `/paused/${randomBytes(5).toString('hex')}`;
    const record = (round: number) =>
      ada.query(
        {
          toString: () =>
            `mutation($p: String!) { ${Array.from({ length: PER_REQUEST }, (_, i) => `v${i}: recordPageView(path: $p)`).join(' ')} }`,
        },
        { p: `${prefix}/${round}/${PAD}` },
      );

    const net = countingFetch();
    const keyed = new LearningClient({ baseUrl: server.url, token: (await client(server.url).loginAs('ada')).token, fetch: net.fetch });
    const stream = keyed.events({ types: ['analytics.hit'], reconnectDelayMs: 50 });
    try {
      // Live: the caller takes the first event of round 0, then asks for nothing.
      const first = stream.next();
      let firstResult: IteratorResult<LearningEvent, void> | undefined;
      void first.then((result) => (firstResult = result));
      await waitFor('the stream to go live', async () => {
        if (firstResult) return true;
        await record(0);
        await sleep(200);
        return false;
      });
      expect(firstResult?.done).toBe(false);

      for (let round = 1; round <= ROUNDS; round++) await record(round);
      const committedBytes = ROUNDS * PER_REQUEST * PAD.length;

      // Whatever the stream reads ahead, it has read it once its count stops growing (by more
      // than the server's keep-alive pings).
      let read = -1;
      for (let quiet = 0; quiet < 4; ) {
        await sleep(250);
        quiet = net.counter.bytes - read < 1024 ? quiet + 1 : 0;
        read = net.counter.bytes;
      }
      expect(read).toBeLessThan(committedBytes / 4);

      // The caller asks again: every event committed since round 0 began, once, in commit order.
      const events: LearningEvent[] = [];
      for (;;) {
        const { done, value } = await stream.next();
        if (done) throw new Error('the stream ended');
        if (value.path?.startsWith(`${prefix}/`)) events.push(value);
        if (value.path?.startsWith(`${prefix}/${ROUNDS}/`) && events.filter((e) => e.path?.startsWith(`${prefix}/${ROUNDS}/`)).length === PER_REQUEST) break;
      }
      const firstId = (firstResult as IteratorYieldResult<LearningEvent>).value.id;
      const stored: string[] = [];
      for await (const e of ada.allEvents({ types: ['analytics.hit'], after: firstId, limit: 1000 })) {
        if (e.event === 'analytics.hit' && e.path.startsWith(`${prefix}/`)) stored.push(e.id);
      }
      expect(events.map((e) => e.id)).toEqual(stored);
    } finally {
      await stream.return();
    }
  });
});
