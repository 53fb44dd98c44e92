// Exact page-view totals whose cost does not grow with history: a few runs of whole buckets
// (fold.ts), the partial buckets at the window's edges and the views not folded yet counted from
// the rows, all in one statement.
import type { Database } from '../../db/client.js';
import { ALL_PATHS, FINEST, GRAINS } from './fold.js';

type Grain = (typeof GRAINS)[number];

const MINUTE_MS = 60_000;
const FIXED_MS: Record<string, number> = { minute: MINUTE_MS, hour: 3_600_000, day: 86_400_000 };

/** Start of the `grain` bucket holding instant `t` (ms since the epoch, UTC). Infinities stay. */
function floorTo(grain: Grain, t: number): number {
  if (!Number.isFinite(t)) return t;
  const size = FIXED_MS[grain.unit];
  if (size) return t - (((t % size) + size) % size);
  const d = new Date(t);
  return grain.unit === 'month' ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) : Date.UTC(d.getUTCFullYear(), 0, 1);
}

/** The first bucket start of `grain` at or after `t`. */
function ceilTo(grain: Grain, t: number): number {
  const floor = floorTo(grain, t);
  if (floor === t) return t;
  const size = FIXED_MS[grain.unit];
  if (size) return floor + size;
  const d = new Date(floor);
  return grain.unit === 'month' ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) : Date.UTC(d.getUTCFullYear() + 1, 0, 1);
}

/*
 * A window [from, to) is cut into at most two partial buckets of the finest grain at its edges (a
 * minute for the whole site, a day for one path: FINEST), counted from the PageView rows through
 * the (at) or (path, at) index, and an aligned interior covered by runs of whole buckets, finest
 * at the ends and coarser inwards. The buckets hold the views below the fold's watermark; the
 * interior's views not folded yet are counted from the rows through the txid index. One
 * statement is one snapshot: a fold committing meanwhile is wholly seen or not at all.
 */
export interface WindowPlan {
  /** Runs of whole buckets: [grain, first start, end) with end exclusive. */
  buckets: [number, number, number][];
  /** Ranges of `at` counted from the rows, whatever their txid (the partial minutes). */
  raw: [number, number][];
  /** The aligned interior, where the rows not folded yet are counted; absent when empty. */
  interior?: [number, number];
}

/**
 * Cuts [from, to) (ms; -Infinity / Infinity for an open end) into whole buckets of GRAINS[finest]
 * and coarser, and raw edges shorter than one GRAINS[finest] bucket each. Exported for the tests.
 */
export function planWindow(from: number, to: number, finest: number): WindowPlan {
  const base = GRAINS[finest]!;
  let lo = ceilTo(base, from);
  let hi = floorTo(base, to);
  if (lo >= hi) return { buckets: [], raw: [[from, to]] };
  const raw: [number, number][] = [];
  if (from < lo) raw.push([from, lo]);
  if (hi < to) raw.push([hi, to]);
  const plan: WindowPlan = { buckets: [], raw, interior: [lo, hi] };
  for (let i = finest; i < GRAINS.length; i++) {
    const grain = GRAINS[i]!;
    const parent = GRAINS[i + 1];
    const plo = parent ? ceilTo(parent, lo) : lo;
    const phi = parent ? floorTo(parent, hi) : lo;
    if (!parent || plo >= phi) {
      plan.buckets.push([grain.grain, lo, hi]);
      break;
    }
    if (lo < plo) plan.buckets.push([grain.grain, lo, plo]);
    if (phi < hi) plan.buckets.push([grain.grain, phi, hi]);
    lo = plo;
    hi = phi;
  }
  return plan;
}

/** PostgreSQL's earliest timestamp (4713-11-24 BC): nothing is older, so earlier means open. */
const PG_MIN_MS = -210_866_803_200_000;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** An instant as PostgreSQL reads it: years before 1 AD as BC (there is no year 0), 5-digit years as they are. */
function instant(t: number): string {
  if (t === Infinity) return 'infinity';
  if (t === -Infinity || t < PG_MIN_MS) return '-infinity';
  const d = new Date(t);
  const year = d.getUTCFullYear();
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}Z`;
  return `${pad(year >= 1 ? year : 1 - year, 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${time}${year >= 1 ? '' : ' BC'}`;
}
/** A PostgreSQL array literal of instants, passed as one text parameter (the same on pg and PGlite). */
const instants = (ts: number[]) => `{${ts.map(instant).join(',')}}`;

// Two texts, with and without a path, so each plans against the index it needs ((path, at) or (at)).
// Each run of buckets and each edge is a LATERAL subquery: a parameterised index range scan per
// run. (As a plain join the planner, blind to the ranges' widths, may hash-join a full scan.)
function totalSql(byPath: boolean): string {
  const pathIs = (alias: string) => (byPath ? `AND ${alias}.path = $1` : '');
  return `
WITH fold AS (SELECT watermark FROM "PageViewFold" WHERE id = 1)
SELECT (
  SELECT coalesce(sum(s.n), 0)
    FROM unnest($2::int2[], $3::timestamptz[], $4::timestamptz[]) AS r (grain, lo, hi)
   CROSS JOIN LATERAL (
     SELECT sum(b.count) AS n FROM "PageViewBucket" b
      WHERE b.path = $1 AND b.grain = r.grain AND b.start >= r.lo AND b.start < r.hi) s
) + (
  SELECT coalesce(sum(s.n), 0)
    FROM unnest($5::timestamptz[], $6::timestamptz[]) AS e (lo, hi)
   CROSS JOIN LATERAL (SELECT count(*) AS n FROM "PageView" v WHERE v.at >= e.lo AND v.at < e.hi ${pathIs('v')}) s
) + (
  SELECT count(*) FROM "PageView" v
   WHERE v.txid >= $9::xid8 AND v.txid >= (SELECT watermark FROM fold)
     AND v.at >= $7::timestamptz AND v.at < $8::timestamptz ${pathIs('v')}
) AS total, (SELECT watermark::text FROM fold) AS watermark`;
}
const SQL = { all: totalSql(false), path: totalSql(true) };

/**
 * The statement counting views with \`at\` in [from, to) (ms, open ends as infinities), of one path
 * or of all; \`hint\` is a watermark seen before (see createTotals). Exported for the bench's plans.
 */
export function totalStatement(path: string | undefined, from: number, to: number, hint: string): { text: string; params: string[] } {
  const plan = planWindow(from, to, path === undefined ? FINEST.all : FINEST.path);
  const interior = plan.interior ?? [0, 0];
  return {
    text: path === undefined ? SQL.all : SQL.path,
    params: [
      path ?? ALL_PATHS,
      `{${plan.buckets.map((b) => b[0]).join(',')}}`,
      instants(plan.buckets.map((b) => b[1])),
      instants(plan.buckets.map((b) => b[2])),
      instants(plan.raw.map((r) => r[0])),
      instants(plan.raw.map((r) => r[1])),
      instant(interior[0]),
      instant(interior[1]),
      hint,
    ],
  };
}

/**
 * Counts views of one path or of all within [from, to). Holds the last watermark it saw: the
 * planner gets it as a constant (so it knows the unfolded views are few and reaches them through
 * the txid index), while the statement itself compares with the watermark it reads, so an old
 * hint costs a little more reading, never exactness.
 */
export function createTotals(query: Database['query']) {
  let hint: string | undefined;

  return async function countViews(path: string | undefined, from: number, to: number): Promise<number> {
    hint ??= (await query<{ watermark: string }>('SELECT watermark::text AS watermark FROM "PageViewFold" WHERE id = 1', []))[0]?.watermark;
    if (hint === undefined) throw new Error('PageViewFold has no row: the analytics migration has not run');
    const { text, params } = totalStatement(path, from, to, hint);
    const row = (await query<{ total: string | number | bigint; watermark: string }>(text, params))[0]!;
    hint = row.watermark;
    return Number(row.total);
  };
}
