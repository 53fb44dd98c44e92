// One error class for the whole service. Services throw it; the REST mapper
// (src/http/errors.ts) and the GraphQL mapper (src/graphql/errors.ts) translate it once each.

export const errorStatus = {
  BAD_USER_INPUT: 400,
  INVALID_CREDENTIALS: 401,
  UNAUTHENTICATED: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** An Idempotency-Key sent again with another method, path or body. */
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  /** One more subscription than SUBSCRIPTIONS_PER_CALLER. */
  TOO_MANY_SUBSCRIPTIONS: 429,
  /** One more WebSocket or SSE connection than CONNECTIONS_PER_ADDRESS. */
  TOO_MANY_CONNECTIONS: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface AppErrorOptions {
  /** Extra machine-readable facts, sent to clients under `details`. */
  details?: Record<string, unknown>;
  /** Response headers that belong to this error (Allow, Retry-After). */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly status: number;
  readonly details?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(readonly code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.status = errorStatus[code];
    this.details = options.details;
    this.headers = options.headers;
  }
}

export const MISSING_OR_INVALID_TOKEN = 'Missing or invalid token';

export const unauthenticated = () => new AppError('UNAUTHENTICATED', MISSING_OR_INVALID_TOKEN);
export const forbidden = () => new AppError('FORBIDDEN', 'Forbidden');
export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string) => new AppError('CONFLICT', message);
/** A write's If-Match named no current version of its resource: nothing was changed. */
export const preconditionFailed = () => new AppError('PRECONDITION_FAILED', 'Precondition failed');
/**
 * A write's precondition on its resource's current representation (the body its GET answers),
 * e.g. If-Match: checked in the write's transaction with the resource's row locked, before it
 * changes anything. False: the write is refused with preconditionFailed.
 */
export type Precondition<V> = (current: V) => boolean;
/** Throws preconditionFailed unless `precondition` (if any) holds for `current`. */
export function assertPrecondition<V>(precondition: Precondition<V> | undefined, current: V): void {
  if (precondition && !precondition(current)) throw preconditionFailed();
}
/** 405 for `method` on `path`, naming the methods it takes in `Allow` and in `details.allow`. */
export const methodNotAllowed = (method: string, path: string, allow: readonly string[]) =>
  new AppError('METHOD_NOT_ALLOWED', `Method ${method} is not allowed on ${path}`, {
    headers: { allow: allow.join(', ') },
    details: { allow },
  });
export const badInput = (field: string, problem: string) =>
  new AppError('BAD_USER_INPUT', `${field}: ${problem}`, { details: { field } });
export const unavailable = (cause?: unknown) =>
  new AppError('UNAVAILABLE', 'Service temporarily unavailable: the database is not reachable', {
    cause,
    headers: { 'retry-after': '5' },
  });

// A server that refuses the service's connections is as unavailable as one that is down: its
// database renamed or dropped (3D000, Prisma's P1003), the role refused (28000: NOLOGIN, no
// pg_hba.conf entry; Prisma's P1010) or its password (28P01, Prisma's P1000). The operator puts it
// right and the service recovers on its own, so clients are told to come back (503), not that the
// service broke (500).
const UNAVAILABLE_CODES =
  /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|57P01|57P02|57P03|53300|08\d{3}|3D000|28000|28P01|P1000|P1001|P1002|P1003|P1010|P1017|P2024)$/;
/** Driver-adapter error kinds (@prisma/driver-adapter-utils) that mean the server cannot be reached or refuses us. */
const UNAVAILABLE_KINDS =
  /^(DatabaseNotReachable|ConnectionClosed|SocketTimeout|TooManyConnections|DatabaseDoesNotExist|DatabaseAccessDenied|AuthenticationFailed)$/;
const UNAVAILABLE_NAMES = /DatabaseNotReachable|ConnectionClosed|PrismaClientInitializationError/;
// "not queryable": node-postgres refusing a query on a connection that already failed (PostgreSQL
// restarted under an open transaction). Prisma's P2028 when the database held a transaction past
// TRANSACTION_OPTIONS (a table locked by an operator, a stall the silence watchdog cannot see since
// the server still answers): rolled back, so "come back" is true. P2028's other kinds are our misuse.
const UNAVAILABLE_MESSAGES =
  /executed on an expired transaction|Unable to start a transaction in the given time|Connection terminated|connection closed|Client has encountered a connection error and is not queryable|Can't reach database|does not allow connections|not currently accepting connections|terminating connection|the database system is (starting up|shutting down|in recovery mode)|too many clients|database "[^"]*" does not exist|Database `[^`]*` does not exist|is not permitted to log in|password authentication failed|no pg_hba\.conf entry|User was denied access|Authentication failed against database server/i;

/**
 * Is this a failure to reach the database, rather than a bad query? Looks through the `cause`
 * chain and through what Prisma's driver adapters attach: a PrismaClientKnownRequestError carries
 * the PostgreSQL error as `meta.driverAdapterError.cause` ({kind, code, message}, or {kind,
 * originalCode} for what it maps), e.g. code 55000 "database … is not currently accepting
 * connections", 57P01 "terminating connection", or kind DatabaseDoesNotExist (3D000).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: { value: unknown; depth: number }[] = [{ value: error, depth: 0 }];
  while (queue.length) {
    const { value, depth } = queue.shift()!;
    if (!value || typeof value !== 'object' || seen.has(value) || depth > 8) continue;
    seen.add(value);
    const err = value as {
      code?: unknown; originalCode?: unknown; kind?: unknown; name?: unknown; message?: unknown; cause?: unknown; meta?: unknown; driverAdapterError?: unknown;
    };
    if (typeof err.code === 'string' && UNAVAILABLE_CODES.test(err.code)) return true;
    // What a driver adapter maps keeps PostgreSQL's own code as originalCode.
    if (typeof err.originalCode === 'string' && UNAVAILABLE_CODES.test(err.originalCode)) return true;
    if (typeof err.kind === 'string' && UNAVAILABLE_KINDS.test(err.kind)) return true;
    if (typeof err.name === 'string' && UNAVAILABLE_NAMES.test(err.name)) return true;
    if (typeof err.message === 'string' && UNAVAILABLE_MESSAGES.test(err.message)) return true;
    for (const next of [err.cause, err.meta, err.driverAdapterError]) queue.push({ value: next, depth: depth + 1 });
  }
  return false;
}
