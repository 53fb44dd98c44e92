// The webhook dispatch scenarios of `npm run bench` (run.ts calls them after the request
// scenarios), through the real path: events committed through the API (POST /api/analytics/views,
// each in the transaction that writes its outbox row), positioned and fanned out by the event relay,
// delivered by the service's worker (src/modules/webhooks/dispatch/) to receivers on loopback.
//
// 1. Throughput: ENDPOINTS endpoints (created through the REST API as ada, an ADMIN, subscribed
//    to analytics.hit), each on its own receiver; N/ENDPOINTS events committed as fast as 32
//    concurrent requests go, so N deliveries, twice:
//    a. Drain: the endpoints are throttled (throttledUntil, as after a 429) while the events are
//       committed and fanned out, then released at once. Rate: N / (release → a poll of the
//       database, every 100 ms, finds all N SUCCEEDED): the dispatcher's rate on deliveries the
//       real path made, without the cost of committing them.
//    b. End to end: N / (first event request sent → all N SUCCEEDED), committing the events and the
//       relay's fan-out overlapping the dispatch.
//    Goal ≥ 3,000 deliveries/s for each, every delivery exactly once.
// 2. A dead endpoint: a receiver that accepts connections and never answers (the attempt's timeout
//    is the service's, 10 s by default) beside a healthy one, DEAD_EVENTS events. Printed: the
//    healthy deliveries' lag (receipt − the event's `timestamp`) p50/p95/p99. Goal: all arrive,
//    p95 ≤ 2 s.
//
// The receivers are node:http servers in one child process (so they do not compete with this
// process), answering 200 at once (or never), counting requests by `webhook-id`.
//
// Events are committed at a pace (BENCH_WEBHOOK_EVENT_RATE, default 400 a second: 4,000 deliveries
// a second offered), as a busy service would see them, not all at once.
//
// Environment: BENCH_WEBHOOKS (0: skip; default 1), BENCH_WEBHOOK_DELIVERIES (N, default 20000,
// set in run.ts), BENCH_WEBHOOK_DEAD_EVENTS (default 300), BENCH_WEBHOOK_EVENT_RATE (default 400).
import { spawn } from 'node:child_process';
import pg from 'pg';
import { readStats, type Sampler } from './lib/proc.js';
import { stopProcess } from './lib/processes.js';
import { fixed, mb, table } from './lib/report.js';

const GOAL_PER_SECOND = 3_000;
const GOAL_P95_LAG_MS = 2_000;
const ENDPOINTS = 10;
const POST_CONNECTIONS = 32;
/**
 * Events committed per second: 400 offers 4,000 deliveries/s to ENDPOINTS endpoints, above the goal.
 * Unpaced, on a loaded machine the relay fell behind and its fan-out of a full batch (500 events ×
 * 10 endpoints through Prisma's createMany) outlasted its transaction's 5 s timeout, again and again.
 */
const DEFAULT_EVENTS_PER_SECOND = Number(process.env.BENCH_WEBHOOK_EVENT_RATE ?? 400);
/** The drain's backlog is built at a pace the relay keeps up with (its rate is not what is measured). */
const DRAIN_EVENTS_PER_SECOND = Number(process.env.BENCH_WEBHOOK_DRAIN_EVENT_RATE ?? 100);
const POLL_MS = 100;

export interface WebhooksBenchOptions {
  serviceUrl: string;
  servicePid: number;
  sampler: Sampler;
  /** An access token of ada@example.com (ADMIN). */
  token: string;
  /** The service's database, for watching the deliveries' state. */
  databaseUrl: string;
  /** Deliveries in the throughput run (events × ENDPOINTS). */
  deliveries: number;
  /** Events in the dead-endpoint run. */
  deadEvents?: number;
  /** The pace events are committed at (default DEFAULT_EVENTS_PER_SECOND). */
  eventsPerSecond?: number;
  progress(message: string): void;
}

export interface WebhooksBenchResult {
  /** The report section: tables, notes and PASS/MISS lines. */
  text: string;
  json: Record<string, unknown>;
}

interface ReceiverSummary {
  port: number;
  requests: number;
  connections: number;
  /** Distinct webhook-ids, and receipts beyond the first of one. */
  distinct: number;
  duplicates: number;
  firstAt: number;
  lastAt: number;
  /** Receipt − the body's `timestamp`, ms, one per distinct id (when asked for). */
  lags?: number[];
}

// The receivers, plain JavaScript for `node -e` (no loader needed). Commands and reports over IPC;
// exits when the bench goes away (disconnect), whatever the reason.
const RECEIVER_SOURCE = `
const http = require('node:http');
const net = require('node:net');
const receivers = new Map();
function listen(kind, reply) {
  const r = { kind, requests: 0, connections: 0, counts: new Map(), lags: [], firstAt: 0, lastAt: 0, sockets: new Set() };
  const server = kind === 'silent'
    ? net.createServer((socket) => { socket.on('data', () => {}); socket.on('error', () => {}); })
    : http.createServer((req, res) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => {
          const at = Date.now();
          r.requests++;
          if (!r.firstAt) r.firstAt = at;
          r.lastAt = at;
          const id = String(req.headers['webhook-id']);
          const n = (r.counts.get(id) || 0) + 1;
          r.counts.set(id, n);
          if (n === 1) {
            try { r.lags.push(at - Date.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')).timestamp)); } catch {}
          }
          res.writeHead(200, { 'content-length': '0' }).end();
        });
      });
  server.on('connection', (socket) => { r.connections++; r.sockets.add(socket); socket.on('close', () => r.sockets.delete(socket)); });
  server.listen(0, '127.0.0.1', () => {
    const port = server.address().port;
    receivers.set(port, r);
    reply({ port });
  });
}
process.on('message', (m) => {
  const reply = (body) => process.send({ type: 'reply', seq: m.seq, ...body });
  if (m.type === 'listen') return listen(m.kind, reply);
  if (m.type === 'summary') {
    const r = receivers.get(m.port);
    let distinct = 0, duplicates = 0;
    for (const n of r.counts.values()) { distinct++; duplicates += n - 1; }
    return reply({ port: m.port, requests: r.requests, connections: r.connections, distinct, duplicates, firstAt: r.firstAt, lastAt: r.lastAt, ...(m.lags ? { lags: r.lags } : {}) });
  }
  if (m.type === 'mark') { for (const r of receivers.values()) r.firstAt = 0; return reply({}); }
  if (m.type === 'cpu') { const c = process.cpuUsage(); return reply({ cpuSeconds: (c.user + c.system) / 1e6 }); }
});
process.on('disconnect', () => process.exit(0));
`;

interface Receivers {
  /** Starts a receiver ('ok': answers 200; 'silent': accepts connections, never answers) and returns its URL. */
  listen(kind: 'ok' | 'silent'): Promise<{ url: string; port: number }>;
  summary(port: number, lags?: boolean): Promise<ReceiverSummary>;
  cpuSeconds(): Promise<number>;
  /** From now on, firstAt is the next receipt's time. */
  mark(): Promise<void>;
  stop(): Promise<void>;
}

async function startReceivers(): Promise<Receivers> {
  const proc = spawn(process.execPath, ['-e', RECEIVER_SOURCE], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let seq = 0;
  const ask = <T>(message: Record<string, unknown>): Promise<T> => {
    const n = ++seq;
    const reply = new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`webhook receivers: no reply to ${String(message.type)} within 10 s`)), 10_000);
      const onMessage = (m: unknown) => {
        if (m && typeof m === 'object' && (m as { seq?: unknown }).seq === n) done(undefined, m as T);
      };
      const onExit = (code: number | null, signal: string | null) => done(new Error(`webhook receivers exited (code ${code}, signal ${signal})`));
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
    proc.send({ ...message, seq: n });
    return reply;
  };
  return {
    listen: async (kind) => {
      const { port } = await ask<{ port: number }>({ type: 'listen', kind });
      return { url: `http://127.0.0.1:${port}/hook`, port };
    },
    summary: (port, lags = false) => ask<ReceiverSummary>({ type: 'summary', port, lags }),
    cpuSeconds: async () => (await ask<{ cpuSeconds: number }>({ type: 'cpu' })).cpuSeconds,
    mark: async () => {
      await ask({ type: 'mark' });
    },
    stop: () => stopProcess(proc),
  };
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

function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * Commits `n` analytics.hit events through the API, POST_CONNECTIONS requests at a time, at most
 * `perSecond` a second. Returns the failures.
 */
async function commitEvents(o: WebhooksBenchOptions, n: number, tag: string, perSecond: number): Promise<{ failed: number; sample?: string }> {
  let next = 0;
  let failed = 0;
  let sample: string | undefined;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: POST_CONNECTIONS }, async () => {
      while (next < n) {
        const i = ++next;
        const due = started + (i / perSecond) * 1000;
        if (due > Date.now()) await sleep(due - Date.now());
        const reply = await api(o, 'POST', '/api/analytics/views', { path: `/bench/webhooks/${tag}/${i}` }).catch((e: unknown) => ({ status: 0, json: String(e) }));
        if (reply.status >= 300 || reply.status === 0) {
          failed++;
          sample ??= `HTTP ${reply.status} ${JSON.stringify(reply.json).slice(0, 200)}`;
        }
      }
    }),
  );
  return { failed, sample };
}

async function createEndpoint(o: WebhooksBenchOptions, url: string, description: string): Promise<string> {
  const created = await api(o, 'POST', '/api/v1/webhooks', { url, events: ['analytics.hit'], description });
  if (created.status !== 201) throw new Error(`POST /api/v1/webhooks: HTTP ${created.status} ${JSON.stringify(created.json).slice(0, 300)}`);
  return (created.json as { id: string }).id;
}

async function deleteEndpoints(o: WebhooksBenchOptions, ids: string[]): Promise<void> {
  for (const id of ids.splice(0)) {
    // Deletes its deliveries and attempts too (cascade).
    const deleted = await api(o, 'DELETE', `/api/v1/webhooks/${encodeURIComponent(id)}`).catch((e: unknown) => ({ status: 0, json: String(e) }));
    if (deleted.status !== 204) o.progress(`webhooks: deleting endpoint ${id} failed: HTTP ${deleted.status} ${JSON.stringify(deleted.json)}`);
  }
}

/** Runs both scenarios and returns the report section and figures. */
export async function runWebhooksBench(o: WebhooksBenchOptions): Promise<WebhooksBenchResult> {
  const events = Math.max(1, Math.round(o.deliveries / ENDPOINTS));
  const n = events * ENDPOINTS;
  const deadEvents = o.deadEvents ?? Number(process.env.BENCH_WEBHOOK_DEAD_EVENTS ?? 300);
  const notes: string[] = [];
  const pool = new pg.Pool({ connectionString: o.databaseUrl, max: 2 });
  const receivers = await startReceivers();
  const endpointIds: string[] = [];
  try {
    // 1. Throughput.
    const rx = [];
    for (let i = 0; i < ENDPOINTS; i++) {
      const r = await receivers.listen('ok');
      rx.push(r);
      endpointIds.push(await createEndpoint(o, r.url, `bench: webhook dispatch ${i + 1}/${ENDPOINTS}`));
    }
    o.progress(`webhooks: ${ENDPOINTS} endpoints on loopback receivers; committing ${events} events (${n} deliveries)`);
    const succeeded = async () =>
      (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "WebhookDelivery" WHERE "endpointId" = ANY($1) AND status = 'SUCCEEDED'`, [endpointIds])).rows[0]!.n;
    const deadlineMs = 30_000 + n * 3; // a floor of ~300 deliveries/s before giving up
    // The section before (SSE: thousands of streams just closed) may still keep the service busy.
    const settleMs = await settle(o.servicePid);
    notes.push(`service settled for ${fixed(settleMs / 1000, 1)} s before the run (CPU < ${SETTLED_CORES} cores${settleMs >= SETTLE_MAX_MS ? ': NOT reached' : ''})`);
    const idleRss = (await o.sampler.sample())?.rssKb ?? NaN;

    // 1a. The backlog drained. The endpoints are throttled (throttledUntil, as a receiver's 429
    // would do) while the events are committed and fanned out, then released at once: the
    // dispatcher's own rate on deliveries made by the real path, without the cost of committing.
    await pool.query(`UPDATE "WebhookEndpoint" SET "throttledUntil" = now() + interval '1 hour' WHERE id = ANY($1)`, [endpointIds]);
    o.progress(`webhooks: drain: committing ${events} events to throttled endpoints`);
    const drainCommitted = await commitEvents(o, events, 'drain', DRAIN_EVENTS_PER_SECOND);
    if (drainCommitted.failed) notes.push(`${drainCommitted.failed} event requests failed in the drain run (first: ${drainCommitted.sample})`);
    const fannedOut = async () =>
      (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "WebhookDelivery" WHERE "endpointId" = ANY($1) AND status = 'PENDING' AND "nextAttemptAt" IS NOT NULL`, [endpointIds])).rows[0]!.n;
    const fanOutStarted = Date.now();
    while ((await fannedOut()) < n - drainCommitted.failed * ENDPOINTS && Date.now() - fanOutStarted < deadlineMs) await sleep(POLL_MS);
    const profiling = Boolean(process.env.BENCH_PROFILE);
    if (profiling) process.kill(o.servicePid, 'SIGUSR2');
    await receivers.mark();
    const drainCpuBefore = await readStats(o.servicePid);
    o.progress(`webhooks: drain: releasing ${n} due deliveries`);
    const drainStarted = Date.now();
    await pool.query(`UPDATE "WebhookEndpoint" SET "throttledUntil" = NULL WHERE id = ANY($1)`, [endpointIds]);
    let drained = 0;
    let drainFinished = drainStarted;
    for (;;) {
      await sleep(POLL_MS);
      drained = await succeeded();
      drainFinished = Date.now();
      if (drained >= n || drainFinished - drainStarted > deadlineMs) break;
    }
    const drainCpuAfter = await readStats(o.servicePid);
    if (profiling) process.kill(o.servicePid, 'SIGUSR2');
    const drainSummaries = await Promise.all(rx.map((r) => receivers.summary(r.port)));
    const drainFirstAt = Math.min(...drainSummaries.map((x) => x.firstAt || Infinity));
    const drainLastAt = Math.max(...drainSummaries.map((x) => x.lastAt));
    const drainMs = drainFinished - drainStarted;
    const drainPerSecond = (drained / drainMs) * 1000;
    const drainReceiverPerSecond = drainLastAt > drainFirstAt ? ((drained - 1) / (drainLastAt - drainFirstAt)) * 1000 : NaN;
    const drainCpu = drainCpuBefore && drainCpuAfter ? drainCpuAfter.cpuSeconds - drainCpuBefore.cpuSeconds : NaN;
    if (drained < n) notes.push(`drain: gave up after ${fixed(drainMs / 1000, 1)} s with ${drained} of ${n} SUCCEEDED`);

    // 1b. End to end: events committed while the endpoints take deliveries.
    o.progress(`webhooks: end to end: committing ${events} events (${n} deliveries)`);
    await settle(o.servicePid);
    if (profiling) process.kill(o.servicePid, 'SIGUSR2');
    await receivers.mark();
    const cpuBefore = await readStats(o.servicePid);
    const receiverCpuBefore = await receivers.cpuSeconds();
    o.sampler.resetWindow();
    const started = Date.now();
    const committing = commitEvents(o, events, 'throughput', o.eventsPerSecond ?? DEFAULT_EVENTS_PER_SECOND).then((r) => ({ ...r, at: Date.now() }));
    let done = 0;
    let finished = started;
    for (;;) {
      await sleep(POLL_MS);
      done = (await succeeded()) - drained;
      finished = Date.now();
      if (done >= n || finished - started > deadlineMs) break;
    }
    const committed = await committing;
    if (profiling) process.kill(o.servicePid, 'SIGUSR2');
    const cpuAfter = await o.sampler.sample();
    const peakRss = o.sampler.windowPeakKb;
    const elapsedMs = finished - started;
    const timedOut = done < n;
    if (timedOut) notes.push(`gave up after ${fixed(elapsedMs / 1000, 1)} s with ${done} of ${n} SUCCEEDED`);
    if (committed.failed) notes.push(`${committed.failed} event requests failed (first: ${committed.sample})`);
    // Let any attempt still in flight (or a duplicate) reach the receivers before counting.
    await sleep(timedOut ? 0 : 1_000);
    const receiverCpu = (await receivers.cpuSeconds()) - receiverCpuBefore;

    const states = await pool.query<{ status: string; n: number; attempts: number }>(
      `SELECT d.status::text AS status, count(DISTINCT d.id)::int AS n, count(a.id)::int AS attempts
         FROM "WebhookDelivery" d LEFT JOIN "WebhookAttempt" a ON a."deliveryId" = d.id
        WHERE d."endpointId" = ANY($1) GROUP BY d.status ORDER BY 1`,
      [endpointIds],
    );
    const byStatus = Object.fromEntries(states.rows.map((r) => [r.status, r.n]));
    const attempts = states.rows.reduce((a, r) => a + r.attempts, 0);
    const failedAttempts = (
      await pool.query<{ n: number; sample: string | null }>(
        `SELECT count(*)::int AS n, min(a.error) AS sample FROM "WebhookAttempt" a JOIN "WebhookDelivery" d ON d.id = a."deliveryId"
          WHERE d."endpointId" = ANY($1) AND (a."statusCode" IS NULL OR a."statusCode" NOT BETWEEN 200 AND 299)`,
        [endpointIds],
      )
    ).rows[0]!;
    if (failedAttempts.n) notes.push(`${failedAttempts.n} attempts did not get a 2xx (first error: ${failedAttempts.sample ?? 'n/a'})`);
    const summaries = await Promise.all(rx.map((r) => receivers.summary(r.port)));
    const received = summaries.reduce((a, s) => a + s.distinct, 0);
    const duplicates = summaries.reduce((a, s) => a + s.duplicates, 0);
    const missing = summaries.reduce((a, s) => a + Math.max(0, 2 * events - s.distinct), 0);
    const firstAt = Math.min(...summaries.map((s) => s.firstAt || Infinity));
    const lastAt = Math.max(...summaries.map((s) => s.lastAt));
    const perSecond = (done / elapsedMs) * 1000;
    const receiverPerSecond = lastAt > firstAt ? ((done - 1) / (lastAt - firstAt)) * 1000 : NaN;
    const cpuSeconds = cpuBefore && cpuAfter ? cpuAfter.cpuSeconds - cpuBefore.cpuSeconds : NaN;
    if (duplicates) notes.push(`${duplicates} duplicated receipts`);
    await deleteEndpoints(o, endpointIds);

    // 2. A dead endpoint beside a healthy one.
    const silent = await receivers.listen('silent');
    const healthy = await receivers.listen('ok');
    endpointIds.push(await createEndpoint(o, silent.url, 'bench: never answers'));
    endpointIds.push(await createEndpoint(o, healthy.url, 'bench: healthy, beside one that never answers'));
    o.progress(`webhooks: a never-answering endpoint beside a healthy one; committing ${deadEvents} events`);
    const deadStarted = Date.now();
    const deadCommitted = await commitEvents(o, deadEvents, 'dead', o.eventsPerSecond ?? DEFAULT_EVENTS_PER_SECOND);
    if (deadCommitted.failed) notes.push(`${deadCommitted.failed} event requests failed in the dead-endpoint run (first: ${deadCommitted.sample})`);
    let lagSummary = await receivers.summary(healthy.port, true);
    while (lagSummary.distinct < deadEvents && Date.now() - deadStarted < 120_000) {
      await sleep(POLL_MS);
      lagSummary = await receivers.summary(healthy.port, true);
    }
    const lags = lagSummary.lags ?? [];
    const silentSummary = await receivers.summary(silent.port);
    const lag = { p50: percentile(lags, 50), p95: percentile(lags, 95), p99: percentile(lags, 99), max: lags.length ? Math.max(...lags) : NaN };
    await deleteEndpoints(o, endpointIds);

    const drainRows = [
      ['endpoints (loopback receivers, one child process)', String(ENDPOINTS)],
      ['events committed via POST /api/analytics/views, fanned out while the endpoints were throttled', String(events)],
      ['deliveries released at once', String(n)],
      ['time: released → all SUCCEEDED (incl. up to one 1 s idle poll)', `${fixed(drainMs / 1000, 2)} s`],
      ['deliveries/s (released → all SUCCEEDED)', fixed(drainPerSecond)],
      ['deliveries/s at the receivers (first → last receipt)', fixed(drainReceiverPerSecond)],
      ['service cpu (cores, µs/delivery)', `${fixed(drainCpu / (drainMs / 1000), 2)}, ${fixed((drainCpu * 1e6) / drained)}`],
    ];
    const rows = [
      ['events committed via POST /api/analytics/views', `${events} (≤ ${POST_CONNECTIONS} at a time, paced at ${o.eventsPerSecond ?? DEFAULT_EVENTS_PER_SECOND}/s, done after ${fixed((committed.at - started) / 1000, 2)} s)`],
      ['deliveries (events × endpoints)', String(n)],
      ['SUCCEEDED in the database', `${done}${timedOut ? ' (timed out)' : ''}`],
      ['delivery states', states.rows.map((r) => `${r.status} ${r.n}`).join(', ')],
      ['attempts recorded', String(attempts)],
      ['time: first event request → all SUCCEEDED', `${fixed(elapsedMs / 1000, 2)} s`],
      ['deliveries/s (first event request → all SUCCEEDED)', fixed(perSecond)],
      ['deliveries/s at the receivers (first → last receipt)', fixed(receiverPerSecond)],
      ['receivers: distinct ids (both runs) / missing / duplicates', `${received} / ${missing} / ${duplicates}`],
      ['receivers: connections opened', String(summaries.reduce((a, s) => a + s.connections, 0))],
      ['service cpu (cores, µs/delivery incl. the event requests)', `${fixed(cpuSeconds / (elapsedMs / 1000), 2)}, ${fixed((cpuSeconds * 1e6) / done)}`],
      ['receivers cpu (during the run)', `${fixed(receiverCpu, 2)} s`],
      ['service rss before / peak', `${mb(idleRss)} / ${mb(peakRss)}`],
    ];
    const deadRows = [
      ['events committed', String(deadEvents)],
      ['healthy endpoint: deliveries received', `${lagSummary.distinct} of ${deadEvents}`],
      ['healthy endpoint: lag p50 / p95 / p99 / max (receipt − event timestamp)', `${fixed(lag.p50)} / ${fixed(lag.p95)} / ${fixed(lag.p99)} / ${fixed(lag.max)} ms`],
      ['never-answering endpoint: connections held', String(silentSummary.connections)],
    ];
    const exactlyOnce = missing === 0 && duplicates === 0 && byStatus.SUCCEEDED === 2 * n && attempts === 2 * n;
    const ok = !timedOut && exactlyOnce && perSecond >= GOAL_PER_SECOND && committed.failed === 0;
    const drainOk = drained >= n && exactlyOnce && drainPerSecond >= GOAL_PER_SECOND;
    const deadOk = lagSummary.distinct >= deadEvents && lag.p95 <= GOAL_P95_LAG_MS;
    const verdicts = [
      `${drainOk ? 'PASS' : 'MISS'}  webhook dispatch, backlog drain: ${fixed(drainPerSecond)} deliveries/s (${fixed(drainReceiverPerSecond)}/s at the receivers), ${n} deliveries fanned out by the relay from ${events} API events to ${ENDPOINTS} endpoints (goal ≥ ${GOAL_PER_SECOND.toLocaleString('en')})`,
      `${ok ? 'PASS' : 'MISS'}  webhook dispatch: ${fixed(perSecond)} deliveries/s, ${events} events committed via the API fanned out to ${ENDPOINTS} endpoints` +
        ` (goal ≥ ${GOAL_PER_SECOND.toLocaleString('en')}; ${n} delivered ${exactlyOnce ? 'exactly once each' : `NOT exactly once: ${missing} missing, ${duplicates} duplicates, ${attempts} attempts`})`,
      `${deadOk ? 'PASS' : 'MISS'}  webhook dispatch beside a dead endpoint: healthy lag p95 ${fixed(lag.p95)} ms (p50 ${fixed(lag.p50)}, p99 ${fixed(lag.p99)}; goal p95 ≤ ${GOAL_P95_LAG_MS.toLocaleString('en')} ms, ${lagSummary.distinct} of ${deadEvents} arrived)`,
    ];
    const text = [
      `webhook dispatch, backlog drain (events committed through the API and fanned out by the relay to throttled endpoints, then released; receivers answer 200 at once in their own process)`,
      table(['measure', 'value'], drainRows, [false, true]),
      '',
      `webhook dispatch, end to end (events committed through the API while the endpoints take deliveries)`,
      table(['measure', 'value'], rows, [false, true]),
      '',
      `webhook dispatch beside a dead endpoint (a receiver that accepts connections and never answers; attempt timeout as configured)`,
      table(['measure', 'value'], deadRows, [false, true]),
      ...notes.map((x) => `note: ${x}`),
      '',
      ...verdicts,
    ].join('\n');
    const json = {
      endpoints: ENDPOINTS,
      events,
      deliveries: n,
      source: 'api-events',
      succeeded: done,
      states: byStatus,
      attempts,
      drain: { deliveries: n, succeeded: drained, seconds: drainMs / 1000, perSecond: drainPerSecond, receiverPerSecond: drainReceiverPerSecond, serviceCpuSeconds: drainCpu, pass: drainOk },
      seconds: elapsedMs / 1000,
      perSecond,
      receiverPerSecond,
      receivers: summaries,
      serviceCpuSeconds: cpuSeconds,
      receiverCpuSeconds: receiverCpu,
      rssKb: { before: idleRss, peak: peakRss },
      deadEndpoint: { events: deadEvents, received: lagSummary.distinct, lagMs: lag, silentConnections: silentSummary.connections, pass: deadOk },
      notes,
      pass: ok,
    };
    return { text, json };
  } finally {
    await deleteEndpoints(o, endpointIds);
    await receivers.stop();
    await pool.end();
  }
}
