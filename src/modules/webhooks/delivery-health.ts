// Endpoint health, shared by the dispatcher's record statement and the housekeeping pass: an
// endpoint that has done nothing but fail for WEBHOOK_DISABLE_AFTER is disabled, with a reason an
// ADMIN can read.

const UNITS: [suffix: string, ms: number][] = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
  ['ms', 1],
];

/** A duration as WEBHOOK_DISABLE_AFTER writes it: `5d`, `2s`, `1h30m`. */
export function formatDuration(ms: number): string {
  let rest = Math.max(0, Math.round(ms));
  const parts: string[] = [];
  for (const [suffix, size] of UNITS) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n}${suffix}`);
    rest -= n * size;
  }
  return parts.join('') || '0ms';
}

/**
 * SQL for the reason given when an endpoint is disabled for failing, from a `failingSince`
 * expression and a text parameter holding formatDuration(disableAfterMs):
 * "failing since 2026-11-23T07:00:00.000Z with no successful delivery for 5d".
 */
export function failingReasonSql(failingSince: string, durationParam: string): string {
  return `'failing since ' || to_char((${failingSince}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ' with no successful delivery for ' || ${durationParam}`;
}
