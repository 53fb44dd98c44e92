// The live event stream: `for await (const event of client.events())` over the GraphQL subscription
// `events(types, after)` as Server-Sent Events (graphql-sse's client, its own retries off), resumed
// after the last event handed out whenever a connection drops, so the caller sees every event once,
// in order, across reconnects.
import { createClient, NetworkError, type ExecutionResult } from 'graphql-sse';
import { EventsDocument } from './documents.js';
import { graphQLError, LearningApiError, parseRetryAfter, restError, type GraphQLErrorItem } from './errors.js';
import { sleep, type FetchLike, type Transport } from './transport.js';
import type { EventType, LearningEvent } from './types.js';

export interface EventStreamOptions {
  /** Only these events (none: all). */
  types?: EventType[] | undefined;
  /** Start after this event id (`evt_…`): the stored events newer than it are replayed first. */
  after?: string | undefined;
  /** Closes the stream. */
  signal?: AbortSignal | undefined;
  /** Consecutive failed connection attempts before the stream gives up with the last error [Infinity]. */
  maxReconnectAttempts?: number | undefined;
  /** The first delay before reconnecting, doubled after each failed attempt [500]. */
  reconnectDelayMs?: number | undefined;
  /** The longest delay before reconnecting [15000]. */
  maxReconnectDelayMs?: number | undefined;
  /** Called each time a connection is established (`reconnect` false for the first). */
  onConnected?: ((info: { reconnect: boolean; after: string | undefined }) => void) | undefined;
  /** Called when a connection is lost and another will be tried, with what ended it. */
  onDisconnected?: ((info: { error: unknown; attempt: number; delayMs: number }) => void) | undefined;
}

/** The server's `extensions.code` for a subscriber it ended for falling behind (see `refusal`). */
const SUBSCRIBER_TOO_SLOW = 'SUBSCRIBER_TOO_SLOW';

/** Events waiting to be handed out before the stream stops reading the connection. */
const HIGH_WATER = 100;

/**
 * Lets the SSE body be read, or holds its reading while the caller has HIGH_WATER events waiting:
 * a caller that stops asking leaves the rest in the server's bounded buffer (which ends it as too
 * slow, and the stream resumes) instead of piling them up in the caller's memory.
 */
class Valve {
  private opened: Promise<void> = Promise.resolve();
  private release: (() => void) | undefined;

  hold(): void {
    if (!this.release) this.opened = new Promise((resolve) => (this.release = resolve));
  }

  open(): void {
    this.release?.();
    this.release = undefined;
  }

  /** Resolves when reading may go on, or when the request is aborted (its read then fails). */
  wait(signal: AbortSignal | null | undefined): Promise<void> {
    if (!this.release || !signal) return this.opened;
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const onAbort = () => resolve();
      signal.addEventListener('abort', onAbort, { once: true });
      void this.opened.then(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }
}

/** A fetch whose successful responses are read through the valve: one chunk per read, none while it holds. */
function throughValve(fetchFn: FetchLike, valve: Valve): FetchLike {
  return async (input, init) => {
    const response = await fetchFn(input, init);
    if (!response.ok || !response.body) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          await valve.wait(init?.signal);
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
}

type Item = { kind: 'result'; result: ExecutionResult<{ events: LearningEvent }, unknown> } | { kind: 'end'; error?: unknown };

/** One SSE connection as a pull queue; `next()` resolves with `end` when the connection ends or is closed. */
function openConnection(
  sse: ReturnType<typeof createClient>,
  variables: { types?: EventType[]; after?: string },
  onConnected: () => void,
  signal: AbortSignal,
  valve: Valve,
): { next(): Promise<Item>; close(): void } {
  const items: Item[] = [];
  let wake: (() => void) | undefined;
  const push = (item: Item) => {
    items.push(item);
    if (items.length >= HIGH_WATER) valve.hold();
    wake?.();
  };
  const unsubscribe = sse.subscribe<{ events: LearningEvent }>(
    { query: EventsDocument.toString(), variables },
    {
      next: (result) => push({ kind: 'result', result }),
      error: (error) => push({ kind: 'end', error }),
      complete: () => push({ kind: 'end' }),
    },
    { connected: onConnected },
  );
  const onAbort = () => push({ kind: 'end' });
  signal.addEventListener('abort', onAbort, { once: true });
  return {
    async next() {
      while (!items.length) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      const item = items.shift()!;
      if (items.length < HIGH_WATER / 2) valve.open();
      return item;
    },
    close() {
      signal.removeEventListener('abort', onAbort);
      unsubscribe();
      valve.open();
    },
  };
}

/**
 * A live event stream: an async iterator that reconnects by itself. A dropped connection (network,
 * server restart, a 5xx or a 429) reconnects with `after: <last id>`, and the server replays what
 * committed meanwhile. GraphQL errors (a bad `types` name, an expired `after`, a revoked key) end it
 * with a typed error, except SUBSCRIBER_TOO_SLOW, which is a reconnect. `break`, `return()`,
 * `close()` or the signal close the connection.
 */
export class EventStream implements AsyncIterableIterator<LearningEvent> {
  /** The id of the last event handed out (or the `after` it started from): where a reconnect resumes. */
  lastEventId: string | undefined;
  private readonly controller = new AbortController();
  private readonly inner: AsyncGenerator<LearningEvent, void, undefined>;

  constructor(
    private readonly transport: Transport,
    private readonly options: EventStreamOptions = {},
  ) {
    this.lastEventId = options.after;
    const { signal } = options;
    if (signal?.aborted) this.controller.abort();
    // Removed again once the stream is over (the controller aborts then, however it ends): an
    // application's long-lived signal must not keep every stream it ever opened alive.
    else signal?.addEventListener('abort', () => this.close(), { once: true, signal: this.controller.signal });
    this.inner = this.run();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<LearningEvent, void>> {
    return this.inner.next();
  }

  /** Closes the connection; a pending `next()` resolves as done. */
  async return(): Promise<IteratorResult<LearningEvent, void>> {
    this.close();
    return this.inner.return(undefined);
  }

  /** Closes the stream: no more events, no reconnect. */
  close(): void {
    this.controller.abort();
  }

  private async *run(): AsyncGenerator<LearningEvent, void, undefined> {
    const { transport, options } = this;
    const signal = this.controller.signal;
    const maxAttempts = options.maxReconnectAttempts ?? Infinity;
    const firstDelay = options.reconnectDelayMs ?? 500;
    const maxDelay = options.maxReconnectDelayMs ?? 15_000;
    const valve = new Valve();
    const sse = createClient({
      url: `${transport.baseUrl}/graphql`,
      singleConnection: false,
      retryAttempts: 0,
      headers: () => transport.headers(),
      fetchFn: throughValve(transport.fetch, valve),
    });
    let failures = 0;
    let connections = 0;
    try {
      while (!signal.aborted) {
        const variables = { ...(options.types ? { types: options.types } : {}), ...(this.lastEventId !== undefined ? { after: this.lastEventId } : {}) };
        const connection = openConnection(
          sse,
          variables,
          () => {
            failures = 0;
            const reconnect = connections++ > 0;
            options.onConnected?.({ reconnect, after: variables.after });
          },
          signal,
          valve,
        );
        let ended: unknown;
        /** The server ended the operation in a way a reconnect with `after` fixes (SUBSCRIBER_TOO_SLOW). */
        let resumable = false;
        try {
          for (;;) {
            const item = await connection.next();
            if (item.kind === 'end') {
              ended = item.error;
              break;
            }
            const { data, errors } = item.result;
            if (errors?.length) {
              const error = graphQLError(errors as unknown as GraphQLErrorItem[]);
              // The server let go of a subscriber that fell too far behind (the caller read
              // slowly, or the network did) and names the last event it sent: every event up to
              // it has been handed out by now, so resuming after the last one loses nothing.
              if (error.code !== SUBSCRIBER_TOO_SLOW) throw error;
              const lastSent = (errors[0] as GraphQLErrorItem).extensions?.['lastEventId'];
              if (this.lastEventId === undefined && typeof lastSent === 'string') this.lastEventId = lastSent;
              ended = error;
              resumable = true;
              break;
            }
            if (!data?.events) continue;
            this.lastEventId = data.events.id;
            yield data.events;
          }
        } finally {
          connection.close();
        }
        if (signal.aborted) return;

        // The connection ended without a GraphQL error: try again unless the refusal is final.
        const refusal = resumable ? undefined : await this.refusal(ended);
        if (refusal) throw refusal;
        failures++;
        if (failures > maxAttempts) {
          throw ended instanceof Error ? ended : new Error('Event stream: the server ended the connection', { cause: ended });
        }
        let delayMs = Math.min(maxDelay, firstDelay * 2 ** (failures - 1));
        const retryAfter = ended instanceof NetworkError ? parseRetryAfter(ended.response?.headers.get('retry-after')) : undefined;
        if (retryAfter !== undefined) delayMs = Math.max(delayMs, retryAfter * 1000);
        options.onDisconnected?.({ error: ended, attempt: failures, delayMs });
        try {
          await sleep(delayMs, signal);
        } catch {
          return; // closed while waiting
        }
      }
    } finally {
      this.controller.abort();
      sse.dispose();
    }
  }

  /**
   * The typed error that ends the stream, or undefined when reconnecting may help: a dropped
   * connection, a 5xx, or a 429 within the client's retry policy.
   */
  private async refusal(error: unknown): Promise<LearningApiError | Error | undefined> {
    // No error: the server completed the (endless) subscription, e.g. while shutting down.
    if (error === undefined) return undefined;
    // graphql-sse reports every transport failure as a NetworkError; anything else is a protocol error.
    if (!(error instanceof NetworkError)) return error instanceof Error ? error : new Error(String(error));
    const response = error.response as Response | undefined;
    if (!response || response.status >= 500) return undefined;
    let body: unknown;
    try {
      const text = await response.text();
      body = text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      body = undefined;
    }
    const errors = (body as { errors?: GraphQLErrorItem[] } | undefined)?.errors;
    const typed = errors?.length ? graphQLError(errors, response) : restError(response, body);
    if (response.status === 429 && this.transport.retryOnRateLimit) {
      const seconds = parseRetryAfter(response.headers.get('retry-after')) ?? 1;
      if (seconds * 1000 <= this.transport.maxRetryDelayMs) return undefined;
    }
    return typed;
  }
}
