// The client's one way onto the network: builds the URL and headers, sends with the injected
// fetch, retries what is safe to retry, and turns refusals and network failures into typed errors.
import { graphQLError, LearnstreamError, NetworkError, parseRetryAfter, restError, type GraphQLErrorItem } from './errors.js';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface TransportOptions {
  /** Where the API is, e.g. `http://127.0.0.1:4000` (no trailing `/api`). */
  baseUrl: string;
  /** An API key (`lp_…`, from `apiKeys.create`), sent as `Authorization: Bearer lp_…`. */
  apiKey?: string | undefined;
  /** Or an access token (JWT, from `auth.login`) instead of an API key. */
  token?: string | undefined;
  /** The fetch to use [globalThis.fetch]. */
  fetch?: FetchLike | undefined;
  /** Replay a request refused with 429 after its Retry-After [true]. */
  retryOnRateLimit?: boolean | undefined;
  /** How many times one call may be replayed [2]. */
  maxRetries?: number | undefined;
  /** The longest Retry-After worth waiting for; a longer one throws RateLimitError at once [60000]. */
  maxRetryDelayMs?: number | undefined;
  /** Extra headers for every request (e.g. `x-request-id`). */
  headers?: Record<string, string> | undefined;
  /**
   * How long one attempt of a call may take, response body included, before it fails with
   * NetworkError [no limit of the client's own]. Not applied to `events()`, whose connection is meant to stay open.
   */
  timeoutMs?: number | undefined;
}

/** Options every call accepts. */
export interface CallOptions {
  /** Aborts the request (and any wait before a retry). */
  signal?: AbortSignal | undefined;
}

export type QueryValue = string | number | boolean | Date | null | undefined;

export interface RestRequest extends CallOptions {
  query?: Record<string, QueryValue> | undefined;
  body?: unknown;
}

/** What one request sends besides its method and URL. */
interface SendInit extends CallOptions {
  headers: Record<string, string>;
  body?: string | undefined;
}

export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;
/** When a 429 comes without Retry-After (the contract always sends one). */
const FALLBACK_RETRY_AFTER_S = 1;

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.set(key, value instanceof Date ? value.toISOString() : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export class Transport {
  readonly baseUrl: string;
  readonly fetch: FetchLike;
  readonly retryOnRateLimit: boolean;
  readonly maxRetries: number;
  readonly maxRetryDelayMs: number;
  readonly timeoutMs: number | undefined;
  private readonly credential: string | undefined;
  private readonly extraHeaders: Record<string, string>;

  constructor(options: TransportOptions) {
    if (!options.baseUrl) throw new TypeError('LearningClient: baseUrl is required');
    if (options.apiKey && options.token) throw new TypeError('LearningClient: give apiKey or token, not both');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    // Late-bound, so a test or polyfill that replaces globalThis.fetch later is honoured.
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.retryOnRateLimit = options.retryOnRateLimit ?? true;
    this.maxRetries = Math.max(0, options.maxRetries ?? DEFAULT_MAX_RETRIES);
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
    this.timeoutMs = options.timeoutMs;
    this.credential = options.apiKey ?? options.token;
    this.extraHeaders = { ...options.headers };
  }

  /** The headers every request carries: extra headers, then the credential as a bearer token. */
  headers(): Record<string, string> {
    return { ...this.extraHeaders, ...(this.credential ? { authorization: `Bearer ${this.credential}` } : {}) };
  }

  /**
   * How long to wait before replaying a refused request, or undefined when it must not be
   * replayed (not retryable, retries spent or off, or the wait would be longer than allowed).
   * A 429 was refused without being acted on, so it is replayed whatever its method, after its
   * Retry-After; a 503 with Retry-After is replayed for GET only, since a write may have been cut
   * off half-way. Nothing else is retried.
   */
  retryDelayMs(response: Response, method: string, attempt: number): number | undefined {
    if (attempt >= this.maxRetries) return undefined;
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    let seconds: number | undefined;
    if (response.status === 429 && this.retryOnRateLimit) seconds = retryAfter ?? FALLBACK_RETRY_AFTER_S;
    else if (response.status === 503 && method === 'GET' && retryAfter !== undefined) seconds = retryAfter;
    if (seconds === undefined) return undefined;
    const ms = seconds * 1000;
    return ms > this.maxRetryDelayMs ? undefined : ms;
  }

  /** Sends one request, replaying it as the retry policy allows; returns the final response and its parsed body. */
  async send(method: string, url: string, init: SendInit): Promise<{ response: Response; body: unknown }> {
    const { headers, body = null } = init;
    for (let attempt = 0; ; attempt++) {
      const result = await this.exchange(url, init.signal, async (signal) => {
        const response = await this.fetch(url, { method, headers, body, signal });
        const delay = response.ok ? undefined : this.retryDelayMs(response, method, attempt);
        if (delay === undefined) return { response, body: await readBody(response), delay };
        await response.body?.cancel();
        return { response, body: undefined, delay };
      });
      if (result.delay === undefined) return result;
      await sleep(result.delay, init.signal);
    }
  }

  /**
   * Runs one exchange with the server under the call's signal and the client's timeout. A failure
   * on the way (no connection, a reset, the timeout) becomes a NetworkError; the caller's own
   * abort still rejects with the signal's reason, as fetch does.
   */
  private async exchange<T>(url: string, callerSignal: AbortSignal | undefined, run: (signal: AbortSignal | null) => Promise<T>): Promise<T> {
    const timeout = this.timeoutMs === undefined ? undefined : AbortSignal.timeout(this.timeoutMs);
    const signals = [callerSignal, timeout].filter((s): s is AbortSignal => s !== undefined);
    try {
      return await run(signals.length > 1 ? AbortSignal.any(signals) : (signals[0] ?? null));
    } catch (error) {
      if (callerSignal?.aborted || error instanceof LearnstreamError) throw error;
      throw new NetworkError(url, error, timeout?.aborted ? `no response within ${this.timeoutMs} ms` : undefined);
    }
  }

  /** A REST call: resolves with the parsed body (undefined for 204), rejects with a LearningApiError. */
  async rest<T>(method: string, path: string, request: RestRequest = {}): Promise<T> {
    return (await this.restWithStatus<T>(method, path, request)).body;
  }

  /** A REST call whose success status matters to the caller (201 created, 200 already there). */
  async restWithStatus<T>(method: string, path: string, request: RestRequest = {}): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = { accept: 'application/json', ...this.headers() };
    let body: string | undefined;
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body);
    }
    const { response, body: parsed } = await this.send(method, `${this.baseUrl}${path}${queryString(request.query)}`, {
      headers,
      body,
      signal: request.signal,
    });
    if (!response.ok) throw restError(response, parsed);
    return { status: response.status, body: parsed as T };
  }

  /** A GraphQL operation over POST /graphql: resolves with `data`, rejects with a LearningApiError when `errors` is not empty. */
  async graphql<T>(query: string, variables: Record<string, unknown> | undefined, options: CallOptions = {}): Promise<T> {
    const { response, body } = await this.send('POST', `${this.baseUrl}/graphql`, {
      headers: {
        accept: 'application/graphql-response+json, application/json',
        'content-type': 'application/json',
        ...this.headers(),
      },
      body: JSON.stringify({ query, variables }),
      signal: options.signal,
    });
    const result = body && typeof body === 'object' ? (body as { data?: T | null; errors?: GraphQLErrorItem[] }) : undefined;
    if (result?.errors?.length) throw graphQLError(result.errors, response, result.data ?? undefined);
    if (!response.ok || !result || result.data === undefined || result.data === null) throw restError(response, body);
    return result.data;
  }
}
