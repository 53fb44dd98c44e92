// The service's logger: pino, one JSON object a line (LOG_FORMAT=pretty rewrites them, see
// log-pretty.ts), with credentials redacted wherever they appear.
import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** Where credentials can appear in a log line; pino replaces them with [redacted]. */
export const REDACT_PATHS = [
  'password', '*.password', 'token', '*.token', 'refreshToken', '*.refreshToken', 'secret', '*.secret',
  'key', '*.key', 'headers.authorization', 'headers["x-api-key"]', 'req.headers.authorization',
  'variables.password', 'variables.*.password',
];

const CENSOR = '[redacted]';

/**
 * The password of a URL's user information (`redis://:pw@host`, `postgresql://user:pw@host`),
 * wherever a URL appears: an error's message or stack, a `URL` error's `input`, any field.
 */
// The user part ends at the first ':', the password at the last '@' before the host (an '@' in a
// password should be %40, but URL parsers take the last one). A quote or backslash ends it: that
// is the end of a JSON string in a line as written.
const URL_PASSWORD = /\b([a-z][a-z\d+.-]*:\/\/[^\s/?#@:"\\]*):[^\s/?#"\\]*@/gi;

/** `text` with the password of every URL in it replaced by [redacted]. */
export function redactUrlPasswords(text: string): string {
  // Every line passes here, a request's too: most hold no URL, and a plain search says so sooner.
  return text.includes('://') ? text.replace(URL_PASSWORD, `$1:${CENSOR}@`) : text;
}

/**
 * A copy of what pino's error serializer made of an error, with no credentials in it: the
 * arguments of a Redis command an error carries (ioredis attaches `command: {name, args}`, and
 * AUTH's argument is the password) and URL passwords in any string. Copied, never changed in
 * place: the nested objects are the error's own.
 */
function scrub(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactUrlPasswords(value);
  if (!value || typeof value !== 'object' || depth > 8 || seen.has(value)) return value;
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1, seen));
  const copy: Record<string, unknown> = {};
  for (const [field, item] of Object.entries(value)) copy[field] = scrub(item, depth + 1, seen);
  if (typeof copy.name === 'string' && Array.isArray(copy.args)) copy.args = CENSOR;
  return copy;
}

/** pino's error serializer (type, message and stack with causes, own fields), scrubbed. */
function serializeError(error: unknown): unknown {
  return scrub(stdSerializers.err(error as Error));
}

/**
 * Structured JSON logs (to stdout, or to `destination`). Credentials are redacted wherever they
 * appear: the fields of REDACT_PATHS, a Redis command's arguments in an error, and the password
 * of any URL in any line (the last pass is over the line as written, whatever field holds it).
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: undefined,
    redact: { paths: REDACT_PATHS, censor: CENSOR },
    serializers: { err: serializeError, error: serializeError },
    hooks: { streamWrite: redactUrlPasswords },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** How often a failure that repeats while something stays down is written (see `rarely`). */
export const REPEATED_FAILURE_LOG_INTERVAL_MS = 10_000;

/**
 * For a failure that repeats for as long as something stays down (Redis away: every request, every
 * write, every reconnection fails): writes at most one line per `intervalMs`, each saying how many
 * were left out since the one before (`suppressed`), rather than one line with a stack per failure.
 */
export function rarely(log: Logger, intervalMs = REPEATED_FAILURE_LOG_INTERVAL_MS) {
  let writtenAt = -Infinity;
  let suppressed = 0;
  return (level: 'warn' | 'error', fields: Record<string, unknown>, message: string): void => {
    const now = Date.now();
    if (now - writtenAt < intervalMs) {
      suppressed++;
      return;
    }
    writtenAt = now;
    log[level](suppressed ? { ...fields, suppressed } : fields, message);
    suppressed = 0;
  };
}
