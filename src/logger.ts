import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** Where credentials can appear in a log line; pino replaces them with [redacted]. */
export const REDACT_PATHS = [
  'password', '*.password', 'token', '*.token', 'refreshToken', '*.refreshToken', 'secret', '*.secret',
  'key', '*.key', 'headers.authorization', 'headers["x-api-key"]', 'req.headers.authorization',
  'variables.password', 'variables.*.password',
];

/** Structured JSON logs (to stdout, or to `destination`). Credentials are redacted wherever they appear. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, base: undefined, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
