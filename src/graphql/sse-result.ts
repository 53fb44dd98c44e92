// Subscriptions over SSE on /graphql (graphql-sse's distinct connections mode), written as Yoga's
// own SSE processor writes them (same headers, pings every 12 s, `next` and `complete` events) but
// from a node Readable that pulls one result when the socket wants more and pushes it as one buffer,
// with no web stream per result. A result shared by many subscribers is serialised once.
import { Readable } from 'node:stream';
import type { ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

const HEADERS = { 'Content-Type': 'text/event-stream', Connection: 'keep-alive', 'Cache-Control': 'no-cache', 'Content-Encoding': 'none' };
const PING = Buffer.from(':\n\n');
const COMPLETE = Buffer.from('event: complete\ndata:\n\n');

/** Yoga pings every 12 s (every 300 ms under NODE_ENV=test, which its tests and ours rely on). */
const pingIntervalMs = () => (process.env.NODE_ENV === 'test' ? 300 : 12_000);

type Extensions = Record<string, unknown> | undefined;
const rest = (extensions: Extensions, ...internal: string[]): Extensions => {
  const kept = Object.fromEntries(Object.entries(extensions ?? {}).filter(([key]) => !internal.includes(key)));
  return Object.keys(kept).length ? kept : undefined;
};

/** The result as Yoga serialises it: its errors and itself without the extensions Yoga keeps for itself. */
export function withoutInternals(result: ExecutionResult): ExecutionResult | object {
  if (!result.errors?.length && !result.extensions?.http) return result;
  const errors = result.errors?.map((error) => {
    const json = (typeof error.toJSON === 'function' ? error.toJSON() : { ...error }) as { extensions?: Extensions };
    return { ...json, extensions: rest(json.extensions, 'http', 'unexpected') };
  });
  return { ...result, extensions: rest(result.extensions, 'http'), ...(errors ? { errors } : {}) };
}

const frames = new WeakMap<object, Buffer>();
function frameOf(result: ExecutionResult): Buffer {
  let frame = frames.get(result);
  if (!frame) frames.set(result, (frame = Buffer.from(`event: next\ndata: ${JSON.stringify(withoutInternals(result))}\n\n`)));
  return frame;
}

function sseBody(results: AsyncIterable<ExecutionResult>): Readable {
  const iterator = results[Symbol.asyncIterator]();
  let pulling = false;
  const pull = () => {
    pulling = true;
    iterator.next().then(
      ({ value, done }) => {
        pulling = false;
        if (body.destroyed) return;
        // A push that leaves room makes node ask for more (read() below); nothing pushed, ask now.
        if (value != null) body.push(frameOf(value));
        if (done) {
          clearInterval(ping);
          body.push(COMPLETE);
          body.push(null);
        } else if (value == null) pull();
      },
      (error: unknown) => body.destroy(error instanceof Error ? error : new Error(String(error))),
    );
  };
  const body: Readable = new Readable({
    read() {
      // A ping pushed while a result is awaited makes node ask again: one pull at a time.
      if (!pulling) pull();
    },
    destroy(error, callback) {
      clearInterval(ping);
      Promise.resolve(iterator.return?.()).then(
        () => callback(error),
        () => callback(error),
      );
    },
  });
  body.push(PING);
  const ping = setInterval(() => {
    if (body.readableLength < body.readableHighWaterMark) body.push(PING);
  }, pingIntervalMs());
  return body;
}

/**
 * Takes over the SSE response of subscriptions on the given paths (not graphql-sse's
 * single-connection stream, nor `@defer`/`@stream` results, which stay Yoga's).
 */
export function useSubscriptionSSE(paths: readonly string[]): Plugin {
  const subscriptions = new WeakSet<Request>();
  return {
    onSubscribe({ args }) {
      const request = (args.contextValue as { request?: Request }).request;
      if (request) subscriptions.add(request);
    },
    onResultProcess({ request, result, setResultProcessor }) {
      if (!subscriptions.has(request) || !isAsyncIterable(result)) return;
      if (!(request.headers.get('accept') ?? '').includes('text/event-stream')) return;
      if (!paths.includes(new URL(request.url, 'http://localhost/').pathname)) return;
      setResultProcessor(
        (res, fetchAPI) => new fetchAPI.Response(sseBody(res as AsyncIterable<ExecutionResult>) as unknown as BodyInit, { status: 200, headers: HEADERS }),
        'text/event-stream',
      );
    },
  };
}
