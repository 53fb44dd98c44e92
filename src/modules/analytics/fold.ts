// The fold: moves page views into PageViewBucket, the counts that make totals cheap (totals.ts).
// Recording a view touches no shared row; one instance at a time (advisory lock) adds the finished
// views to the buckets and moves the watermark past them, in one statement.
import type { Db } from '../../db/client.js';
import type { Logger } from '../../logger.js';
import type { Worker } from '../../worker.js';

/** pg advisory lock key held by the fold's transaction ("lsfold"). */
const FOLD_LOCK = 0x6c73666f6c64n;
/**
 * Prisma's interactive transactions end after 5 s by default. A fold normally takes milliseconds,
 * but the first one after a bulk load (or a long stall of the watermark) folds everything at once.
 */
const FOLD_TIMEOUT_MS = 15 * 60_000;
/** How often to fold while views keep arriving. */
const ACTIVE_INTERVAL_MS = 1_000;
/** The longest wait between looks when nothing arrives (each empty look doubles the wait). */
const IDLE_INTERVAL_MS = 10_000;

/**
 * The buckets, finest first. Each grain's buckets tile the next one's exactly (UTC), so any window
 * aligned to a scope's finest grain is a few runs of whole buckets (see totals.ts). The SQL below
 * and the backfill in the migration that created PageViewBucket use the same numbers and units.
 */
export const GRAINS = [
  { grain: 1, unit: 'minute' },
  { grain: 2, unit: 'hour' },
  { grain: 3, unit: 'day' },
  { grain: 4, unit: 'month' },
  { grain: 5, unit: 'year' },
] as const;

/** Path of the buckets that count every path. Real paths start with `/`. */
export const ALL_PATHS = '';

/**
 * Where each scope's buckets start. All paths together: from the minute, so a total's raw edges
 * are at most two partial minutes of the whole site. One path: from the day, so the buckets stay
 * far fewer than the views (see docs/decisions.md); its edges are at most two partial days of
 * that one path's views, read from the (path, at) index.
 */
export const FINEST = { all: 0, path: 2 } as const;

// The site-wide grains are each summed from the one below, the per-path ones from the day, so a
// large backlog costs one pass over the views and ever smaller passes after it.
const FOLD_SQL = `
WITH state AS (
  SELECT watermark AS lo, greatest(watermark, pg_snapshot_xmin(pg_current_snapshot())) AS hi
    FROM "PageViewFold" WHERE id = 1
), fresh AS MATERIALIZED (
  SELECT v.path, v.at FROM state JOIN "PageView" v ON v.txid >= state.lo AND v.txid < state.hi
), a1 AS (SELECT date_trunc('minute', at, 'UTC') AS start, count(*) AS n FROM fresh GROUP BY 1
), a2 AS (SELECT date_trunc('hour', start, 'UTC') AS start, sum(n) AS n FROM a1 GROUP BY 1
), a3 AS (SELECT date_trunc('day', start, 'UTC') AS start, sum(n) AS n FROM a2 GROUP BY 1
), a4 AS (SELECT date_trunc('month', start, 'UTC') AS start, sum(n) AS n FROM a3 GROUP BY 1
), a5 AS (SELECT date_trunc('year', start, 'UTC') AS start, sum(n) AS n FROM a4 GROUP BY 1
), p3 AS (SELECT path, date_trunc('day', at, 'UTC') AS start, count(*) AS n FROM fresh GROUP BY 1, 2
), p4 AS (SELECT path, date_trunc('month', start, 'UTC') AS start, sum(n) AS n FROM p3 GROUP BY 1, 2
), p5 AS (SELECT path, date_trunc('year', start, 'UTC') AS start, sum(n) AS n FROM p4 GROUP BY 1, 2
), added AS (
  INSERT INTO "PageViewBucket" (path, grain, start, count)
            SELECT '${ALL_PATHS}', 1, start, n FROM a1
  UNION ALL SELECT '${ALL_PATHS}', 2, start, n FROM a2
  UNION ALL SELECT '${ALL_PATHS}', 3, start, n FROM a3
  UNION ALL SELECT '${ALL_PATHS}', 4, start, n FROM a4
  UNION ALL SELECT '${ALL_PATHS}', 5, start, n FROM a5
  UNION ALL SELECT path, 3, start, n FROM p3
  UNION ALL SELECT path, 4, start, n FROM p4
  UNION ALL SELECT path, 5, start, n FROM p5
  ON CONFLICT (path, grain, start) DO UPDATE SET count = "PageViewBucket".count + excluded.count
), moved AS (
  UPDATE "PageViewFold" f SET watermark = state.hi, "foldedAt" = now()
    FROM state WHERE f.id = 1 AND state.hi > state.lo
)
SELECT coalesce((SELECT sum(n) FROM a5), 0)::int8 AS folded`;

/**
 * Folds every view whose transaction has finished into the buckets: its path's (per day, month,
 * year) and all paths' (per minute, hour, day, month, year). "Finished" is `txid <
 * pg_snapshot_xmin(pg_current_snapshot())`, as the event relay uses, so a view that commits late
 * (transactions commit out of id order) is never skipped: below the watermark every view is in
 * the buckets and none above it is, and a total is the buckets plus the views above it.
 * Returns how many it folded,
 * or null when another instance is folding right now.
 */
export async function foldPageViews(db: Db): Promise<number | null> {
  // One cheap look first, so an idle instance makes one query here, not a transaction: the
  // newest txid is one step down the txid index. (An EXISTS over txid >= watermark could be
  // planned as a scan of the whole table, finding nothing.)
  const [look] = await db.$queryRaw<{ pending: boolean | null }[]>`
    SELECT (SELECT max(txid) FROM "PageView") >= (SELECT watermark FROM "PageViewFold" WHERE id = 1) AS pending`;
  if (!look?.pending) return 0;
  return db.$transaction(async (tx) => {
    const [lock] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(${FOLD_LOCK}) AS locked`;
    if (!lock?.locked) return null;
    // A new statement, so a new snapshot: it sees the watermark of the fold that held the lock last.
    const [row] = await tx.$queryRawUnsafe<{ folded: bigint }[]>(FOLD_SQL);
    return Number(row?.folded ?? 0);
  }, { timeout: FOLD_TIMEOUT_MS, maxWait: 10_000 });
}

export interface PageViewFoldOptions {
  db: Db;
  log: Logger;
  /** Told how many views each fold moved into the buckets (tests, metrics). */
  onFolded?(count: number): void;
}

/**
 * The worker: folds every second while views arrive, and backs off to one look every
 * IDLE_INTERVAL_MS when none do (an idle instance costs next to nothing). Totals never wait for
 * it: they count the views it has not folded yet from the rows.
 */
export function createPageViewFold({ db, log, onFolded }: PageViewFoldOptions): Worker {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;
  let interval = ACTIVE_INTERVAL_MS;

  async function loop(): Promise<void> {
    if (stopped) return;
    try {
      const folded = await foldPageViews(db);
      if (folded) onFolded?.(folded);
      // Another instance folding (null) counts as activity: views are arriving somewhere.
      interval = folded === 0 ? Math.min(interval * 2, IDLE_INTERVAL_MS) : ACTIVE_INTERVAL_MS;
    } catch (error) {
      log.warn({ err: error }, 'page-view fold failed');
      interval = IDLE_INTERVAL_MS;
    }
    schedule(interval);
  }

  function schedule(ms: number): void {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(() => (running = loop()), ms);
  }

  return {
    start(): void {
      stopped = false;
      running = loop();
    },
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
