// The one place that turns any thrown value into the contract's error body.
import { AppError, isDatabaseUnavailable, unavailable } from '../errors.js';
import type { Logger } from '../logger.js';
import { responseHeaders } from './headers.js';

export interface ErrorBody {
  error: true;
  code: number;
  message: string;
  details?: Record<string, unknown>;
}

/** Normalises anything thrown into an AppError, logging what clients must not see. */
export function toAppError(error: unknown, log: Logger): AppError {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error)) {
    log.error({ err: error }, 'database unavailable');
    return unavailable(error);
  }
  log.error({ err: error }, 'unexpected error');
  return new AppError('INTERNAL', 'Internal server error');
}

export function errorBody(error: AppError): ErrorBody {
  return {
    error: true,
    code: error.status,
    message: error.message,
    ...(error.details ? { details: error.details } : {}),
  };
}

/** The contract's error response for anything thrown (`Response` is the server's fetch API). */
export function errorResponse(Response: typeof globalThis.Response, error: unknown, log: Logger, headOnly = false): Response {
  const appError = toAppError(error, log);
  return new Response(headOnly ? null : JSON.stringify(errorBody(appError)), {
    status: appError.status,
    headers: responseHeaders(appError.headers, { 'content-type': 'application/json; charset=utf-8' }),
  });
}
