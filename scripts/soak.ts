// `npm run soak`: soak and chaos, nothing lost (issue 11, item 2).
//
// Starts a throwaway PostgreSQL cluster and Redis server of its own (free ports, a temporary
// directory), two instances of the compiled service on them, webhook receivers (two that answer
// at once, one flaky, one slow) and SSE and WebSocket subscribers to `events` that resume with
// `after` after any drop. Then SOAK_CLIENTS (200) concurrent clients send mixed traffic for
// SOAK_DURATION_S (600) seconds, while it kills one instance with SIGKILL and starts it again,
// restarts PostgreSQL, stops Redis for 10 s, and cuts instance A alone off from Redis for 10 s (a
// partition: A reaches Redis through a TCP proxy, B directly). One client class retries every write
// under an Idempotency-Key (soak/idempotent-writer.ts), and once B is back a flood of idle
// WebSocket upgrades from one address hits both instances (soak/flood.ts). At the end it proves,
// against the database's own event list (the Event table, cross-checked with GET /api/v1/events):
// - every committed event reached every subscriber and every receiver (duplicates counted);
// - every page view answered 202 and every lesson published has its event;
// - every Idempotency-Key changed the database at most once (exactly once when acknowledged), and
//   every replay matched its original byte for byte;
// - the flood was refused past the per-address cap and its idle sockets closed (4408, 4403);
// - no request failed except the 503s and 429s the contract allows (each justified: see checks.ts);
// - no instance crashed; RSS of each was flat over the last minute (the last third of shorter runs);
// and prints p99 latency per kind of traffic and a summary table. Exit code 1 when any check fails.
//
// Environment: SOAK_DURATION_S (600), SOAK_CLIENTS (200), SOAK_DRAIN_S (how long the end waits for
// deliveries to arrive; default 20, or 60 from 300 s runs), SOAK_SABOTAGE=receiver,subscriber (a
// receiver, a subscriber, or both forget an event: the run must then fail), SOAK_NODE_IMPORT (a module
// preloaded into each instance with --import, for diagnostics).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { fixed, mb, table } from '../bench/lib/report.js';
import { tcpProxy } from '../bench/lib/tcp-proxy.js';
import { DEMO_ACCOUNTS } from '../src/db/seed.js';
import { checkStream, judge, percentile, rssFlatness, unrecorded, POSTGRES_GRACE_MS, RSS_TOLERANCE_FRACTION, RSS_TOLERANCE_MIN_KB, WARM_AFTER_MS, type FaultWindow, type StoredEvent, type Verdict } from './soak/checks.js';
import { startCluster, type Cluster } from './soak/cluster.js';
import { startInfra, type Infra } from './soak/infra.js';
import { startReceivers, type ReceiverSpec, type Receivers } from './soak/receivers.js';
import { startSseSubscriber, startWsSubscriber, type Subscriber } from './soak/subscribers.js';
import { floodSockets, type FloodResult } from './soak/flood.js';
import { startTraffic, type Kind } from './soak/traffic.js';

const DURATION_S = Number(process.env.SOAK_DURATION_S ?? 600);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 200);
const DRAIN_S = Number(process.env.SOAK_DRAIN_S ?? (DURATION_S >= 300 ? 60 : 20));
const SABOTAGE = new Set((process.env.SOAK_SABOTAGE ?? '').split(',').filter(Boolean));
const INSTANCES = 2;
const SUBSCRIBERS_PER_TRANSPORT = 4;
const FREE_LIMIT = 100;
const WINDOW_S = 60;
const POSTGRES_DOWN_MS = 3_000;
const REDIS_DOWN_MS = 10_000;
const PARTITION_MS = 10_000;
const INSTANCE_DOWN_MS = 1_000;
const SLOW_RECEIVER_MS = 1_000;
/** Open WebSocket and SSE connections per address; the flood sends more than this to each instance. */
const CONNECTIONS_PER_ADDRESS = 64;
const FLOOD_PER_INSTANCE = 100;
const FLOOD_ADDRESS = '10.99.0.1';
const EVENT_NAMES = ['user.created', 'user.updated', 'lesson.published', 'lesson.updated', 'analytics.hit'];
const JWT_SECRET = 'soak-signing-key-of-at-least-32-characters';

const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s`;
const log = (message: string) => console.log(`[soak ${elapsed()}] ${message}`);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

if (!Number.isFinite(DURATION_S) || DURATION_S < 30) throw new Error('SOAK_DURATION_S must be a number of seconds, at least 30');
if (!Number.isInteger(CLIENTS) || CLIENTS < 20) throw new Error('SOAK_CLIENTS must be an integer, at least 20');

let infra: Infra | undefined;
let cluster: Cluster | undefined;
let receivers: Receivers | undefined;
let partition: ReturnType<typeof tcpProxy> | undefined;
let dataDir: string | undefined;
const subscribers: Subscriber[] = [];

async function cleanup(): Promise<void> {
  for (const s of subscribers) s.close();
  await cluster?.stop().catch(() => {});
  await partition?.close().catch(() => {});
  await receivers?.stop().catch(() => {});
  await infra?.cleanup().catch(() => {});
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

/** One query on the soak's own database (a fresh connection: PostgreSQL restarts mid-run). */
async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: infra!.postgres.url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function api(method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(cluster!.pick(0).url + path, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    json = { text };
  }
  return { status: res.status, json };
}

async function must(method: string, path: string, status: number, token?: string, body?: unknown): Promise<Record<string, unknown>> {
  const r = await api(method, path, token, body);
  if (r.status !== status) throw new Error(`${method} ${path}: HTTP ${r.status} ${JSON.stringify(r.json).slice(0, 300)} (expected ${status})`);
  return r.json;
}

async function login(email: string): Promise<string> {
  const account = DEMO_ACCOUNTS.find((a) => a.email === email)!;
  return (await must('POST', '/api/auth/login', 200, undefined, { email, password: account.password })).token as string;
}

/**
 * Every event after `position` (and any not positioned yet), in commit order, from the Event table,
 * with whether a MEMBER (the subscribers' and the list's caller) may see it: not about a draft,
 * and not about another learner (CONTRACT.md, "Who sees an event").
 */
async function storedEvents(position: number, memberId: string): Promise<(StoredEvent & { type: string; positioned: boolean; memberSees: boolean })[]> {
  const rows = await sql<{ id: string; position: string | null; type: string; member_sees: boolean }>(
    `SELECT id, position::text AS position, payload->>'event' AS type,
            NOT "adminOnly" AND ("ownerId" IS NULL OR "ownerId" = $2) AS member_sees
       FROM "Event" WHERE position > $1 OR position IS NULL ORDER BY "Event".position NULLS LAST, id`,
    [position, memberId],
  );
  return rows.map((r) => ({ id: r.id, position: r.position === null ? Infinity : Number(r.position), type: r.type, positioned: r.position !== null, memberSees: r.member_sees }));
}

/** The same list through the API (GET /api/v1/events, paged with `after`). */
async function listedEvents(token: string, after: string): Promise<string[]> {
  const ids: string[] = [];
  for (let cursor: string | null = after; cursor; ) {
    const page = await must('GET', `/api/v1/events?after=${cursor}&limit=1000`, 200, token);
    for (const item of page.items as { id: string }[]) ids.push(item.id);
    cursor = page.nextCursor as string | null;
  }
  return ids;
}

interface Check {
  name: string;
  pass: boolean;
  detail: string;
}

async function main(): Promise<number> {
  log(`duration ${DURATION_S} s, ${CLIENTS} clients, ${INSTANCES} instances${SABOTAGE.size ? `, SOAK_SABOTAGE=${[...SABOTAGE].join(',')}` : ''}`);
  infra = await startInfra(log);
  dataDir = mkdtempSync(join(tmpdir(), 'learnstream-soak-data-'));
  const env: Record<string, string> = {
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    DATABASE_URL: infra.postgres.url,
    REDIS_URL: infra.redis.url,
    DATA_DIR: dataDir,
    JWT_SECRET,
    LOG_LEVEL: 'warn',
    // Every client has an address of its own (X-Forwarded-For), as behind a proxy.
    TRUST_PROXY: 'true',
    RATE_LIMIT_FREE: String(FREE_LIMIT),
    RATE_LIMIT_WINDOW_S: String(WINDOW_S),
    // ADMIN writes come from one PRO account: its budget is not what is under test (the Free one is).
    RATE_LIMIT_PRO: '100000000',
    RATE_LIMIT_REGISTER: '100000/1h',
    // Retries that fit in the run (the flaky receiver's 500s, attempts cut by the kill).
    WEBHOOK_RETRY_SCHEDULE: '1s,2s,5s,10s,30s,1m,5m',
    WEBHOOK_TIMEOUT_MS: '5000',
    CONNECTIONS_PER_ADDRESS: String(CONNECTIONS_PER_ADDRESS),
  };
  receivers = startReceivers();
  // Instance A reaches Redis through a proxy that the partition cuts; B reaches it directly.
  partition = tcpProxy(infra.redis.url);
  const proxiedRedis = await partition.listen();
  cluster = await startCluster(INSTANCES, env, log, (index): Record<string, string> => (index === 0 ? { REDIS_URL: proxiedRedis } : {}));

  const admin = await login('ada@example.com');
  const member = await login('alan@example.com');
  const me = await must('GET', '/api/v1/user/me', 200, admin);
  const memberMe = await must('GET', '/api/v1/user/me', 200, member);
  const lessons = await must('GET', '/api/v1/lessons?limit=20', 200, member);
  const lessonIds = (lessons.items as { id: string }[]).map((l) => l.id);
  if (!lessonIds.length) throw new Error('no published lessons to read (is the database seeded?)');

  // The receivers and their endpoints.
  const specs: ReceiverSpec[] = [
    { name: 'all events', kind: 'ok', delayMs: 0, events: EVENT_NAMES, forgetOne: SABOTAGE.has('receiver') },
    { name: 'page views', kind: 'ok', delayMs: 0, events: ['analytics.hit'] },
    { name: 'flaky (500 to 1 in 10)', kind: 'flaky', delayMs: 0, events: EVENT_NAMES },
    { name: `slow (${SLOW_RECEIVER_MS} ms)`, kind: 'slow', delayMs: SLOW_RECEIVER_MS, events: ['user.created', 'user.updated', 'lesson.published', 'lesson.updated'] },
  ];
  const endpoints: { spec: ReceiverSpec; port: number; id: string }[] = [];
  for (const spec of specs) {
    const { port, url } = await receivers.listen(spec);
    const created = await must('POST', '/api/v1/webhooks', 201, admin, { url, events: spec.events, description: `soak: ${spec.name}` });
    await receivers.setSecret(port, created.secret as string);
    endpoints.push({ spec, port, id: created.id as string });
  }

  // The baseline: an event committed after the endpoints exist. Everything after it is expected everywhere.
  await must('POST', '/api/analytics/views', 202, undefined, { path: '/soak/baseline' });
  let baseline: { id: string; position: number } | undefined;
  for (let i = 0; i < 100 && !baseline; i++) {
    const [row] = await sql<{ id: string; position: string | null }>(`SELECT id, position::text AS position FROM "Event" WHERE payload->>'path' = '/soak/baseline'`);
    if (row?.position) baseline = { id: row.id, position: Number(row.position) };
    else await sleep(100);
  }
  if (!baseline) throw new Error('the baseline event was never positioned');
  log(`baseline event ${baseline.id} at position ${baseline.position}`);

  for (let i = 0; i < SUBSCRIBERS_PER_TRANSPORT; i++) {
    subscribers.push(startSseSubscriber(`SSE ${i + 1}`, i, cluster, member, baseline.id, SABOTAGE.has('subscriber') && i === 0));
    subscribers.push(startWsSubscriber(`WS ${i + 1}`, i, cluster, member, baseline.id));
  }
  await sleep(500);

  // Traffic, and the faults on a timeline.
  const faults: FaultWindow[] = [];
  const traffic = startTraffic({
    cluster,
    tokens: { admin, member },
    clients: CLIENTS,
    freeLimit: FREE_LIMIT,
    windowMs: WINDOW_S * 1000,
    userIds: [me.id as string, memberMe.id as string],
    lessonIds,
    eventId: baseline.id,
  });
  const trafficStart = Date.now();
  log(`traffic: ${CLIENTS} clients for ${DURATION_S} s`);
  const at = (fraction: number) => sleep(Math.max(0, trafficStart + fraction * DURATION_S * 1000 - Date.now()));
  let flood: Promise<FloodResult[]> | undefined;
  const timeline = (async () => {
    await at(0.15);
    log('fault: kill -9 instance B, then start it again');
    const kill = await cluster.killAndRestart(1, INSTANCE_DOWN_MS);
    faults.push({ fault: 'kill', instance: 1, from: kill.killedAt, to: kill.backAt });
    log(`fault over: B back after ${((kill.backAt - kill.killedAt) / 1000).toFixed(1)} s`);
    // With both instances up: the sockets of one address, past its cap, while the traffic goes on.
    log(`flood: ${FLOOD_PER_INSTANCE} WebSocket upgrades to each instance from ${FLOOD_ADDRESS} (cap ${CONNECTIONS_PER_ADDRESS}), none initialised`);
    flood = floodSockets(cluster!, FLOOD_ADDRESS, FLOOD_PER_INSTANCE);
    await at(0.3);
    log(`fault: restart PostgreSQL (down ${POSTGRES_DOWN_MS / 1000} s)`);
    const pgWindow: FaultWindow = { fault: 'postgres', from: Date.now(), to: Infinity };
    faults.push(pgWindow);
    const restart = await infra!.postgres.restart(POSTGRES_DOWN_MS);
    Object.assign(pgWindow, { from: restart.stoppedAt, to: restart.readyAt });
    log(`fault over: PostgreSQL back after ${((restart.readyAt - restart.stoppedAt) / 1000).toFixed(1)} s`);
    await at(0.45);
    log(`fault: stop Redis for ${REDIS_DOWN_MS / 1000} s`);
    const redisWindow: FaultWindow = { fault: 'redis', from: Date.now(), to: Infinity };
    faults.push(redisWindow);
    await infra!.redis.stop();
    await sleep(REDIS_DOWN_MS);
    await infra!.redis.start();
    redisWindow.to = Date.now();
    log(`fault over: Redis back after ${((redisWindow.to - redisWindow.from) / 1000).toFixed(1)} s`);
    await at(0.7);
    log(`fault: cut instance A off from Redis for ${PARTITION_MS / 1000} s (B keeps it)`);
    const partitionWindow: FaultWindow = { fault: 'partition', instance: 0, from: Date.now(), to: Infinity };
    faults.push(partitionWindow);
    partition!.cut();
    await sleep(PARTITION_MS);
    partition!.restore();
    partitionWindow.to = Date.now();
    log(`fault over: A reaches Redis again after ${((partitionWindow.to - partitionWindow.from) / 1000).toFixed(1)} s`);
  })();
  const progress = setInterval(() => {
    const ok = [...traffic.recorded.ok.values()].reduce((a, b) => a + b, 0);
    log(`progress: ${ok} ok, ${traffic.recorded.results.length} other results, ${traffic.recorded.failovers} failovers`);
  }, 15_000);
  await at(1);
  await timeline;
  await traffic.stop();
  clearInterval(progress);
  const trafficEnd = Date.now();
  log('traffic stopped; waiting for every event to reach every subscriber and receiver');

  // The drain: until everything arrived or SOAK_DRAIN_S passed.
  const drainDeadline = Date.now() + DRAIN_S * 1000;
  let events = await storedEvents(baseline.position, memberMe.id as string);
  const seenByMember = () => events.filter((e) => e.memberSees);
  const expectedFor = (spec: ReceiverSpec) => events.filter((e) => spec.events.includes(e.type)).map((e) => e.id);
  for (;;) {
    events = await storedEvents(baseline.position, memberMe.id as string);
    const positioned = events.every((e) => e.positioned);
    const subscribersDone = positioned && subscribers.every((s) => checkStream(seenByMember(), s.connections).missing === 0);
    let receiversDone = false;
    if (positioned) {
      for (const e of endpoints) await receivers.expect(e.port, expectedFor(e.spec));
      receiversDone = (await receivers.progress()).every((p) => p.missing === 0);
    }
    if ((subscribersDone && receiversDone) || Date.now() > drainDeadline) break;
    await sleep(500);
  }
  const drainMs = Date.now() - trafficEnd;
  log(`drain over after ${(drainMs / 1000).toFixed(1)} s`);

  // The verdicts.
  const checks: Check[] = [];
  const unpositioned = events.filter((e) => !e.positioned);
  const positionedEvents = events.filter((e) => e.positioned);
  // What the MEMBER subscribers and the MEMBER's list must show: the edits of drafts are not theirs.
  const memberEvents = positionedEvents.filter((e) => e.memberSees);
  checks.push({ name: 'every committed event positioned by the relay', pass: unpositioned.length === 0, detail: `${positionedEvents.length} events after the baseline, ${unpositioned.length} never positioned` });

  const listed = await listedEvents(member, baseline.id);
  const firstDifference = memberEvents.findIndex((e, i) => listed[i] !== e.id);
  const sameList = listed.length === memberEvents.length && firstDifference < 0;
  checks.push({
    name: 'GET /api/v1/events = the Event table, as a MEMBER sees it',
    pass: sameList,
    detail: `${listed.length} listed, ${memberEvents.length} stored that a MEMBER sees (of ${positionedEvents.length})` +
      (sameList ? ', same ids in the same order' : `, they DIFFER from #${firstDifference}: listed ${listed[firstDifference]}, stored ${memberEvents[firstDifference]?.id} (position ${memberEvents[firstDifference]?.position})`),
  });

  const subscriberRows: string[][] = [];
  for (const s of subscribers) {
    const c = checkStream(memberEvents, s.connections);
    const drops = [...s.drops].map(([reason, d]) => `${reason} ×${d.count} (first +${fixed((d.firstAt - trafficStart) / 1000)} s)`).join(', ') || 'none';
    const pass = c.missing === 0 && c.outOfOrder === 0 && c.unexpected === 0 && s.badErrors.length === 0;
    subscriberRows.push([s.name, String(c.received), String(c.missing), String(c.duplicates), String(c.outOfOrder), String(s.connections.length - 1), drops]);
    checks.push({
      name: `subscriber ${s.name}: every event, in order`,
      pass,
      detail: `${c.received} received over ${s.connections.length} connections, ${c.missing} missing${c.missing ? ` (e.g. ${c.missingSample.join(', ')})` : ''}, ${c.duplicates} duplicates, ${c.outOfOrder} out of order, ${c.unexpected} unexpected${s.badErrors.length ? `; errors: ${s.badErrors.slice(0, 3).join(' | ')}` : ''}`,
    });
  }

  for (const e of endpoints) await receivers.expect(e.port, expectedFor(e.spec));
  const reports = await receivers.report();
  const deliveryStates = await sql<{ endpoint: string; status: string; n: number }>(
    `SELECT "endpointId" AS endpoint, status::text AS status, count(*)::int AS n FROM "WebhookDelivery" GROUP BY 1, 2`,
  );
  const receiverRows: string[][] = [];
  for (const r of reports) {
    const endpoint = endpoints.find((e) => e.port === r.port)!;
    const states = deliveryStates.filter((d) => d.endpoint === endpoint.id).map((d) => `${d.status} ${d.n}`).join(', ');
    const pass = r.missing === 0 && r.badSignatures === 0 && r.badBodies === 0;
    receiverRows.push([r.name, String(r.expected), String(r.distinct), String(r.missing), String(r.duplicates), String(r.requests), String(r.failedOnPurpose), states]);
    checks.push({
      name: `receiver ${r.name}: every event, signed`,
      pass,
      detail: `${r.expected} expected, ${r.missing} missing${r.missing ? ` (e.g. ${r.missingSample.join(', ')})` : ''}, ${r.duplicates} duplicates, ${r.badSignatures} bad signatures, ${r.badBodies} unexpected bodies${r.samples.length ? `; ${r.samples.slice(0, 2).join(' | ')}` : ''}`,
    });
  }

  // A receiver that misses events: what the database says of the first few (state, lease, attempts).
  const missingDeliveries: string[] = [];
  for (const r of reports.filter((x) => x.missing > 0)) {
    const endpoint = endpoints.find((e) => e.port === r.port)!;
    const rows = await sql<{ eventId: string; status: string; attemptCount: number; created: number; next: number | null; locked: number | null; attempts: string | null }>(
      `SELECT d."eventId", d.status::text AS status, d."attemptCount",
              extract(epoch FROM d."createdAt") * 1000 AS created,
              extract(epoch FROM d."nextAttemptAt") * 1000 AS next,
              extract(epoch FROM d."lockedUntil") * 1000 AS locked,
              (SELECT string_agg(round(extract(epoch FROM a.at) * 1000)::text || ' ' || coalesce(a."statusCode"::text, '-') || ' ' || coalesce(a.error, ''), ' | ' ORDER BY a.at)
                 FROM "WebhookAttempt" a WHERE a."deliveryId" = d.id) AS attempts
         FROM "WebhookDelivery" d WHERE d."endpointId" = $1 AND d."eventId" = ANY($2::text[])`,
      [endpoint.id, r.missingSample],
    );
    const rel = (ms: number | null) => (ms === null ? '-' : `+${fixed((Number(ms) - trafficStart) / 1000, 1)} s`);
    for (const d of rows) {
      const attempts = (d.attempts ?? '').split(' | ').filter(Boolean).map((a) => { const [ms, ...rest] = a.split(' '); return `${rel(Number(ms))} ${rest.join(' ')}`; });
      missingDeliveries.push(`${r.name}: ${d.eventId} ${d.status}, created ${rel(d.created)}, ${d.attemptCount} attempts recorded${attempts.length ? ` (${attempts.join('; ')})` : ''}, next ${rel(d.next)}, lease until ${rel(d.locked)}`);
    }
    if (!rows.length) missingDeliveries.push(`${r.name}: no delivery rows for ${r.missingSample.join(', ')}`);
  }

  const allEvents = await sql<{ type: string; path: string | null; lesson: string | null }>(
    `SELECT payload->>'event' AS type, payload->>'path' AS path, payload->>'lessonId' AS lesson FROM "Event"`,
  );
  const storedPaths = new Set(allEvents.filter((e) => e.type === 'analytics.hit' && e.path).map((e) => e.path!));
  const storedPublished = new Set(allEvents.filter((e) => e.type === 'lesson.published' && e.lesson).map((e) => e.lesson!));
  const lostViews = unrecorded(traffic.recorded.pageViews, storedPaths);
  const lostPublished = unrecorded(traffic.recorded.published, storedPublished);
  checks.push({
    name: 'every acknowledged write has its event',
    pass: lostViews.length === 0 && lostPublished.length === 0,
    detail: `${traffic.recorded.pageViews.size} page views acknowledged (${lostViews.length} without analytics.hit), ${traffic.recorded.published.size} lessons published (${lostPublished.length} without lesson.published)`,
  });

  // Idempotent writes: each key changed the database at most once, and exactly once if it succeeded.
  const idem = traffic.recorded.idempotent;
  const titles = new Map(
    (await sql<{ title: string; n: number }>(`SELECT title, count(*)::int AS n FROM "Lesson" WHERE title LIKE 'Idem soak-idem-%' GROUP BY title`)).map((r) => [r.title, r.n]),
  );
  const publishedCount = new Map(
    (await sql<{ lesson: string; n: number }>(`SELECT payload->>'lessonId' AS lesson, count(*)::int AS n FROM "Event" WHERE type = 'lesson.published' GROUP BY 1`)).map((r) => [r.lesson, r.n]),
  );
  const wrongKeys: string[] = [];
  let succeededKeys = 0;
  for (const [key, k] of idem.keys) {
    const n = k.request === 'create' ? (titles.get(k.title!) ?? 0) : (publishedCount.get(k.lessonId!) ?? 0);
    if (k.succeeded) succeededKeys++;
    if (n > 1 || (k.succeeded && n !== 1)) wrongKeys.push(`${key} (${k.request}): ${n} in the database${k.succeeded ? ', acknowledged' : ''}`);
  }
  checks.push({
    name: 'idempotent writes: every key changed the database once at most, replays byte for byte',
    pass: wrongKeys.length === 0 && idem.replayMismatches.length === 0 && idem.replays > 0,
    detail: `${idem.keys.size} keys (${succeededKeys} acknowledged), ${wrongKeys.length} wrong${wrongKeys.length ? ` (${wrongKeys.slice(0, 3).join('; ')})` : ''}; ${idem.replays} replays compared, ${idem.replayMismatches.length} differed${idem.replayMismatches.length ? ` (${idem.replayMismatches.slice(0, 3).join('; ')})` : ''}`,
  });

  // The socket flood: past the cap refused before opening, every opened socket closed by the server.
  const floods = flood ? await flood : [];
  // An idle socket holds its slot until the init timeout; a refused token frees its slot at once.
  const floodBad = floods.filter((f) => f.other.length > 0 || f.refused429 === 0 || f.closed4408 > CONNECTIONS_PER_ADDRESS);
  checks.push({
    name: `socket flood: ${FLOOD_PER_INSTANCE} upgrades per instance from one address, cap ${CONNECTIONS_PER_ADDRESS}`,
    pass: floods.length === INSTANCES && floodBad.length === 0,
    detail: floods.length
      ? floods.map((f) => `${f.instance}: ${f.refused429} refused 429, ${f.closed4408} closed 4408, ${f.closed4403} closed 4403${f.other.length ? `, ${f.other.length} other (${[...new Set(f.other)].slice(0, 3).join('; ')})` : ''}`).join(' | ')
      : 'the flood never ran',
  });

  // Requests.
  const verdicts = new Map<Kind, Map<Verdict, number>>();
  const failures = new Map<string, number>();
  for (const [kind, n] of traffic.recorded.ok) verdicts.set(kind, new Map([['ok', n]]));
  for (const r of traffic.recorded.results) {
    const { verdict, reason } = judge(r, faults);
    const byKind = verdicts.get(r.kind as Kind) ?? new Map<Verdict, number>();
    verdicts.set(r.kind as Kind, byKind);
    byKind.set(verdict, (byKind.get(verdict) ?? 0) + 1);
    if (verdict === 'failed') {
      const key = `${r.kind}: ${reason} (at +${((r.start - trafficStart) / 1000).toFixed(1)} s on ${cluster.instances[r.instance]?.name})`;
      const short = `${r.kind}: ${reason}`;
      failures.set(short, (failures.get(short) ?? 0) + 1);
      if ((failures.get(short) ?? 0) <= 3) console.log(`  failed request: ${key}`);
    }
  }
  const count = (v: Verdict) => [...verdicts.values()].reduce((a, m) => a + (m.get(v) ?? 0), 0);
  const totalRequests = [...verdicts.values()].reduce((a, m) => a + [...m.values()].reduce((x, y) => x + y, 0), 0);
  checks.push({
    name: 'no request failed beyond the contract',
    pass: count('failed') === 0,
    detail: `${totalRequests} requests: ${count('ok')} ok, ${count('allowed 429')} 429 (earned), ${count('allowed 503')} 503 (PostgreSQL down), ${count('allowed 409')} 409 (an idempotent resend in progress), ${count('cut by kill -9')} cut by kill -9, ${count('failed')} failed${failures.size ? `: ${[...failures].map(([k, n]) => `${k} ×${n}`).join('; ')}` : ''}`,
  });
  checks.push({
    name: 'no instance crashed',
    pass: cluster.crashes.length === 0,
    detail: cluster.crashes.length ? cluster.crashes.map((c) => `${c.instance} at +${((c.at - trafficStart) / 1000).toFixed(1)} s`).join(', ') + ' (its last output is printed above)' : 'none',
  });

  // Memory.
  const windowMs = DURATION_S >= 180 ? 60_000 : (DURATION_S * 1000) / 3;
  const rssRows: string[][] = [];
  for (const inst of cluster.instances) {
    const from = trafficEnd - windowMs;
    const warming = from - inst.startedAt < WARM_AFTER_MS;
    const f = rssFlatness(inst.rss, from, trafficEnd);
    const all = inst.rss.map((s) => s.kb);
    rssRows.push([inst.name + (warming ? ' (warming)' : ''), String(inst.generation), mb(all[0] ?? NaN), mb(Math.max(...all)), mb(f.medianKb), `${fixed(f.growthKb / 1024, 1)} MB`, warming ? 'not judged' : `${fixed(f.toleranceKb / 1024, 1)} MB`, warming ? 'warming up' : f.flat ? 'flat' : 'GROWING']);
    // A process still warming up is printed above, not judged (see WARM_AFTER_MS).
    if (!warming) checks.push({
      name: `instance ${inst.name}: RSS flat over the last ${windowMs / 1000} s`,
      pass: f.flat,
      detail:
        `fitted growth ${fixed(f.growthKb / 1024, 1)} MB over ${f.samples} samples (tolerance ${fixed(f.toleranceKb / 1024, 1)} MB: ` +
        `${RSS_TOLERANCE_FRACTION * 100} % of the median ${mb(f.medianKb)}, at least ${RSS_TOLERANCE_MIN_KB / 1024} MB)`,
    });
  }

  // Report.
  const latencyRows: string[][] = [];
  for (const [kind, list] of [...traffic.recorded.latencies].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = Float64Array.from(list).sort();
    const v = verdicts.get(kind) ?? new Map<Verdict, number>();
    latencyRows.push([
      kind, String([...v.values()].reduce((a, b) => a + b, 0)), String(v.get('ok') ?? 0), String(v.get('allowed 429') ?? 0), String(v.get('allowed 503') ?? 0),
      String(v.get('cut by kill -9') ?? 0), String(v.get('failed') ?? 0), fixed(percentile(sorted, 50)), fixed(percentile(sorted, 99)), fixed(sorted.at(-1) ?? NaN),
    ]);
  }
  const faultRows = faults.map((f) => [
    f.fault === 'kill'
      ? `kill -9 ${cluster!.instances[f.instance!]?.name}, restart`
      : f.fault === 'postgres'
        ? 'PostgreSQL restart'
        : f.fault === 'partition'
          ? `${cluster!.instances[f.instance!]?.name} cut off from Redis`
          : 'Redis stopped',
    `+${((f.from - trafficStart) / 1000).toFixed(1)} s`,
    `${((f.to - f.from) / 1000).toFixed(1)} s`,
  ]);
  console.log('');
  console.log(`soak: ${DURATION_S} s, ${CLIENTS} clients, ${INSTANCES} instances, ${subscribers.length} subscribers, ${endpoints.length} webhook receivers; drain ${fixed(drainMs / 1000, 1)} s; wall ${fixed((Date.now() - t0) / 1000, 1)} s`);
  console.log('');
  console.log(table(['fault', 'at', 'lasted'], faultRows, [false, true, true]));
  console.log(`(503 allowed from PostgreSQL's stop until ${POSTGRES_GRACE_MS / 1000} s after it answers again; 429 only once a client's own count shows its budget spent)`);
  console.log('');
  console.log(table(['traffic', 'requests', 'ok', '429', '503', 'cut by kill', 'failed', 'p50 ms', 'p99 ms', 'max ms'], latencyRows, [false, true, true, true, true, true, true, true, true, true]));
  console.log(`(${traffic.recorded.failovers} requests refused a connection by a down instance went to the other one)`);
  console.log('');
  console.log(table(['subscriber', 'received', 'missing', 'duplicates', 'out of order', 'resumes', 'drops'], subscriberRows, [false, true, true, true, true, true, false]));
  console.log('');
  console.log(table(['receiver', 'expected', 'received', 'missing', 'duplicates', 'requests', '500 on purpose', 'deliveries in the database'], receiverRows, [false, true, true, true, true, true, true, false]));
  if (missingDeliveries.length) console.log(`(traffic ended at +${fixed((trafficEnd - trafficStart) / 1000, 1)} s; missing deliveries:)\n  ${missingDeliveries.join('\n  ')}`);
  console.log('');
  console.log(table(['instance', 'starts', 'rss first', 'rss peak', `median (last ${windowMs / 1000} s)`, 'fitted growth', 'tolerance', 'verdict'], rssRows, [false, true, true, true, true, true, true, false]));
  const stride = Math.max(1_000, Math.round((DURATION_S * 1000) / 20));
  for (const inst of cluster.instances) {
    const series: string[] = [];
    for (let t = trafficStart; t <= trafficEnd; t += stride) {
      const s = inst.rss.find((x) => x.at >= t);
      series.push(s && s.at < t + stride ? (s.kb / 1024).toFixed(0) : '-');
    }
    console.log(`rss of ${inst.name}, MB every ${stride / 1000} s of traffic: ${series.join(' ')}`);
  }
  console.log('');
  for (const inst of cluster.instances) {
    for (const [key, { level, count, sample, firstAt }] of inst.errors) {
      const msg = key.slice(level.length + 1);
      console.log(`instance ${inst.name}: ${count} × ${level} log "${msg}" (first at +${fixed((firstAt - trafficStart) / 1000, 1)} s)${/unexpected|relay/.test(msg) ? `\n  first: ${sample}` : ''}`);
    }
  }
  for (const c of cluster.crashes) console.log(`\n${c.instance} crashed at +${((c.at - trafficStart) / 1000).toFixed(1)} s; its last output:\n${c.detail}`);
  console.log('');
  for (const c of checks) console.log(`${c.pass ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`);
  const failed = checks.filter((c) => !c.pass);
  console.log('');
  console.log(failed.length ? `soak FAILED: ${failed.length} of ${checks.length} checks` : `soak passed: ${checks.length} checks`);
  return failed.length ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.error(`soak: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  code = 1;
} finally {
  await cleanup();
}
process.exit(code);
