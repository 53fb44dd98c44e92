import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs. Credentials are redacted wherever they appear. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: [
        'password', '*.password', 'token', '*.token', 'refreshToken', '*.refreshToken', 'secret', '*.secret',
        'key', '*.key', 'headers.authorization', 'headers["x-api-key"]', 'req.headers.authorization',
        'variables.password', 'variables.*.password',
      ],
      censor: '[redacted]',
    },
  });
}
