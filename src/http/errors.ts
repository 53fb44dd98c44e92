// The one place that turns any thrown value into the contract's error body.
import type { ServerResponse } from 'node:http';
import { AppError, isDatabaseUnavailable, unavailable } from '../errors.js';
import type { Logger } from '../logger.js';

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

export function sendError(res: ServerResponse, error: unknown, log: Logger, headOnly = false): void {
  const appError = toAppError(error, log);
  const json = JSON.stringify(errorBody(appError));
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(appError.status, {
    ...appError.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
  });
  res.end(headOnly ? undefined : json);
}
