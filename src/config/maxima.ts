// The largest value each numeric variable takes (README, Configuration). A timer cannot wait longer
// than 2^31−1 ms (24.8 days: node fires a longer one at once), a token lifetime is a GraphQL Int
// (`expiresIn`) and a date, a retention is subtracted from today's date: a value past these would
// pass the start and break the service later. Each is a round figure well inside its limit.

export const DAY_MS = 86_400_000;

/** ACCESS_TOKEN_TTL, REFRESH_TOKEN_TTL: ten years, in seconds. */
export const MAX_TOKEN_TTL_S = 315_360_000;
/** WEBHOOK_TIMEOUT_MS: five minutes (a timer; also what stopping the process may wait for an attempt). */
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
