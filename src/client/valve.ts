// The event stream's reading pace: a fetch for graphql-sse whose response bodies are read only
// while the caller keeps up, and which reports each network failure on the way with its cause.
import { NetworkError } from './errors.js';
import type { FetchLike } from './transport.js';

/** Events waiting to be handed out before the stream stops reading the connection. */
export const HIGH_WATER = 100;

/**
 * Lets the SSE body be read, or holds its reading while the caller has HIGH_WATER events waiting:
 * a caller that stops asking leaves the rest in the server's bounded buffer (which ends it as too
 * slow, and the stream resumes) instead of piling them up in the caller's memory.
 */
export class Valve {
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

/**
 * A fetch whose successful responses are read through the valve: one chunk per read, none while
 * it holds. graphql-sse keeps only the message of a failed fetch or read, so each failure (not an
 * abort) is also handed to `onNetworkFailure` as a NetworkError with its cause, then rethrown.
 */
export function throughValve(fetchFn: FetchLike, valve: Valve, onNetworkFailure: (error: NetworkError) => void): FetchLike {
  return async (input, init) => {
    const failed = (error: unknown): never => {
      if (!init?.signal?.aborted) onNetworkFailure(new NetworkError(input, error));
      throw error;
    };
    const response = await fetchFn(input, init).catch(failed);
    if (!response.ok || !response.body) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          await valve.wait(init?.signal);
          const { done, value } = await reader.read().catch(failed);
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
