-- Page-view totals from rollups (src/modules/analytics/fold.ts). Statements run one at a time,
-- not in one transaction, so each step is safe against instances still recording views.
-- Comments here must not contain semicolons: the pg adapter splits the script on them.

-- Views recorded before this migration get txid 1, a constant default (no table rewrite), and
-- are folded below. From the next statement on, every view carries its writing transaction.
-- Changing the default waits for every insert in flight, so all rows with txid 1 have committed
-- by the time the backfill reads them.
ALTER TABLE "PageView" ADD COLUMN     "txid" xid8 NOT NULL DEFAULT '1';
ALTER TABLE "PageView" ALTER COLUMN "txid" SET DEFAULT pg_current_xact_id();

-- CreateTable
CREATE TABLE "PageViewBucket" (
    "path" TEXT NOT NULL,
    "grain" SMALLINT NOT NULL,
    "start" TIMESTAMPTZ(3) NOT NULL,
    "count" BIGINT NOT NULL,

    CONSTRAINT "PageViewBucket_pkey" PRIMARY KEY ("path","grain","start")
);

-- CreateTable
CREATE TABLE "PageViewFold" (
    "id" INTEGER NOT NULL,
    "watermark" xid8 NOT NULL,
    "foldedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PageViewFold_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PageView_txid_idx" ON "PageView"("txid");

-- Backfill: the existing views (txid 1) into the buckets, all paths ('') from the minute, each
-- path from the day. The same aggregation as the fold (FOLD_SQL in src/modules/analytics/fold.ts).
INSERT INTO "PageViewBucket" ("path", "grain", "start", "count")
WITH fresh AS MATERIALIZED (
  SELECT "path", "at" FROM "PageView" WHERE "txid" = '1'
), a1 AS (SELECT date_trunc('minute', "at", 'UTC') AS start, count(*) AS n FROM fresh GROUP BY 1
), a2 AS (SELECT date_trunc('hour', start, 'UTC') AS start, sum(n) AS n FROM a1 GROUP BY 1
), a3 AS (SELECT date_trunc('day', start, 'UTC') AS start, sum(n) AS n FROM a2 GROUP BY 1
), a4 AS (SELECT date_trunc('month', start, 'UTC') AS start, sum(n) AS n FROM a3 GROUP BY 1
), a5 AS (SELECT date_trunc('year', start, 'UTC') AS start, sum(n) AS n FROM a4 GROUP BY 1
), p3 AS (SELECT "path", date_trunc('day', "at", 'UTC') AS start, count(*) AS n FROM fresh GROUP BY 1, 2
), p4 AS (SELECT "path", date_trunc('month', start, 'UTC') AS start, sum(n) AS n FROM p3 GROUP BY 1, 2
), p5 AS (SELECT "path", date_trunc('year', start, 'UTC') AS start, sum(n) AS n FROM p4 GROUP BY 1, 2
)
          SELECT '', 1::smallint, start, n FROM a1
UNION ALL SELECT '', 2, start, n FROM a2
UNION ALL SELECT '', 3, start, n FROM a3
UNION ALL SELECT '', 4, start, n FROM a4
UNION ALL SELECT '', 5, start, n FROM a5
UNION ALL SELECT "path", 3, start, n FROM p3
UNION ALL SELECT "path", 4, start, n FROM p4
UNION ALL SELECT "path", 5, start, n FROM p5;

-- Folded: everything below 2, that is the views above. Real transaction ids start at 3.
INSERT INTO "PageViewFold" ("id", "watermark") VALUES (1, '2');
