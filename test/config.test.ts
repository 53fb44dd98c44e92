// loadConfig(env) in isolation: the contract's defaults, and every bad value reported, one
// problem per variable, naming the variable. (The real process is tested in process.test.ts.)
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

const SECRET = 'a-test-signing-secret-of-at-least-32-chars';
const PG = 'postgresql://user:pw@db.internal:5432/learnstream';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'learnstream-config-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** The problems loadConfig reports for `env` (fails the test when it does not throw). */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ JWT_SECRET: SECRET, DATA_DIR: dataDir, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
}

describe('loadConfig defaults', () => {
  it('match the contract', () => {
    const config = loadConfig({ JWT_SECRET: SECRET, DATA_DIR: dataDir });
    expect(config.env).toBe('development');
    expect(config.production).toBe(false);
    expect(config.host).toBe('127.0.0.1');
    expect(config.port).toBe(4000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
    expect(config.accessTokenTtl).toBe(86_400);
    expect(config.refreshTokenTtl).toBe(2_592_000);
    expect(config.rateLimit).toEqual({ free: 100, pro: 600, windowSeconds: 60 });
    expect(config.operationLimits).toEqual({
      login: { max: 20, windowMs: 60_000 },
      register: { max: 10, windowMs: 3_600_000 },
      recordPageView: { max: 120, windowMs: 60_000 },
    });
    expect(config.trustProxy).toBe(false);
    expect(config.bodyLimitBytes).toBe(1_048_576);
    expect(config.webhook.retryScheduleMs).toHaveLength(7);
    expect(config.webhook.timeoutMs).toBe(10_000);
    expect(config.webhook.allowPrivateTargets).toBe(true);
    expect(config.eventRetentionDays).toBe(7);
    expect(config.seed).toBe(true);
    expect(config.graphiql).toBe(true);
    expect(config.metricsToken).toBeUndefined();
    expect(config.subscriptionsPerCaller).toBe(100);
    expect(config.connectionsPerAddress).toBe(256);
    expect(config.maxConnections).toBe(10_000);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('the default retry schedule is 5s,5m,30m,2h,5h,10h,10h in milliseconds', () => {
    const s = 1_000, m = 60 * s, h = 60 * m;
    const expected = [5 * s, 5 * m, 30 * m, 2 * h, 5 * h, 10 * h, 10 * h];
    expect(loadConfig({ JWT_SECRET: SECRET }).webhook.retryScheduleMs).toEqual(expected);
    expect(loadConfig({ JWT_SECRET: SECRET, WEBHOOK_RETRY_SCHEDULE: '5s,5m,30m,2h,5h,10h,10h' }).webhook.retryScheduleMs).toEqual(expected);
    expect(loadConfig({ JWT_SECRET: SECRET, WEBHOOK_RETRY_SCHEDULE: ' 250ms , 1d' }).webhook.retryScheduleMs).toEqual([250, 86_400_000]);
  });

  it('DATA_DIR defaults to .data, resolved to an absolute path', () => {
    expect(loadConfig({ JWT_SECRET: SECRET }).dataDir).toBe(join(process.cwd(), '.data'));
  });

  it('reads every variable', () => {
    const config = loadConfig({
      NODE_ENV: 'test', HOST: '0.0.0.0', PORT: '0', DATABASE_URL: PG, DATA_DIR: dataDir, REDIS_URL: 'redis://cache:6379',
      JWT_SECRET: SECRET, ACCESS_TOKEN_TTL: '900', REFRESH_TOKEN_TTL: '3600', RATE_LIMIT_FREE: '5', RATE_LIMIT_PRO: '50',
      RATE_LIMIT_WINDOW_S: '10', TRUST_PROXY: 'true', BODY_LIMIT_BYTES: '2048', WEBHOOK_RETRY_SCHEDULE: '1s,2m',
      WEBHOOK_TIMEOUT_MS: '500', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false', EVENT_RETENTION_DAYS: '30', SEED: 'never',
      RATE_LIMIT_LOGIN: '5/30s', RATE_LIMIT_REGISTER: '3/2h', RATE_LIMIT_PAGE_VIEWS: '1000/1m',
      METRICS_TOKEN: 'scrape-token-0123456789', SUBSCRIPTIONS_PER_CALLER: '3', CONNECTIONS_PER_ADDRESS: '20', MAX_CONNECTIONS: '60',
    });
    expect(config).toMatchObject({
      subscriptionsPerCaller: 3, connectionsPerAddress: 20, maxConnections: 60,
      env: 'test', host: '0.0.0.0', port: 0, databaseUrl: PG, dataDir, redisUrl: 'redis://cache:6379',
      accessTokenTtl: 900, refreshTokenTtl: 3600, rateLimit: { free: 5, pro: 50, windowSeconds: 10 }, trustProxy: true,
      bodyLimitBytes: 2048, webhook: { retryScheduleMs: [1_000, 120_000], timeoutMs: 500, allowPrivateTargets: false },
      eventRetentionDays: 30, seed: false, metricsToken: 'scrape-token-0123456789',
      operationLimits: {
        login: { max: 5, windowMs: 30_000 },
        register: { max: 3, windowMs: 7_200_000 },
        recordPageView: { max: 1000, windowMs: 60_000 },
      },
    });
    expect(config.jwtKeys.map((k) => new TextDecoder().decode(k))).toEqual([SECRET]);
  });

  it('takes 1/0 as booleans too, and an empty variable as unset', () => {
    expect(loadConfig({ JWT_SECRET: SECRET, TRUST_PROXY: '1' }).trustProxy).toBe(true);
    expect(loadConfig({ JWT_SECRET: SECRET, TRUST_PROXY: '0' }).trustProxy).toBe(false);
    const empty = loadConfig({ JWT_SECRET: SECRET, PORT: '', HOST: '', DATABASE_URL: '', TRUST_PROXY: '' });
    expect(empty).toMatchObject({ port: 4000, host: '127.0.0.1', databaseUrl: undefined, trustProxy: false });
  });
});

describe('LOG_FORMAT', () => {
  const env = { JWT_SECRET: SECRET };
  const production = { NODE_ENV: 'production', JWT_SECRET: SECRET, DATABASE_URL: PG };

  it('is pretty by default at a terminal outside production, JSON otherwise', () => {
    expect(loadConfig({ ...env, DATA_DIR: dataDir }, { terminal: true }).logFormat).toBe('pretty');
    expect(loadConfig({ ...env, DATA_DIR: dataDir }, { terminal: false }).logFormat).toBe('json');
    expect(loadConfig(production, { terminal: true }).logFormat).toBe('json');
  });

  it('takes json or pretty whatever stdout is, and names anything else', () => {
    expect(loadConfig({ ...env, DATA_DIR: dataDir, LOG_FORMAT: 'json' }, { terminal: true }).logFormat).toBe('json');
    expect(loadConfig({ ...production, LOG_FORMAT: 'pretty' }, { terminal: false }).logFormat).toBe('pretty');
    expect(problemsOf({ LOG_FORMAT: 'xml' })).toEqual(['LOG_FORMAT: must be json or pretty']);
  });
});

describe('loadConfig in production', () => {
  const production = { NODE_ENV: 'production', JWT_SECRET: SECRET, DATABASE_URL: PG };

  it('never seeds, never serves GraphiQL, refuses private webhook targets by default', () => {
    const config = loadConfig(production);
    expect(config).toMatchObject({ production: true, seed: false, graphiql: false });
    expect(config.webhook.allowPrivateTargets).toBe(false);
  });

  it('allows private webhook targets only when asked to', () => {
    expect(loadConfig({ ...production, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).webhook.allowPrivateTargets).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', JWT_SECRET: SECRET, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }).webhook.allowPrivateTargets).toBe(false);
  });

  it('requires JWT_SECRET and DATABASE_URL, naming both', () => {
    expect(problemsOf({ NODE_ENV: 'production', JWT_SECRET: '' })).toEqual([
      'JWT_SECRET: required in production',
      'DATABASE_URL: required in production',
    ]);
    expect(problemsOf({ NODE_ENV: 'production', DATABASE_URL: PG, JWT_SECRET: '' })).toEqual(['JWT_SECRET: required in production']);
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual(['DATABASE_URL: required in production']);
  });

  it('reports the missing ones together with any bad value', () => {
    const problems = problemsOf({ NODE_ENV: 'production', JWT_SECRET: '', PORT: 'abc' });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['DATABASE_URL', 'JWT_SECRET', 'PORT']);
  });

  it('does not touch DATA_DIR when JWT_SECRET is given', async () => {
    const dir = join(dataDir, 'untouched');
    loadConfig({ ...production, DATA_DIR: dir });
    await expect(stat(dir)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('loadConfig rejects bad values, naming the variable', () => {
  const cases: [string, Record<string, string>][] = [
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '-1' }],
    ['PORT', { PORT: '80.5' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['DATABASE_URL', { DATABASE_URL: 'postgresql://' }],
    ['REDIS_URL', { REDIS_URL: 'http://cache' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'maybe' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'yes' }],
    ['WEBHOOK_RETRY_SCHEDULE', { WEBHOOK_RETRY_SCHEDULE: '5x' }],
    ['WEBHOOK_RETRY_SCHEDULE', { WEBHOOK_RETRY_SCHEDULE: '5s,,5m' }],
    ['WEBHOOK_RETRY_SCHEDULE', { WEBHOOK_RETRY_SCHEDULE: '5 s' }],
    ['WEBHOOK_RETRY_SCHEDULE', { WEBHOOK_RETRY_SCHEDULE: '99999999999999999d' }],
    ['WEBHOOK_ALLOW_PRIVATE_TARGETS', { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'sometimes' }],
    ['WEBHOOK_TIMEOUT_MS', { WEBHOOK_TIMEOUT_MS: '10s' }],
    ['JWT_SECRET', { JWT_SECRET: 'too-short' }],
    ['ACCESS_TOKEN_TTL', { ACCESS_TOKEN_TTL: '0' }],
    ['REFRESH_TOKEN_TTL', { REFRESH_TOKEN_TTL: '1e6' }],
    ['RATE_LIMIT_FREE', { RATE_LIMIT_FREE: '0' }],
    ['RATE_LIMIT_PRO', { RATE_LIMIT_PRO: 'lots' }],
    ['RATE_LIMIT_WINDOW_S', { RATE_LIMIT_WINDOW_S: '-60' }],
    ['RATE_LIMIT_LOGIN', { RATE_LIMIT_LOGIN: '20' }],
    ['RATE_LIMIT_REGISTER', { RATE_LIMIT_REGISTER: '0/1h' }],
    ['RATE_LIMIT_PAGE_VIEWS', { RATE_LIMIT_PAGE_VIEWS: '10/soon' }],
    ['BODY_LIMIT_BYTES', { BODY_LIMIT_BYTES: '1MB' }],
    ['EVENT_RETENTION_DAYS', { EVENT_RETENTION_DAYS: '0' }],
    ['NODE_ENV', { NODE_ENV: 'staging' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }],
    ['METRICS_TOKEN', { METRICS_TOKEN: 'too-short' }],
    ['SUBSCRIPTIONS_PER_CALLER', { SUBSCRIPTIONS_PER_CALLER: '0' }],
    ['SUBSCRIPTIONS_PER_CALLER', { SUBSCRIPTIONS_PER_CALLER: 'unlimited' }],
    ['CONNECTIONS_PER_ADDRESS', { CONNECTIONS_PER_ADDRESS: '-5' }],
    ['CONNECTIONS_PER_ADDRESS', { CONNECTIONS_PER_ADDRESS: '2.5' }],
    ['MAX_CONNECTIONS', { MAX_CONNECTIONS: '0' }],
    ['MAX_CONNECTIONS', { MAX_CONNECTIONS: '10k' }],
    ['METRICS_TOKEN', { METRICS_TOKEN: 'has spaces, which no Bearer header can carry' }],
  ];

  // Values that passed the check and then broke the service: each variable has a maximum, named.
  const tooLarge: [string, Record<string, string>, string][] = [
    ['ACCESS_TOKEN_TTL', { ACCESS_TOKEN_TTL: '2147483648' }, 'must be at most 315360000'],
    ['REFRESH_TOKEN_TTL', { REFRESH_TOKEN_TTL: '9000000000000' }, 'must be at most 315360000'],
    ['REFRESH_TOKEN_TTL', { REFRESH_TOKEN_TTL: '99999999999999999999' }, 'must be at most 315360000'],
    ['SSE_RESERVATION_TTL', { SSE_RESERVATION_TTL: '30d' }, 'must be at most 1d'],
    ['WEBHOOK_TIMEOUT_MS', { WEBHOOK_TIMEOUT_MS: '3000000000' }, 'must be at most 300000'],
    ['WEBHOOK_TIMEOUT_MS', { WEBHOOK_TIMEOUT_MS: '300001' }, 'must be at most 300000'],
    ['EVENT_RETENTION_DAYS', { EVENT_RETENTION_DAYS: '999999999999' }, 'must be at most 36500'],
    ['WEBHOOK_LOG_RETENTION_DAYS', { WEBHOOK_LOG_RETENTION_DAYS: '36501' }, 'must be at most 36500'],
    ['WEBHOOK_DISABLE_AFTER', { WEBHOOK_DISABLE_AFTER: '366d' }, 'must be at most 365d'],
    ['WEBHOOK_RETRY_SCHEDULE', { WEBHOOK_RETRY_SCHEDULE: '5s,31d' }, 'each delay must be at most 30d'],
    ['WEBHOOK_RETRY_SCHEDULE', { WEBHOOK_RETRY_SCHEDULE: Array(101).fill('1s').join(',') }, 'must list at most 100 delays'],
    ['RATE_LIMIT_FREE', { RATE_LIMIT_FREE: '1000000001' }, 'must be at most 1000000000'],
    ['RATE_LIMIT_PRO', { RATE_LIMIT_PRO: '9007199254740993' }, 'must be at most 1000000000'],
    ['RATE_LIMIT_WINDOW_S', { RATE_LIMIT_WINDOW_S: '2592001' }, 'must be at most 2592000'],
    ['RATE_LIMIT_LOGIN', { RATE_LIMIT_LOGIN: '5/31d' }, 'must be at most 1000000000/30d'],
    ['RATE_LIMIT_PAGE_VIEWS', { RATE_LIMIT_PAGE_VIEWS: '1000000001/1m' }, 'must be at most 1000000000/30d'],
    ['BODY_LIMIT_BYTES', { BODY_LIMIT_BYTES: '104857601' }, 'must be at most 104857600'],
    ['SUBSCRIPTION_BUFFER', { SUBSCRIPTION_BUFFER: '100001' }, 'must be at most 100000'],
    ['DB_POOL_SIZE', { DB_POOL_SIZE: '1001' }, 'must be at most 1000'],
    ['SUBSCRIPTIONS_PER_CALLER', { SUBSCRIPTIONS_PER_CALLER: '1000001' }, 'must be at most 1000000'],
    ['CONNECTIONS_PER_ADDRESS', { CONNECTIONS_PER_ADDRESS: '99999999999999999999' }, 'must be at most 1000000'],
    ['MAX_CONNECTIONS', { MAX_CONNECTIONS: '1000001' }, 'must be at most 1000000'],
    ['PORT', { PORT: '65536' }, 'must be at most 65535'],
  ];

  it.each(tooLarge)('%s above its maximum: %o', (name, env, message) => {
    expect(problemsOf(env)).toEqual([`${name}: ${message}`]);
  });

  it('takes every maximum itself', () => {
    const config = loadConfig({
      JWT_SECRET: SECRET, DATA_DIR: dataDir, ACCESS_TOKEN_TTL: '315360000', REFRESH_TOKEN_TTL: '315360000', SSE_RESERVATION_TTL: '24h',
      WEBHOOK_TIMEOUT_MS: '300000', EVENT_RETENTION_DAYS: '36500', WEBHOOK_LOG_RETENTION_DAYS: '36500', WEBHOOK_DISABLE_AFTER: '365d',
      WEBHOOK_RETRY_SCHEDULE: Array(100).fill('30d').join(','), RATE_LIMIT_FREE: '1000000000', RATE_LIMIT_PRO: '1000000000',
      RATE_LIMIT_WINDOW_S: '2592000', RATE_LIMIT_LOGIN: '1000000000/30d', BODY_LIMIT_BYTES: '104857600', SUBSCRIPTION_BUFFER: '100000',
      SUBSCRIPTIONS_PER_CALLER: '1000000', CONNECTIONS_PER_ADDRESS: '1000000', MAX_CONNECTIONS: '1000000',
    });
    expect(config).toMatchObject({
      accessTokenTtl: 315_360_000, refreshTokenTtl: 315_360_000, sseReservationTtlMs: 86_400_000, eventRetentionDays: 36_500,
      webhook: { timeoutMs: 300_000, logRetentionDays: 36_500, disableAfterMs: 365 * 86_400_000 }, bodyLimitBytes: 104_857_600,
      rateLimit: { free: 1_000_000_000, pro: 1_000_000_000, windowSeconds: 2_592_000 }, subscriptionBuffer: 100_000,
      operationLimits: { login: { max: 1_000_000_000, windowMs: 30 * 86_400_000 } },
      subscriptionsPerCaller: 1_000_000, connectionsPerAddress: 1_000_000, maxConnections: 1_000_000,
    });
    expect(config.webhook.retryScheduleMs).toHaveLength(100);
    // What broke the service beyond them: a timer of more than 2^31-1 ms fires at once, a GraphQL
    // Int (expiresIn) holds at most 2^31-1, a Date at most 8.64e15 ms from 1970.
    expect(config.sseReservationTtlMs).toBeLessThanOrEqual(2 ** 31 - 1);
    expect(config.webhook.timeoutMs).toBeLessThanOrEqual(2 ** 31 - 1);
    expect(config.refreshTokenTtl).toBeLessThanOrEqual(2 ** 31 - 1);
    expect(Number.isNaN(new Date(Date.now() - config.eventRetentionDays * 86_400_000).getTime())).toBe(false);
  });

  it('a URL that does not parse (REDIS_URL, DATABASE_URL) is named, its value (a password) never echoed', () => {
    expect(problemsOf({ REDIS_URL: 'redis://:pw-secret@127.0.0.1:notaport/5' })).toEqual(['REDIS_URL: must be a valid redis:// URL']);
    expect(problemsOf({ DATABASE_URL: 'postgresql://user:pw-secret@db:port/learnstream' })).toEqual(['DATABASE_URL: must be a valid postgresql:// URL']);
  });

  it('an empty METRICS_TOKEN is refused: unset, /metrics is open, and an empty secret is a mistake, not a wish', () => {
    expect(problemsOf({ METRICS_TOKEN: '' })).toEqual(['METRICS_TOKEN: must not be empty; unset it to leave /metrics open']);
    expect(loadConfig({ JWT_SECRET: SECRET, DATA_DIR: dataDir }).metricsToken).toBeUndefined();
  });

  it.each(cases)('%s: %o', (name, env) => {
    const problems = problemsOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${name}: \\S`));
  });

  it('reports every problem at once, one per variable, and never echoes a value', () => {
    const env = {
      PORT: 'abc', DATABASE_URL: 'mysql://root:hunter2@x', TRUST_PROXY: 'maybe', WEBHOOK_RETRY_SCHEDULE: '5x',
      JWT_SECRET: 'sekrit-value', BODY_LIMIT_BYTES: '12',
    };
    const problems = problemsOf(env);
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(
      ['BODY_LIMIT_BYTES', 'DATABASE_URL', 'JWT_SECRET', 'PORT', 'TRUST_PROXY', 'WEBHOOK_RETRY_SCHEDULE'],
    );
    const text = problems.join('\n');
    for (const value of ['hunter2', 'sekrit-value', 'maybe', 'abc']) expect(text).not.toContain(value);
    // The error's message is the same lines, for callers that only print the message.
    expect(() => loadConfig({ DATA_DIR: dataDir, ...env })).toThrow(problems.join('\n'));
  });
});

describe('the generated signing key (no JWT_SECRET)', () => {
  it('is created once in DATA_DIR with mode 0600 and reused', async () => {
    const dir = join(dataDir, 'secret-once');
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.jwtKeys[0]!.length).toBeGreaterThanOrEqual(32);
    const file = join(dir, 'jwt-secret');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const again = loadConfig({ DATA_DIR: dir });
    expect(Buffer.from(again.jwtKeys[0]!).equals(Buffer.from(first.jwtKeys[0]!))).toBe(true);
    expect(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64url').equals(Buffer.from(first.jwtKeys[0]!))).toBe(true);
  });

  it('differs between data directories', () => {
    const a = loadConfig({ DATA_DIR: join(dataDir, 'secret-a') });
    const b = loadConfig({ DATA_DIR: join(dataDir, 'secret-b') });
    expect(Buffer.from(a.jwtKeys[0]!).equals(Buffer.from(b.jwtKeys[0]!))).toBe(false);
  });

  it('a file that does not hold a key is a DATA_DIR problem, not a silently empty key', async () => {
    const dir = join(dataDir, 'secret-broken');
    loadConfig({ DATA_DIR: dir });
    await writeFile(join(dir, 'jwt-secret'), '');
    expect(() => loadConfig({ DATA_DIR: dir })).toThrow(/^DATA_DIR: /);
  });

  it('an unwritable DATA_DIR is a DATA_DIR problem', async () => {
    const file = join(dataDir, 'not-a-directory');
    await writeFile(file, 'x');
    try {
      loadConfig({ DATA_DIR: join(file, 'sub') });
      expect.unreachable('loadConfig should have thrown');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toHaveLength(1);
      expect((error as ConfigError).problems[0]).toMatch(/^DATA_DIR: /);
    }
  });
});
