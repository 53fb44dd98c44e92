// What the console shows when a call fails: the server's own message (the contract's `message`),
// attached to the field it names when it names one, or what went wrong on the way (network).
import { AuthenticationError, LearningApiError, NetworkError, PermissionDeniedError, ValidationError } from '../client/index.js';

export interface Problem {
  message: string;
  /** The request field the server blamed (`url`, `events`, `name`…), if any. */
  field?: string | undefined;
}

/** The form field a path names: `url` for `url` or `body.url`, `events` for `events.1`, `to` for `query.to`. */
const fieldName = (field: string | undefined) => field?.split('.').find((segment) => segment !== 'body' && segment !== 'query');

export function problemOf(error: unknown): Problem {
  if (error instanceof ValidationError) return { message: error.message, field: fieldName(error.field) };
  if (error instanceof LearningApiError) return { message: error.message };
  // The client rejects with NetworkError when the server cannot be reached at all; its cause is fetch's own error.
  if (error instanceof NetworkError) {
    const reason = error.cause instanceof Error ? error.cause.message : error.message;
    return { message: `Could not reach the server (${reason}). Check the connection and try again.` };
  }
  if (error instanceof Error) return { message: error.message };
  return { message: String(error) };
}

/** The token stopped working (expired, signed out elsewhere, session revoked): sign in again. */
export const isSessionOver = (error: unknown): boolean =>
  error instanceof AuthenticationError && !(error instanceof PermissionDeniedError) && error.status === 403;
