// The one rule for every date a client sends: REST's query and body fields (`since`, `from`,
// `to`), GraphQL's DateTime arguments and the times inside page cursors (src/db/keyset.ts).
import { z } from 'zod';

/** What is wrong with a date that is neither form, after the field's name. */
export const INSTANT_PROBLEM = 'must be an ISO 8601 date (YYYY-MM-DD) or UTC date-time (…Z)';

/**
 * An instant as a client may send it, the same on both surfaces; the text is kept as sent.
 * - An ISO 8601 date (YYYY-MM-DD, its midnight UTC) or a UTC date-time ending in `Z`, with a
 *   four-digit year, checked as written (2020-02-30 is no date). No offsets: one form per instant.
 * - Digits past the millisecond count: times are stored to the millisecond, so a bound is read as
 *   the first whole millisecond at or after it (firstMillisecond).
 * - Years before 1: PostgreSQL has no year 0 and reads no signed year (22008), so such an instant
 *   never reaches SQL as written: as a lower bound it bounds nothing (lowerBound), and analytics
 *   writes it as -infinity or a BC date (totals.ts).
 */
export const isoInstant = z.union([z.iso.date(), z.iso.datetime()], {
  error: (issue) => (issue.input === undefined ? 'is required' : INSTANT_PROBLEM),
});

/** Whether `value` is an instant as a client may send it. */
export const isInstant = (value: unknown): value is string => isoInstant.safeParse(value).success;

/** The digits of a date-time's fraction beyond milliseconds, without trailing zeros ('' if none). */
const beyondMs = (iso: string) => (/\.\d{3}(\d*)Z$/.exec(iso)?.[1] ?? '').replace(/0+$/, '');

/**
 * The whole milliseconds of a validated instant, the digits past them dropped first: given ten or
 * more fraction digits, Date.parse falls back to a parser that misreads them (…18.0430000001Z as
 * …18.430Z).
 */
const wholeMs = (iso: string) => Date.parse(iso.replace(/(\.\d{3})\d+Z$/, '$1Z'));

/**
 * The first whole millisecond at or after a validated instant (ms since the epoch). Times are
 * stored to the millisecond, so `at >= it` and `at < it` select exactly what is at or after, and
 * before, the instant even when a client sends microseconds, as Python's isoformat does.
 */
export function firstMillisecond(iso: string): number {
  return wholeMs(iso) + (beyondMs(iso) ? 1 : 0);
}

/** Orders two validated instants exactly, sub-millisecond digits included. */
export function compareInstants(a: string, b: string): number {
  const ms = wholeMs(a) - wholeMs(b);
  if (ms) return ms;
  const [x, y] = [beyondMs(a), beyondMs(b)];
  const width = Math.max(x.length, y.length);
  const [px, py] = [x.padEnd(width, '0'), y.padEnd(width, '0')];
  return px < py ? -1 : px > py ? 1 : 0;
}

/**
 * An instant as GraphQL's DateTime scalar reads an input: a Date at its first whole millisecond
 * (what a stored time is compared with, as REST compares it), keeping the text as sent, which the
 * services read exactly as they read REST's (two bounds within one millisecond stay ordered).
 */
export class ClientInstant extends Date {
  constructor(readonly text: string) {
    super(firstMillisecond(text));
  }
}

/** 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: the times this service can have written. */
const FIRST_STORABLE_MS = Date.parse('0001-01-01T00:00:00.000Z');
const LAST_STORABLE_MS = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * Whether a time could be one the service stored: its rows are stamped with the clock, and a
 * JavaScript Date sent to PostgreSQL as written must have a year from 1 (see above).
 */
export const isStorable = (ms: number) => ms >= FIRST_STORABLE_MS && ms <= LAST_STORABLE_MS;

/**
 * An inclusive lower bound on a stored time, from a validated instant: the Date to compare with
 * `>=`, or undefined when it bounds nothing (an instant before year 1 is older than any row).
 */
export function lowerBound(iso: string): Date | undefined {
  const ms = firstMillisecond(iso);
  return ms < FIRST_STORABLE_MS ? undefined : new Date(ms);
}
