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
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
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
export const badInput = (field: string, problem: string) =>
  new AppError('BAD_USER_INPUT', `${field}: ${problem}`, { details: { field } });
export const unavailable = (cause?: unknown) =>
  new AppError('UNAVAILABLE', 'Service temporarily unavailable: the database is not reachable', { cause });

/** Is this a failure to reach the database, rather than a bad query? */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const err = e as { code?: unknown; name?: unknown; message?: unknown };
    if (typeof err.code === 'string' && /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|57P01|57P03|53300|08\d{3}|P1001|P1002|P1017|P2024)$/.test(err.code)) {
      return true;
    }
    if (typeof err.name === 'string' && /DatabaseNotReachable|ConnectionClosed|PrismaClientInitializationError/.test(err.name)) return true;
    if (typeof err.message === 'string' && /Connection terminated|connection closed|Can't reach database|does not allow connections|terminating connection/i.test(err.message)) {
      return true;
    }
  }
  return false;
}
