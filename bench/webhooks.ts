// The webhook dispatch scenario of `npm run bench` (run.ts calls it after the request scenarios):
// how fast the service's delivery worker (src/modules/webhooks/dispatcher.ts) empties a backlog of
// due deliveries to one fast receiver. Goal: ≥ 1,000 deliveries/s, each delivered exactly once.
//
// The receiver is a node:http server in a child process (so it does not compete with anything in
// this process), answering 200 to every request and counting them by `webhook-id`. The endpoint is
// created through the REST API as ada (an ADMIN), subscribed to analytics.hit. The deliveries are
// inserted directly with SQL (one INSERT … SELECT generate_series, not yet due), then made due at
// once with one UPDATE, as the event relay does after publishing: this measures the dispatcher
// alone, not the events API or the relay's fan-out.
//
// Rate: N / (the UPDATE that made them due → the moment a poll of the database, every 100 ms, finds
// all N SUCCEEDED). That includes the worker noticing the backlog (it polls every 75 ms) and the
// poll's granularity, so it slightly understates the steady rate; the receiver's first → last
// receipt rate is printed alongside.
//
// Environment: BENCH_WEBHOOKS (0: skip this scenario; default 1), BENCH_WEBHOOK_DELIVERIES (N,
// default 20000).
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { readStats, type Sampler } from './lib/proc.js';
import { fixed, mb, table } from './lib/report.js';

const GOAL_PER_SECOND = 1_000;
const POLL_MS = 100;
const ID_PREFIX = 'evt_whbench_';

export interface WebhooksBenchOptions {
  serviceUrl: string;
  servicePid: number;
  sampler: Sampler;
  /** An access token of ada@example.com (ADMIN). */
  token: string;
  /** The service's database, for inserting the deliveries and watching their state. */
  databaseUrl: string;
  deliveries: number;
  progress(message: string): void;
}

export interface WebhooksBenchResult {
  /** The report section: a table, notes and a PASS/MISS line. */
  text: string;
  json: Record<string, unknown>;
}

interface ReceiverSummary {
  requests: number;
  connections: number;
  /** Distinct webhook-ids among the expected ones (evt_whbench_1 … N). */
  expectedReceived: number;
  missing: number;
  /** Receipts beyond the first of an expected id, and how many ids had them. */
  duplicates: number;
  duplicateIds: string[];
  /** Requests whose webhook-id is not one of the expected ones (or absent). */
  strays: number;
  strayIds: string[];
  firstAt: number;
  lastAt: number;
  cpuSeconds: number;
}

// The receiver, plain JavaScript for `node -e` (no loader needed). Reports over IPC; exits when
// the bench goes away (disconnect), whatever the reason.
const RECEIVER_SOURCE = `
const http = require('node:http');
const N = Number(process.env.RECEIVER_EXPECT);
const PREFIX = process.env.RECEIVER_PREFIX;
const counts = new Map();
let requests = 0, connections = 0, noId = 0, firstAt = 0, lastAt = 0;
const server = http.createServer((req, res) => {
  const at = Date.now();
  requests++;
  if (!firstAt) firstAt = at;
  lastAt = at;
  const id = req.headers['webhook-id'];
  if (typeof id === 'string') counts.set(id, (counts.get(id) || 0) + 1); else noId++;
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-length': '0' }).end());
});
server.on('connection', () => connections++);
server.listen(0, '127.0.0.1', () => process.send({ type: 'listening', port: server.address().port }));
process.on('message', (m) => {
  if (!m || m.type !== 'summary') return;
  let expectedReceived = 0, duplicates = 0, strays = noId;
  const duplicateIds = [], strayIds = [];
  for (const [id, n] of counts) {
    const k = id.startsWith(PREFIX) ? Number(id.slice(PREFIX.length)) : NaN;
    if (Number.isInteger(k) && k >= 1 && k <= N) {
      expectedReceived++;
      if (n > 1) { duplicates += n - 1; if (duplicateIds.length < 5) duplicateIds.push(id); }
    } else {
      strays += n;
      if (strayIds.length < 5) strayIds.push(id);
    }
  }
  const cpu = process.cpuUsage();
  process.send({ type: 'summary', requests, connections, expectedReceived, missing: N - expectedReceived,
    duplicates, duplicateIds, strays, strayIds, firstAt, lastAt, cpuSeconds: (cpu.user + cpu.system) / 1e6 });
});
process.on('disconnect', () => process.exit(0));
`;

interface Receiver {
  url: string;
  summary(): Promise<ReceiverSummary>;
  stop(): Promise<void>;
}

function once<T>(proc: ChildProcess, type: string, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`webhook receiver: no '${type}' message within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (m: unknown) => {
      if (m && typeof m === 'object' && (m as { type?: unknown }).type === type) done(undefined, m as T);
    };
    const onExit = (code: number | null, signal: string | null) => done(new Error(`webhook receiver exited (code ${code}, signal ${signal})`));
    function done(error?: Error, value?: T) {
      clearTimeout(timer);
      proc.off('message', onMessage);
      proc.off('exit', onExit);
      if (error) reject(error);
      else resolve(value!);
    }
    proc.on('message', onMessage);
    proc.once('exit', onExit);
  });
}

async function startReceiver(expect: number): Promise<Receiver> {
  const proc = spawn(process.execPath, ['-e', RECEIVER_SOURCE], {
    env: { PATH: process.env.PATH ?? '', RECEIVER_EXPECT: String(expect), RECEIVER_PREFIX: ID_PREFIX },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
    await gone;
    clearTimeout(timer);
  };
  try {
    const { port } = await once<{ port: number }>(proc, 'listening', 10_000);
    return {
      url: `http://127.0.0.1:${port}/hook`,
      summary: () => {
        const reply = once<ReceiverSummary>(proc, 'summary', 10_000);
        proc.send({ type: 'summary' });
        return reply;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function api(o: WebhooksBenchOptions, method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(new URL(path, o.serviceUrl), {
    method,
    headers: { authorization: `Bearer ${o.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = text;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text for the error message
  }
  return { status: res.status, json };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const SETTLED_CORES = 0.1;
const SETTLE_MAX_MS = 15_000;

/** Waits (at most SETTLE_MAX_MS) until the service used < SETTLED_CORES over half a second; returns the time waited. */
async function settle(pid: number): Promise<number> {
  const started = Date.now();
  let before = await readStats(pid);
  while (Date.now() - started < SETTLE_MAX_MS) {
    await sleep(500);
    const after = await readStats(pid);
    if (!before || !after || !Number.isFinite(after.cpuSeconds)) break;
    if ((after.cpuSeconds - before.cpuSeconds) / 0.5 < SETTLED_CORES) break;
    before = after;
  }
  return Date.now() - started;
}

/** Runs the scenario and returns its report section and figures. */
export async function runWebhooksBench(o: WebhooksBenchOptions): Promise<WebhooksBenchResult> {
  const n = o.deliveries;
  const notes: string[] = [];
  const pool = new pg.Pool({ connectionString: o.databaseUrl, max: 2 });
  let receiver: Receiver | undefined;
  let endpointId: string | undefined;
  try {
    receiver = await startReceiver(n);
    const created = await api(o, 'POST', '/api/v1/webhooks', {
      url: receiver.url,
      events: ['analytics.hit'],
      description: 'bench: webhook dispatch throughput',
    });
    if (created.status !== 201) throw new Error(`POST /api/v1/webhooks: HTTP ${created.status} ${JSON.stringify(created.json).slice(0, 300)}`);
    endpointId = (created.json as { id: string }).id;
    o.progress(`webhooks: endpoint ${endpointId} → ${receiver.url}; inserting ${n} deliveries`);

    // Not yet due (nextAttemptAt NULL): the worker ignores them until the UPDATE below.
    await pool.query(
      `INSERT INTO "WebhookDelivery" (id, "endpointId", "eventId", event, payload, status, "nextAttemptAt")
       SELECT 'dlv_whbench_' || g, $1, '${ID_PREFIX}' || g, 'analytics.hit',
              jsonb_build_object('event', 'analytics.hit', 'timestamp', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'path', '/bench/webhook/' || g),
              'PENDING', NULL
         FROM generate_series(1, $2::int) g`,
      [endpointId, n],
    );

    const succeeded = async () =>
      (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "WebhookDelivery" WHERE "endpointId" = $1 AND status = 'SUCCEEDED'`, [endpointId])).rows[0]!.n;
    const deadlineMs = 60_000 + n * 5; // a floor of 200 deliveries/s before giving up
    // The section before (SSE: thousands of streams just closed) may still keep the service busy.
    const settleMs = await settle(o.servicePid);
    notes.push(`service settled for ${fixed(settleMs / 1000, 1)} s before the run (CPU < ${SETTLED_CORES} cores${settleMs >= SETTLE_MAX_MS ? ': NOT reached' : ''})`);
    const idleRss = (await o.sampler.sample())?.rssKb ?? NaN;
    const cpuBefore = await readStats(o.servicePid);
    o.sampler.resetWindow();
    o.progress(`webhooks: making ${n} deliveries due; waiting for all SUCCEEDED (at most ${fixed(deadlineMs / 1000)} s)`);
    const started = Date.now();
    await pool.query(`UPDATE "WebhookDelivery" SET "nextAttemptAt" = now() WHERE "endpointId" = $1 AND "nextAttemptAt" IS NULL`, [endpointId]);
    let done = 0;
    let finished = started;
    for (;;) {
      done = await succeeded();
      finished = Date.now();
      if (done >= n || finished - started > deadlineMs) break;
      await sleep(POLL_MS);
    }
    const cpuAfter = await o.sampler.sample();
    const peakRss = o.sampler.windowPeakKb;
    const elapsedMs = finished - started;
    const timedOut = done < n;
    if (timedOut) notes.push(`gave up after ${fixed(elapsedMs / 1000, 1)} s with ${done} of ${n} SUCCEEDED`);
    // Let any attempt still in flight (or a duplicate) reach the receiver before counting.
    await sleep(timedOut ? 0 : 1_000);

    const states = await pool.query<{ status: string; n: number; attempts: number }>(
      `SELECT d.status::text AS status, count(DISTINCT d.id)::int AS n, count(a.id)::int AS attempts
         FROM "WebhookDelivery" d LEFT JOIN "WebhookAttempt" a ON a."deliveryId" = d.id
        WHERE d."endpointId" = $1 GROUP BY d.status ORDER BY 1`,
      [endpointId],
    );
    const byStatus = Object.fromEntries(states.rows.map((r) => [r.status, r.n]));
    const attempts = states.rows.reduce((a, r) => a + r.attempts, 0);
    const failedAttempts = (
      await pool.query<{ n: number; sample: string | null }>(
        `SELECT count(*)::int AS n, min(a.error) AS sample FROM "WebhookAttempt" a JOIN "WebhookDelivery" d ON d.id = a."deliveryId"
          WHERE d."endpointId" = $1 AND (a."statusCode" IS NULL OR a."statusCode" NOT BETWEEN 200 AND 299)`,
        [endpointId],
      )
    ).rows[0]!;
    if (failedAttempts.n) notes.push(`${failedAttempts.n} attempts did not get a 2xx (first error: ${failedAttempts.sample ?? 'n/a'})`);
    const rx = await receiver.summary();

    const perSecond = (done / elapsedMs) * 1000;
    const receiverPerSecond = rx.lastAt > rx.firstAt ? ((rx.expectedReceived - 1) / (rx.lastAt - rx.firstAt)) * 1000 : NaN;
    const cpuSeconds = cpuBefore && cpuAfter ? cpuAfter.cpuSeconds - cpuBefore.cpuSeconds : NaN;
    if (rx.strays) notes.push(`${rx.strays} requests with an unexpected webhook-id (e.g. ${rx.strayIds.join(', ') || 'none given'})`);
    if (rx.duplicates) notes.push(`duplicated webhook-ids, e.g. ${rx.duplicateIds.join(', ')}`);

    const rows = [
      ['deliveries (SQL-inserted, made due at once)', String(n)],
      ['SUCCEEDED in the database', `${done}${timedOut ? ' (timed out)' : ''}`],
      ['delivery states', states.rows.map((r) => `${r.status} ${r.n}`).join(', ')],
      ['attempts recorded', String(attempts)],
      ['time: made due → all SUCCEEDED', `${fixed(elapsedMs / 1000, 2)} s`],
      ['deliveries/s (made due → all SUCCEEDED)', fixed(perSecond)],
      ['deliveries/s at the receiver (first → last receipt)', fixed(receiverPerSecond)],
      ['receiver: requests / distinct expected ids', `${rx.requests} / ${rx.expectedReceived}`],
      ['receiver: missing / duplicates / strays', `${rx.missing} / ${rx.duplicates} / ${rx.strays}`],
      ['receiver: connections opened', String(rx.connections)],
      ['service cpu (cores, µs/delivery)', `${fixed(cpuSeconds / (elapsedMs / 1000), 2)}, ${fixed((cpuSeconds * 1e6) / done)}`],
      ['receiver cpu (whole life)', `${fixed(rx.cpuSeconds, 2)} s`],
      ['service rss before / peak', `${mb(idleRss)} / ${mb(peakRss)}`],
    ];
    const exactlyOnce = rx.missing === 0 && rx.duplicates === 0 && byStatus.SUCCEEDED === n && attempts === n;
    const ok = !timedOut && exactlyOnce && perSecond >= GOAL_PER_SECOND;
    const verdict =
      `${ok ? 'PASS' : 'MISS'}  webhook dispatch: ${fixed(perSecond)} deliveries/s to one loopback receiver` +
      ` (goal ≥ ${GOAL_PER_SECOND.toLocaleString('en')}; ${n} delivered ${exactlyOnce ? 'exactly once each' : `NOT exactly once: ${rx.missing} missing, ${rx.duplicates} duplicates, ${attempts} attempts`})`;
    const text = [
      `webhook dispatch (${n} due deliveries inserted with SQL, not via the events API; one endpoint created via REST; receiver answers 200 at once in its own process)`,
      table(['measure', 'value'], rows, [false, true]),
      ...notes.map((x) => `note: ${x}`),
      '',
      verdict,
    ].join('\n');
    const json = {
      deliveries: n,
      source: 'sql-insert',
      succeeded: done,
      states: byStatus,
      attempts,
      seconds: elapsedMs / 1000,
      perSecond,
      receiverPerSecond,
      receiver: rx,
      serviceCpuSeconds: cpuSeconds,
      rssKb: { before: idleRss, peak: peakRss },
      notes,
      pass: ok,
    };
    return { text, json };
  } finally {
    if (endpointId) {
      // Deletes its deliveries and attempts too (cascade).
      const deleted = await api(o, 'DELETE', `/api/v1/webhooks/${encodeURIComponent(endpointId)}`).catch((e: unknown) => ({ status: 0, json: String(e) }));
      if (deleted.status !== 204) o.progress(`webhooks: deleting endpoint ${endpointId} failed: HTTP ${deleted.status} ${JSON.stringify(deleted.json)}`);
    }
    await receiver?.stop();
    await pool.end();
  }
}
