// A receiver's `Retry-After` header (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.

/** A receiver cannot push an attempt further out than this. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * How long the receiver asks us to wait, in milliseconds (0 for a date in the past, capped at
 * MAX_RETRY_AFTER_MS), or undefined when the header is absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  // An HTTP-date always names a day or month; without letters, Date.parse guesses wildly ("1.5").
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(at - now, 0), MAX_RETRY_AFTER_MS);
}
