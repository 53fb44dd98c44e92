// The client's typed errors. Everything it throws is a LearnstreamError: a LearningApiError (with
// subclasses for what callers branch on) when the API refused a request, a NetworkError when the API
// could not be reached, a WebhookVerificationError for a forged or stale webhook. `status` is always
// the HTTP status a REST call would have had, whatever the transport; `code` keeps the transport's
// own vocabulary (the contract's numeric code for REST, `extensions.code` for GraphQL).

/** The base of every error the client throws: `instanceof LearnstreamError` catches them all. */
export class LearnstreamError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The API could not be reached, or the connection broke before a whole response arrived:
 * connection refused, a name that does not resolve, a reset, a timeout. `cause` holds what fetch
 * threw. Nothing says whether the server acted on a write before the connection broke.
 */
export class NetworkError extends LearnstreamError {
  /** The URL of the request. */
  readonly url: string;
  /** The system's error code when the runtime gives one (`ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`, …). */
  readonly code: string | undefined;

  constructor(url: string, cause: unknown, detail?: string) {
    const reason = innermost(cause);
    super(`Could not reach ${url}: ${detail ?? (reason instanceof Error ? reason.message : String(reason))}`, { cause });
    // Literal, as graphql-sse exports a NetworkError too and a bundler may rename this class.
    this.name = 'NetworkError';
    this.url = url;
    const code = (reason as { code?: unknown } | null | undefined)?.code;
    this.code = typeof code === 'string' ? code : undefined;
  }
}

/** The deepest `cause` of an error: fetch reports `fetch failed` with the socket's error as its cause. */
function innermost(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error && current.cause !== undefined; depth++) current = current.cause;
  return current;
}

/** One entry of a GraphQL response's `errors`, as the server sends it. */
export interface GraphQLErrorItem {
  message: string;
  path?: readonly (string | number)[];
  extensions?: { code?: string; status?: number; details?: Record<string, unknown>; [key: string]: unknown };
}

export interface LearningApiErrorInit {
  status: number;
  code: number | string;
  message: string;
  details?: Record<string, unknown> | undefined;
  requestId?: string | undefined;
  graphQLErrors?: readonly GraphQLErrorItem[] | undefined;
  /** GraphQL: the partial `data` that came with the errors. */
  data?: unknown;
}

/** The API refused a request. */
export class LearningApiError extends LearnstreamError {
  /** The HTTP status (for a GraphQL error: the contract's status for its code, e.g. 404 for NOT_FOUND). */
  readonly status: number;
  /**
   * REST: the contract's numeric code (equal to `status`). GraphQL: `extensions.code`, e.g.
   * `NOT_FOUND`, or `GRAPHQL_VALIDATION_FAILED` for a document the GraphQL layer refused.
   */
  readonly code: number | string;
  /** Machine-readable extras (`details` of the REST body or of `extensions`), e.g. `{field}` for a 400. */
  readonly details: Record<string, unknown> | undefined;
  /** The `x-request-id` of the response: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** GraphQL: every error of the response (this error describes the first). */
  readonly graphQLErrors: readonly GraphQLErrorItem[] | undefined;
  /** GraphQL: the partial data that came with the errors, if any. */
  readonly data: unknown;

  constructor(init: LearningApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
    this.graphQLErrors = init.graphQLErrors;
    this.data = init.data;
  }
}

/** 401 (wrong e-mail or password, bad refresh token) or 403 (missing, invalid or revoked token or key). */
export class AuthenticationError extends LearningApiError {}

/** 403 `Forbidden`: authenticated, but not allowed (e.g. a MEMBER managing webhooks). */
export class PermissionDeniedError extends AuthenticationError {}

/** 404: an unknown user, lesson, webhook, API key or route. */
export class NotFoundError extends LearningApiError {}

/** 400: a missing, malformed or unknown field. `field` names it when the server says which. */
export class ValidationError extends LearningApiError {
  /** The field the server names, e.g. `title` or `query.limit` (GraphQL: the argument). */
  readonly field: string | undefined;

  constructor(init: LearningApiErrorInit) {
    super(init);
    const field = init.details?.['field'];
    this.field = typeof field === 'string' ? field : undefined;
  }
}

/** 409: e.g. an e-mail already taken, a lesson already published. */
export class ConflictError extends LearningApiError {}

/** 429: over the rate limit (or the login throttle). Thrown once retrying is off, spent or would wait too long. */
export class RateLimitError extends LearningApiError {
  /** The `Retry-After` of the response, in seconds; undefined when the server sent none. */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: LearningApiErrorInit & { retryAfterSeconds?: number | undefined }) {
    super(init);
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/** A webhook whose signature, timestamp or body does not check out (see verifyWebhook). */
export class WebhookVerificationError extends LearnstreamError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    // Literal, as standardwebhooks exports a class of this name too and a bundler may rename this one.
    this.name = 'WebhookVerificationError';
  }
}

const MISSING_OR_INVALID_TOKEN = 'Missing or invalid token';

/** The contract's status for each GraphQL `extensions.code` (when the server did not send `extensions.status`). */
const STATUS_OF_GRAPHQL_CODE: Record<string, number> = {
  BAD_USER_INPUT: 400,
  GRAPHQL_PARSE_FAILED: 400,
  GRAPHQL_VALIDATION_FAILED: 400,
  INVALID_CREDENTIALS: 401,
  UNAUTHENTICATED: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL_SERVER_ERROR: 500,
  UNAVAILABLE: 503,
};

/** Parses a `Retry-After` header: seconds, or an HTTP date. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

type ErrorClass = new (init: LearningApiErrorInit & { retryAfterSeconds?: number | undefined }) => LearningApiError;

function classFor(status: number, message: string, graphQLCode?: string): ErrorClass {
  if (graphQLCode === 'FORBIDDEN' || (graphQLCode === undefined && status === 403 && message !== MISSING_OR_INVALID_TOKEN)) {
    return PermissionDeniedError;
  }
  switch (status) {
    case 400:
      return ValidationError;
    case 401:
    case 403:
      return AuthenticationError;
    case 404:
      return NotFoundError;
    case 409:
      return ConflictError;
    case 429:
      return RateLimitError;
    default:
      return LearningApiError;
  }
}

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** The typed error for a REST error response (`{error, code, message, details?}`, or anything else a proxy sent). */
export function restError(response: Response, body: unknown): LearningApiError {
  const record = asRecord(body);
  const message = typeof record?.['message'] === 'string' ? record['message'] : `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  const code = typeof record?.['code'] === 'number' ? record['code'] : response.status;
  const Class = classFor(response.status, message);
  return new Class({
    status: response.status,
    code,
    message,
    details: asRecord(record?.['details']),
    requestId: response.headers.get('x-request-id') ?? undefined,
    retryAfterSeconds: parseRetryAfter(response.headers.get('retry-after')),
  });
}

/** The typed error for a GraphQL response with `errors` (described by the first one). */
export function graphQLError(errors: readonly GraphQLErrorItem[], response?: Response, data?: unknown): LearningApiError {
  const first = errors[0] ?? { message: 'GraphQL request failed' };
  // The server codes every error of its own; one without a code and without a path is the
  // GraphQL layer refusing the request itself (syntax, unknown field, missing variable).
  const code =
    typeof first.extensions?.code === 'string' ? first.extensions.code : first.path ? 'GRAPHQL_ERROR' : 'GRAPHQL_VALIDATION_FAILED';
  const httpStatus = response && response.status !== 200 ? response.status : undefined;
  const status =
    (typeof first.extensions?.status === 'number' ? first.extensions.status : undefined) ??
    STATUS_OF_GRAPHQL_CODE[code] ??
    httpStatus ??
    500;
  const Class = classFor(status, first.message, code);
  return new Class({
    status,
    code,
    message: first.message,
    details: asRecord(first.extensions?.details),
    requestId: response?.headers.get('x-request-id') ?? undefined,
    graphQLErrors: errors,
    data,
    retryAfterSeconds: parseRetryAfter(response?.headers.get('retry-after')),
  });
}
