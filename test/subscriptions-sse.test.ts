// A subscription over SSE on /graphql, byte for byte as a client reads it off the socket
// (src/graphql/sse-result.ts writes it in the format of Yoga's own SSE processor): the headers, a
// ping first and while idle, one `event: next` per event, identical frames for subscribers that
// share a result, an error that ends the stream without Yoga's internal extensions, then
// `event: complete` and the end of the response.
import { randomBytes } from 'node:crypto';
import { request, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { serverForSuite } from './support/server.js';
import { waitFor } from './support/wait.js';

const QUERY = 'subscription { events { id event path } }';

interface RawStream {
  res: IncomingMessage;
  /** Everything read so far. */
  text(): string;
  ended: Promise<void>;
}

function open(url: string, token: string): Promise<RawStream> {
  const body = JSON.stringify({ query: QUERY });
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/graphql`,
      { method: 'POST', headers: { accept: 'text/event-stream', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${token}` } },
      (res) => {
        res.setEncoding('utf8');
        let text = '';
        res.on('data', (chunk: string) => (text += chunk));
        const ended = new Promise<void>((done) => res.on('end', done));
        resolve({ res, text: () => text, ended });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The `event: next` frames read so far, as sent. */
const frames = (s: RawStream) => s.text().split('\n\n').filter((block) => block.startsWith('event: next\n')).map((block) => `${block}\n\n`);

describe('subscriptions over SSE on /graphql', () => {
  const suite = serverForSuite();

  it('answers with the SSE headers, pings first and while idle, and sends each event as one frame (the same bytes to every subscriber)', async () => {
    const { token } = await suite.api.loginAs('ada');
    const [a, b] = await Promise.all([open(suite.server.url, token), open(suite.server.url, token)]);
    for (const s of [a, b]) {
      expect(s.res.statusCode).toBe(200);
      expect(s.res.headers['content-type']).toBe('text/event-stream');
      expect(s.res.headers['cache-control']).toBe('no-cache');
    }
    // Under NODE_ENV=test the pings come every 300 ms, as Yoga's do.
    await waitFor('two pings before any event', () => a.text().startsWith(':\n\n:\n\n'), 5_000);

    const path = `/sse-wire/${randomBytes(4).toString('hex')}`;
    // A view per try until one arrives (the streams are registered with the bus by then).
    await waitFor('the event on the first stream', async () => {
      expect((await suite.api.post('/api/analytics/views', { path })).status).toBe(202);
      return frames(a).some((f) => f.includes(path));
    }, 20_000);
    const frame = frames(a).find((f) => f.includes(path))!;
    await waitFor('the same event on the second stream', () => frames(b).some((f) => f.includes(path)), 10_000);
    expect(frame).toMatch(/^event: next\ndata: \{.*\}\n\n$/s);
    const sent = JSON.parse(frame.slice('event: next\ndata: '.length)) as { data: { events: { id: string; event: string; path: string } } };
    expect(sent).toEqual({ data: { events: { id: expect.stringMatching(/^evt_/), event: 'analytics.hit', path } } });
    expect(frames(b).find((f) => f.includes(path))).toBe(frame);
    a.res.destroy();
    b.res.destroy();
  });

  it('ends a stream whose session is revoked with the error, without internal extensions, then event: complete and the end of the response', async () => {
    const { token } = await suite.api.loginAs('grace');
    const stream = await open(suite.server.url, token);
    const session = ((await suite.api.get('/api/v1/sessions', { token })).body.items as { id: string; current: boolean }[]).find((s) => s.current)!;
    // Live: a view made now arrives.
    const probe = `/sse-wire/probe/${randomBytes(4).toString('hex')}`;
    await waitFor('the stream to go live', async () => {
      await suite.api.post('/api/analytics/views', { path: probe });
      return frames(stream).some((f) => f.includes(probe));
    }, 20_000);

    expect((await suite.api.delete(`/api/v1/sessions/${session.id}`, { token })).status).toBe(204);
    await stream.ended;
    const text = stream.text();
    expect(text.endsWith('event: complete\ndata:\n\n')).toBe(true);
    const last = frames(stream).at(-1)!;
    const result = JSON.parse(last.slice('event: next\ndata: '.length)) as { errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(result.errors).toEqual([{ message: 'Missing or invalid token', extensions: { code: 'UNAUTHENTICATED', status: 403 } }]);
  });
});
