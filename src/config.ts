// The one place that reads the environment. Every problem is reported at start-up, one line
// each, naming the variable; the result is a frozen, typed object.
import { resolve } from 'node:path';
import { ConfigError } from './config/config-error.js';
import { envSchema } from './config/env-schema.js';
import { localSecret } from './config/local-secret.js';

export { ConfigError } from './config/config-error.js';
export * from './config/maxima.js';

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
  /** `pretty` by default when stdout is a terminal outside production; otherwise one JSON object a line. */
  logFormat: LogFormat;
  seed: boolean;
  graphiql: boolean;
  /** When set, GET /metrics requires it as a Bearer token. A secret: never logged. */
  metricsToken: string | undefined;
}>;

export type LogFormat = 'json' | 'pretty';
export type LimitedOperation = 'login' | 'register' | 'recordPageView';
export type OperationLimit = Readonly<{ max: number; windowMs: number }>;

export interface LoadOptions {
  /** Whether stdout is a terminal (the default of LOG_FORMAT); process.stdout.isTTY unless given. */
  terminal?: boolean;
}

/**
 * Reads and validates the environment; throws ConfigError listing every problem, one per
 * variable, each starting with the variable's name. Values are never echoed (they may be secrets).
 */
export function loadConfig(env: Record<string, string | undefined> = process.env, { terminal = Boolean(process.stdout.isTTY) }: LoadOptions = {}): Config {
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
    logFormat: e.LOG_FORMAT ?? (terminal && !production ? 'pretty' : 'json'),
    seed: !production && e.SEED === 'auto',
    graphiql: !production,
    metricsToken: e.METRICS_TOKEN,
  });
}

/**
 * For entry points (`npm start`, `db:migrate`, `db:seed`): the configuration, or one line per
 * problem on stderr (`config: PORT: must be a whole number`) and exit code 1.
 */
export function loadConfigOrExit(env: Record<string, string | undefined> = process.env, options: LoadOptions = {}): Config {
  try {
    return loadConfig(env, options);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.problems) console.error(`config: ${problem}`);
    process.exit(1);
  }
}
