// Every variable the service reads, with its type, bounds and default (README, Configuration).
import { z } from 'zod';
import {
  DAY_MS, MAX_BODY_LIMIT_BYTES, MAX_CONNECTION_LIMIT, MAX_DISABLE_AFTER_MS, MAX_RATE_LIMIT, MAX_RATE_WINDOW_MS,
  MAX_RETENTION_DAYS, MAX_SSE_RESERVATION_TTL_MS, MAX_SUBSCRIPTION_BUFFER, MAX_TOKEN_TTL_S, MAX_WEBHOOK_TIMEOUT_MS,
} from './maxima.js';
import { boolean, duration, int, operationLimit, retrySchedule, url } from './values.js';

export const envSchema = z.object({
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
  LOG_FORMAT: z.enum(['json', 'pretty'], { error: 'must be json or pretty' }).optional(),
  SEED: z.enum(['auto', 'never'], { error: 'must be auto or never' }).default('auto'),
  // A Bearer token: visible ASCII without spaces (anything else could never be sent in the header),
  // and long enough not to be guessed.
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .min(16, 'must be at least 16 characters')
    .optional(),
});

