// How the variables are written: the value types of the environment schema (env-schema.ts), each
// turning the text into a typed value or an issue saying what is expected, never echoing the value.
import { z } from 'zod';
import { DAY_MS, MAX_RATE_LIMIT, MAX_RATE_WINDOW_MS, MAX_RETRIES, MAX_RETRY_DELAY_MS } from './maxima.js';

export const boolean = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true, false, 1 or 0' })
  .transform((v) => v === 'true' || v === '1');
/** A whole number in [min, max]; every numeric variable has a maximum, named when it is passed. */
export const int = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

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

export const retrySchedule = z.string().transform((value, ctx) => {
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
export const duration = (max: number) =>
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
export const operationLimit = z.string().transform((value, ctx) => {
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
export const url = (schemes: RegExp, what: string) =>
  z.string().refine((value) => schemes.test(value) && URL.canParse(value), `must be a valid ${what} URL`);

