// The live event stream: `for await (const event of client.events())` over the GraphQL subscription
// `events(types, after)` as Server-Sent Events (graphql-sse's client, its own retries off), resumed
// after the last event handed out whenever a connection drops, so the caller sees every event once,
// in order, across reconnects. When it gives up, it throws the client's own error: a NetworkError
// or a LearningApiError.
import { createClient, NetworkError as SseNetworkError, type ExecutionResult } from 'graphql-sse';
import { EventsDocument } from './documents.js';
import { graphQLError, LearnstreamError, NetworkError, parseRetryAfter, restError, type GraphQLErrorItem } from './errors.js';
import { sleep, type Transport } from './transport.js';
import type { EventType, LearningEvent } from './types.js';
import { HIGH_WATER, throughValve, Valve } from './valve.js';

export interface EventStreamOptions {
  /** Only these events (none: all). */
  types?: EventType[] | undefined;
  /** Start after this event id (`evt_…`): the stored events newer than it are replayed first. */
  after?: string | undefined;
  /** Closes the stream. */
  signal?: AbortSignal | undefined;
  /**
   * Consecutive failed connection attempts before the stream gives up with the last error
   * (NetworkError when the server could not be reached) [Infinity].
   */
  maxReconnectAttempts?: number | undefined;
  /** The first delay before reconnecting, doubled after each failed attempt [500]. */
  reconnectDelayMs?: number | undefined;
  /** The longest delay before reconnecting [15000]. */
  maxReconnectDelayMs?: number | undefined;
  /** Called each time a connection is established (`reconnect` false for the first). */
  onConnected?: ((info: { reconnect: boolean; after: string | undefined }) => void) | undefined;
  /** Called when a connection is lost and another will be tried, with what ended it (as graphql-sse reported it). */
  onDisconnected?: ((info: { error: unknown; attempt: number; delayMs: number }) => void) | undefined;
}

/** The server's `extensions.code` for a subscriber it ended for falling behind (see `run`). */
const SUBSCRIBER_TOO_SLOW = 'SUBSCRIBER_TOO_SLOW';

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
 * committed meanwhile; after `maxReconnectAttempts` failed attempts in a row it throws the last
 * failure as a NetworkError or LearningApiError. GraphQL errors (a bad `types` name, an expired
 * `after`, a revoked key) end it with a typed error at once, except SUBSCRIBER_TOO_SLOW, which is a
 * reconnect. `break`, `return()`, `close()` or the signal close the connection.
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
    /** The network failure that ended the current connection attempt, with its cause. */
    let networkFailure: NetworkError | undefined;
    const sse = createClient({
      url: `${transport.baseUrl}/graphql`,
      singleConnection: false,
      retryAttempts: 0,
      headers: () => transport.headers(),
      fetchFn: throughValve(transport.fetch, valve, (error) => (networkFailure = error)),
    });
    let failures = 0;
    let connections = 0;
    try {
      while (!signal.aborted) {
        const variables = { ...(options.types ? { types: options.types } : {}), ...(this.lastEventId !== undefined ? { after: this.lastEventId } : {}) };
        networkFailure = undefined;
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
        const retryAfter = ended instanceof SseNetworkError ? parseRetryAfter(ended.response?.headers.get('retry-after')) : undefined;
        const outcome = resumable ? { error: ended as Error, retry: true } : await this.outcome(ended, networkFailure);
        if (!outcome.retry) throw outcome.error;
        failures++;
        if (failures > maxAttempts) throw outcome.error;
        let delayMs = Math.min(maxDelay, firstDelay * 2 ** (failures - 1));
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
   * What ended a connection as the client's error, and whether reconnecting may help: it may
   * after a network failure, a 5xx, or a 429 within the client's retry policy.
   */
  private async outcome(ended: unknown, networkFailure: NetworkError | undefined): Promise<{ error: Error; retry: boolean }> {
    const url = `${this.transport.baseUrl}/graphql`;
    // No error: the server completed the (endless) subscription, e.g. while shutting down.
    if (ended === undefined) return { error: new NetworkError(url, undefined, 'the server ended the event stream'), retry: true };
    if (ended instanceof LearnstreamError) return { error: ended, retry: ended instanceof NetworkError };
    // graphql-sse reports every transport failure as its NetworkError; anything else is a protocol error.
    if (!(ended instanceof SseNetworkError)) return { error: ended instanceof Error ? ended : new Error(String(ended)), retry: false };
    const response = ended.response as Response | undefined;
    if (!response) return { error: networkFailure ?? new NetworkError(url, ended), retry: true };
    let body: unknown;
    try {
      const text = await response.text();
      body = text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      body = undefined;
    }
    const errors = (body as { errors?: GraphQLErrorItem[] } | undefined)?.errors;
    const error = errors?.length ? graphQLError(errors, response) : restError(response, body);
    if (response.status >= 500) return { error, retry: true };
    const seconds = parseRetryAfter(response.headers.get('retry-after')) ?? 1;
    return { error, retry: response.status === 429 && this.transport.retryOnRateLimit && seconds * 1000 <= this.transport.maxRetryDelayMs };
  }
}
