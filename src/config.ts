// The one place that reads the environment. Every problem is reported at start-up, one line
// each, naming the variable; the result is a frozen, typed object.
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

const boolean = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true, false, 1 or 0' })
  .transform((v) => v === 'true' || v === '1');
/** A whole number in [min, max]; every numeric variable has a maximum, named when it is passed. */
const int = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

const DAY_MS = 86_400_000;
const DURATION = /^(\d+)(ms|s|m|h|d)$/;
const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: DAY_MS } as const;
/** `5s`, `30m`, `2h`…: milliseconds, or undefined when it is not a duration of a safe size. */
function parseDuration(text: string): number | undefined {
  const m = DURATION.exec(text.trim());
  const ms = m ? Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] : NaN;
  return Number.isSafeInteger(ms) ? ms : undefined;
}
/** A maximum as it is written: `1d`, `30d`, `24h`. */
function durationText(ms: number): string {
  const [unit, size] = Object.entries(UNIT_MS).reverse().find(([, size]) => ms % size === 0)!;
  return `${ms / size}${unit}`;
}

// The maxima (README, Configuration). A timer cannot wait longer than 2^31−1 ms (24.8 days: node
// fires a longer one at once, with a TimeoutOverflowWarning), a token lifetime is a GraphQL Int
// (`expiresIn`) and a date, a retention is subtracted from today's date; beyond these, values
// broke the service after a start that looked fine. Each is a round figure well inside the limit.
/** ACCESS_TOKEN_TTL, REFRESH_TOKEN_TTL: ten years, in seconds. */
export const MAX_TOKEN_TTL_S = 315_360_000;
/**
 * WEBHOOK_TIMEOUT_MS: five minutes (a timer; also what stopping the process may wait for an
 * attempt). The isolation test holds a silent receiver's attempts open for 150 s.
 */
export const MAX_WEBHOOK_TIMEOUT_MS = 300_000;
/** SSE_RESERVATION_TTL: a day (a timer). */
export const MAX_SSE_RESERVATION_TTL_MS = DAY_MS;
/** WEBHOOK_RETRY_SCHEDULE: at most 100 delays, each at most 30 days. */
export const MAX_RETRIES = 100;
export const MAX_RETRY_DELAY_MS = 30 * DAY_MS;
/** WEBHOOK_DISABLE_AFTER: a year. */
export const MAX_DISABLE_AFTER_MS = 365 * DAY_MS;
/** EVENT_RETENTION_DAYS, WEBHOOK_LOG_RETENTION_DAYS: a hundred years, i.e. for good. */
export const MAX_RETENTION_DAYS = 36_500;
/** RATE_LIMIT_FREE, RATE_LIMIT_PRO and an operation limit's count: a billion, no different from unlimited. */
export const MAX_RATE_LIMIT = 1_000_000_000;
/** RATE_LIMIT_WINDOW_S and an operation limit's window: 30 days. */
export const MAX_RATE_WINDOW_MS = 30 * DAY_MS;
/** BODY_LIMIT_BYTES: 100 MiB (a body is held in memory whole). */
export const MAX_BODY_LIMIT_BYTES = 104_857_600;
/** SUBSCRIPTION_BUFFER: each instance keeps one ring of this many events in memory. */
export const MAX_SUBSCRIPTION_BUFFER = 100_000;
/**
 * SUBSCRIPTIONS_PER_CALLER, CONNECTIONS_PER_ADDRESS, MAX_CONNECTIONS: a million, about the most
 * file descriptors a Linux process is usually allowed (fs.nr_open's default, 1048576).
 */
export const MAX_CONNECTION_LIMIT = 1_000_000;

const retrySchedule = z.string().transform((value, ctx) => {
  const delays = value.split(',').map(parseDuration);
  if (!delays.every((d): d is number => d !== undefined)) {
    ctx.addIssue({ code: 'custom', message: 'must be comma-separated durations like 5s,5m,2h' });
    return z.NEVER;
  }
  if (delays.length > MAX_RETRIES) {
    ctx.addIssue({ code: 'custom', message: `must list at most ${MAX_RETRIES} delays` });
    return z.NEVER;
  }
  if (delays.some((d) => d > MAX_RETRY_DELAY_MS)) {
    ctx.addIssue({ code: 'custom', message: `each delay must be at most ${durationText(MAX_RETRY_DELAY_MS)}` });
    return z.NEVER;
  }
  return delays;
});
const duration = (max: number) =>
  z.string().transform((value, ctx) => {
    const ms = parseDuration(value);
    if (ms === undefined || ms < 1) {
      ctx.addIssue({ code: 'custom', message: 'must be a duration like 500ms, 30s, 10m, 2h or 5d' });
      return z.NEVER;
    }
    if (ms > max) {
      ctx.addIssue({ code: 'custom', message: `must be at most ${durationText(max)}` });
      return z.NEVER;
    }
    return ms;
  });
/** `<max>/<duration>`, e.g. `20/1m`: at most max calls in any rolling window of that duration. */
const operationLimit = z.string().transform((value, ctx) => {
  const m = /^(\d+)\/(\d+)(ms|s|m|h|d)$/.exec(value.trim());
  const max = m ? Number(m[1]) : 0;
  const windowMs = m ? Number(m[2]) * UNIT_MS[m[3] as keyof typeof UNIT_MS] : 0;
  if (!m || max < 1 || !Number.isSafeInteger(max) || windowMs < 1 || !Number.isSafeInteger(windowMs)) {
    ctx.addIssue({ code: 'custom', message: 'must be <max>/<duration> like 20/1m' });
    return z.NEVER;
  }
  if (max > MAX_RATE_LIMIT || windowMs > MAX_RATE_WINDOW_MS) {
    ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_RATE_LIMIT}/${durationText(MAX_RATE_WINDOW_MS)}` });
    return z.NEVER;
  }
  return Object.freeze({ max, windowMs });
});
/** A URL that parses (a port that is a number, …) with one of `schemes`; the value is never echoed. */
const url = (schemes: RegExp, what: string) =>
  z.string().refine((value) => schemes.test(value) && URL.canParse(value), `must be a valid ${what} URL`);

const envSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'], { error: 'must be development, production or test' })
    .default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: int(0, 65535).default(4000),
  DATABASE_URL: url(/^postgres(ql)?:\/\/.+/, 'postgresql://').optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  REDIS_URL: url(/^rediss?:\/\/.+/, 'redis://').optional(),
  // Signing keys, separated by commas or whitespace: the first signs, all verify (rotation).
  JWT_SECRET: z
    .string()
    .transform((value, ctx) => {
      const keys = value.split(/[\s,]+/).filter(Boolean);
      const short = keys.findIndex((k) => k.length < 32);
      if (!keys.length || short >= 0) {
        ctx.addIssue({ code: 'custom', message: keys.length > 1 ? `key ${short + 1} must be at least 32 characters` : 'must be at least 32 characters' });
        return z.NEVER;
      }
      return keys;
    })
    .optional(),
  ACCESS_TOKEN_TTL: int(60, MAX_TOKEN_TTL_S).default(86_400),
  REFRESH_TOKEN_TTL: int(60, MAX_TOKEN_TTL_S).default(2_592_000),
  RATE_LIMIT_FREE: int(1, MAX_RATE_LIMIT).default(100),
  RATE_LIMIT_PRO: int(1, MAX_RATE_LIMIT).default(600),
  RATE_LIMIT_WINDOW_S: int(1, MAX_RATE_WINDOW_MS / 1000).default(60),
  RATE_LIMIT_LOGIN: operationLimit.default({ max: 20, windowMs: 60_000 }),
  RATE_LIMIT_REGISTER: operationLimit.default({ max: 10, windowMs: 3_600_000 }),
  RATE_LIMIT_PAGE_VIEWS: operationLimit.default({ max: 120, windowMs: 60_000 }),
  TRUST_PROXY: boolean.default(false),
  BODY_LIMIT_BYTES: int(1024, MAX_BODY_LIMIT_BYTES).default(1_048_576),
  WEBHOOK_RETRY_SCHEDULE: retrySchedule.default([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]),
  WEBHOOK_TIMEOUT_MS: int(100, MAX_WEBHOOK_TIMEOUT_MS).default(10_000),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: boolean.optional(),
  WEBHOOK_DISABLE_AFTER: duration(MAX_DISABLE_AFTER_MS).default(5 * DAY_MS),
  WEBHOOK_LOG_RETENTION_DAYS: int(1, MAX_RETENTION_DAYS).default(30),
  EVENT_RETENTION_DAYS: int(1, MAX_RETENTION_DAYS).default(7),
  SUBSCRIPTION_BUFFER: int(1, MAX_SUBSCRIPTION_BUFFER).default(1000),
  SSE_RESERVATION_TTL: duration(MAX_SSE_RESERVATION_TTL_MS).default(30_000),
  SUBSCRIPTIONS_PER_CALLER: int(1, MAX_CONNECTION_LIMIT).default(100),
  CONNECTIONS_PER_ADDRESS: int(1, MAX_CONNECTION_LIMIT).default(256),
  MAX_CONNECTIONS: int(1, MAX_CONNECTION_LIMIT).default(10_000),
  DB_POOL_SIZE: int(1, 1000).default(20),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be fatal, error, warn, info, debug, trace or silent',
    })
    .default('info'),
  SEED: z.enum(['auto', 'never'], { error: 'must be auto or never' }).default('auto'),
  // A Bearer token: visible ASCII without spaces (anything else could never be sent in the header),
  // and long enough not to be guessed.
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .min(16, 'must be at least 16 characters')
    .optional(),
});

export type Config = Readonly<{
  env: 'development' | 'production' | 'test';
  production: boolean;
  host: string;
  port: number;
  databaseUrl: string | undefined;
  dataDir: string;
  redisUrl: string | undefined;
  /** HS256 keys: the first signs access tokens, every one verifies them (JWT_SECRET lists them). */
  jwtKeys: readonly Uint8Array[];
  accessTokenTtl: number;
  refreshTokenTtl: number;
  rateLimit: Readonly<{ free: number; pro: number; windowSeconds: number }>;
  /** Per-address limits on sensitive operations, on top of the tier budget (REST and GraphQL). */
  operationLimits: Readonly<Record<LimitedOperation, OperationLimit>>;
  trustProxy: boolean;
  bodyLimitBytes: number;
  webhook: Readonly<{
    retryScheduleMs: readonly number[];
    timeoutMs: number;
    allowPrivateTargets: boolean;
    /** An endpoint that has only failed for this long is disabled. */
    disableAfterMs: number;
    /** Deliveries and their attempts older than this are deleted. */
    logRetentionDays: number;
  }>;
  eventRetentionDays: number;
  /** A subscriber further behind than this many events is ended with SUBSCRIBER_TOO_SLOW. */
  subscriptionBuffer: number;
  /** How long a graphql-sse reservation waits for its stream before it is ended. */
  sseReservationTtlMs: number;
  /** Open subscriptions one caller (user) may hold on this instance, on every transport together. */
  subscriptionsPerCaller: number;
  /** Open WebSocket and SSE connections from one client address. */
  connectionsPerAddress: number;
  /** Sockets the server holds at once. */
  maxConnections: number;
  dbPoolSize: number;
  logLevel: string;
  seed: boolean;
  graphiql: boolean;
  /** When set, GET /metrics requires it as a Bearer token. A secret: never logged. */
  metricsToken: string | undefined;
}>;

export type LimitedOperation = 'login' | 'register' | 'recordPageView';
export type OperationLimit = Readonly<{ max: number; windowMs: number }>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

/**
 * Reads and validates the environment; throws ConfigError listing every problem, one per
 * variable, each starting with the variable's name. Values are never echoed (they may be secrets).
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set", as in most twelve-factor tools (but METRICS_TOKEN, below).
  const present = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''),
  );
  const problems = new Map<string, string>();
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = issue.path.length ? issue.path.map(String).join('.') : 'environment';
      if (!problems.has(name)) problems.set(name, issue.message);
    }
  }
  // Checked on the raw values too, so a production start with a bad PORT also names these.
  const production = present.NODE_ENV === 'production';
  // The one variable whose absence is less safe than a value: an empty METRICS_TOKEN (a secret
  // that did not reach the environment) would leave /metrics open without a word.
  if (env.METRICS_TOKEN === '') problems.set('METRICS_TOKEN', 'must not be empty; unset it to leave /metrics open');
  if (production && !present.JWT_SECRET) problems.set('JWT_SECRET', 'required in production');
  if (production && !present.DATABASE_URL) problems.set('DATABASE_URL', 'required in production');
  if (!parsed.success || problems.size) throw new ConfigError([...problems].map(([name, message]) => `${name}: ${message}`));
  const e = parsed.data;

  const dataDir = resolve(e.DATA_DIR);
  return Object.freeze({
    env: e.NODE_ENV,
    production,
    host: e.HOST,
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    redisUrl: e.REDIS_URL,
    jwtKeys: Object.freeze(e.JWT_SECRET ? e.JWT_SECRET.map((k) => new TextEncoder().encode(k)) : [localSecret(dataDir)]),
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    rateLimit: Object.freeze({ free: e.RATE_LIMIT_FREE, pro: e.RATE_LIMIT_PRO, windowSeconds: e.RATE_LIMIT_WINDOW_S }),
    operationLimits: Object.freeze({ login: e.RATE_LIMIT_LOGIN, register: e.RATE_LIMIT_REGISTER, recordPageView: e.RATE_LIMIT_PAGE_VIEWS }),
    trustProxy: e.TRUST_PROXY,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    webhook: Object.freeze({
      retryScheduleMs: Object.freeze(e.WEBHOOK_RETRY_SCHEDULE),
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? !production,
      disableAfterMs: e.WEBHOOK_DISABLE_AFTER,
      logRetentionDays: e.WEBHOOK_LOG_RETENTION_DAYS,
    }),
    eventRetentionDays: e.EVENT_RETENTION_DAYS,
    subscriptionBuffer: e.SUBSCRIPTION_BUFFER,
    sseReservationTtlMs: e.SSE_RESERVATION_TTL,
    subscriptionsPerCaller: e.SUBSCRIPTIONS_PER_CALLER,
    connectionsPerAddress: e.CONNECTIONS_PER_ADDRESS,
    maxConnections: e.MAX_CONNECTIONS,
    dbPoolSize: e.DB_POOL_SIZE,
    logLevel: e.LOG_LEVEL,
    seed: !production && e.SEED === 'auto',
    graphiql: !production,
    metricsToken: e.METRICS_TOKEN,
  });
}

/**
 * For entry points (`npm start`, `db:migrate`, `db:seed`): the configuration, or one line per
 * problem on stderr (`config: PORT: must be a whole number`) and exit code 1.
 */
export function loadConfigOrExit(env: Record<string, string | undefined> = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.problems) console.error(`config: ${problem}`);
    process.exit(1);
  }
}

const SECRET_BYTES = 32;

/**
 * Outside production a signing key is generated once and kept in DATA_DIR (mode 0600), so
 * tokens survive a restart without any setup. Two processes starting at once agree on one key.
 * A file that cannot be read or written, or that does not hold a key, is a DATA_DIR problem.
 */
function localSecret(dataDir: string): Uint8Array {
  const file = join(dataDir, 'jwt-secret');
  const problem = (what: string, error?: unknown) =>
    new ConfigError([`DATA_DIR: ${what}${error instanceof Error ? ` (${error.message})` : ''}`]);
  const read = (): Uint8Array | undefined => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw problem(`cannot read ${file}`, error);
    }
    const secret = Buffer.from(text.trim(), 'base64url');
    if (secret.length < SECRET_BYTES) {
      throw problem(`${file} does not hold a signing key; delete it to generate a new one (signs out everyone)`);
    }
    return secret;
  };
  const existing = read();
  if (existing) return existing;
  const secret = randomBytes(SECRET_BYTES);
  // Written whole to a private file, then linked into place: a reader never sees half a key,
  // and when another process wins the race, its key is used.
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(temp, secret.toString('base64url'), { mode: 0o600, flag: 'wx' });
    try {
      linkSync(temp, file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
      // A file system without hard links: create it in place.
      writeFileSync(file, secret.toString('base64url'), { mode: 0o600, flag: 'wx' });
    }
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      const theirs = read();
      if (theirs) return theirs;
    }
    throw problem(`cannot write ${file}`, error);
  } finally {
    rmSync(temp, { force: true });
  }
}
