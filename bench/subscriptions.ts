// The live-events scenario of `npm run bench` (run.ts calls it after the request scenarios):
// many SSE subscribers on one service instance, then events committed through the REST API, and
// per subscriber the latency from the event's `timestamp` (taken in the committing transaction,
// before COMMIT) to its receipt here. Goal: p99 < 500 ms.
//
// The subscribers are raw HTTP/1.1 requests from this process (POST /graphql with
// `accept: text/event-stream`, Yoga's distinct-connections SSE), each on its own socket of a
// keep-alive agent. Both processes need a file descriptor per subscriber: the limits are read from
// /proc and reported, and the subscriber count is capped (and the cap reported) when they are short.
//
// Environment: BENCH_SUBSCRIPTIONS (0: skip this scenario; default 1), BENCH_SUBSCRIBERS (default
// 10000), BENCH_SUB_EVENTS (events committed, default 20), BENCH_SUB_GAP_MS (pause between two
// commits, default 100).
import { readFile } from 'node:fs/promises';
import { Agent, request, type ClientRequest } from 'node:http';
import { fixed, mb, table } from './lib/report.js';
import { readSse } from './lib/sse.js';
import { readStats, type Sampler } from './lib/proc.js';

const QUERY = 'subscription { events { id event timestamp path } }';
const MEASURED = '/bench/event/';
const P99_GOAL_MS = 500;
/** Opened at once; more would only queue at the service. */
const OPEN_CONCURRENCY = 250;
const OPEN_DEADLINE_MS = 120_000;
const DELIVERY_DEADLINE_MS = 60_000;

export interface SubscriptionsBenchOptions {
  serviceUrl: string;
  servicePid: number;
  sampler: Sampler;
  token: string;
  subscribers: number;
  events: number;
  gapMs: number;
  progress(message: string): void;
  /** Starts a CPU profile of the service (BENCH_PROFILE); the function it returns stops it. */
  profile?: () => () => Promise<string>;
}

interface Subscriber {
  req: ClientRequest;
  /** Event id → receive time (ms since the epoch), the event's timestamp and path. */
  received: Map<string, { at: number; timestamp: string; path: string }>;
  status?: number;
  error?: string;
}

/** The soft "Max open files" of a process, from /proc (undefined elsewhere). */
async function openFilesLimit(pid: number | 'self'): Promise<number | undefined> {
  try {
    const limits = await readFile(`/proc/${pid}/limits`, 'utf8');
    const soft = /^Max open files\s+(\S+)/m.exec(limits)?.[1];
    return soft === 'unlimited' ? Infinity : soft ? Number(soft) : undefined;
  } catch {
    return undefined;
  }
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function openSubscriber(url: URL, token: string, agent: Agent): { sub: Subscriber; ready: Promise<void> } {
  const body = JSON.stringify({ query: QUERY });
  const sub = { received: new Map() } as Subscriber;
  const ready = new Promise<void>((resolve) => {
    sub.req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          accept: 'text/event-stream',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        sub.status = res.statusCode;
        resolve();
        readSse(res, (_event, data) => {
          if (!data) return; // the complete event
          const at = Date.now();
          const parsed = JSON.parse(data) as { data?: { events?: { id: string; timestamp: string; path: string } }; errors?: unknown[] };
          const e = parsed.data?.events;
          if (e) sub.received.set(e.id, { at, timestamp: e.timestamp, path: e.path });
          else if (parsed.errors) sub.error = JSON.stringify(parsed.errors).slice(0, 200);
        });
      },
    );
    sub.req.on('error', (error) => {
      sub.error ??= error.message;
      resolve();
    });
    sub.req.end(body);
  });
  return { sub, ready };
}

async function recordView(serviceUrl: string, path: string): Promise<void> {
  const res = await fetch(`${serviceUrl}/api/analytics/views`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path }),
  });
  await res.arrayBuffer();
  if (res.status !== 202) throw new Error(`POST /api/analytics/views: HTTP ${res.status}`);
}

export interface SubscriptionsBenchResult {
  /** The report section: a table, notes and a PASS/MISS line. */
  text: string;
  json: Record<string, unknown>;
}

/** Runs the scenario and returns its report section and figures. */
export async function runSubscriptionsBench(o: SubscriptionsBenchOptions): Promise<SubscriptionsBenchResult> {
  const notes: string[] = [];
  const ownLimit = await openFilesLimit('self');
  const serviceLimit = await openFilesLimit(o.servicePid);
  // Headroom for the database pool, listeners, log files and the loader's own sockets.
  const fit = Math.min(ownLimit ?? Infinity, serviceLimit ?? Infinity) - 200;
  let subscribers = o.subscribers;
  if (fit < subscribers) {
    subscribers = Math.max(1, fit);
    notes.push(`file descriptors limit the subscribers to ${subscribers} (asked ${o.subscribers}; raise \`ulimit -n\`)`);
  }
  notes.push(`open files limit: bench ${ownLimit ?? 'n/a'}, service ${serviceLimit ?? 'n/a'}`);

  const url = new URL('/graphql', o.serviceUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const subs: Subscriber[] = [];
  const idleRss = (await o.sampler.sample())?.rssKb ?? NaN;
  o.sampler.resetWindow();
  try {
    o.progress(`subscriptions: opening ${subscribers} SSE subscriptions`);
    // BENCH_PROFILE_SSE_PHASE=open profiles opening the subscriptions instead of the fan-out.
    const profilingOpen = process.env.BENCH_PROFILE_SSE_PHASE === 'open';
    const openProfile = profilingOpen ? o.profile?.() : undefined;
    const openStarted = Date.now();
    for (let i = 0; i < subscribers; i += OPEN_CONCURRENCY) {
      const batch = Array.from({ length: Math.min(OPEN_CONCURRENCY, subscribers - i) }, () => openSubscriber(url, o.token, agent));
      subs.push(...batch.map((b) => b.sub));
      await Promise.race([Promise.all(batch.map((b) => b.ready)), sleep(OPEN_DEADLINE_MS)]);
    }
    const openMs = Date.now() - openStarted;
    if (openProfile) o.progress(`subscriptions: profile of opening ${await openProfile()}`);
    const failed = subs.filter((s) => s.status !== 200 || s.error);
    if (failed.length) notes.push(`${failed.length} subscriptions failed to open (first: ${failed[0]!.error ?? `HTTP ${failed[0]!.status}`})`);
    const open = subs.filter((s) => s.status === 200 && !s.error);

    // Every stream is live once it has received a probe committed after it opened.
    o.progress(`subscriptions: ${open.length} open after ${(openMs / 1000).toFixed(1)} s; probing`);
    const probeDeadline = Date.now() + DELIVERY_DEADLINE_MS;
    const probes = new Set<string>();
    const hasProbe = (s: Subscriber) => s.received.size > 0;
    while (!open.every(hasProbe) && Date.now() < probeDeadline) {
      const path = `/bench/probe/${probes.size}`;
      probes.add(path);
      await recordView(o.serviceUrl, path);
      await sleep(500);
    }
    const live = open.filter(hasProbe);
    if (live.length < open.length) notes.push(`${open.length - live.length} open subscriptions never received a probe`);
    const openRss = (await o.sampler.sample())?.rssKb ?? NaN;

    // The measured events: committed one after the other through the API.
    o.progress(`subscriptions: committing ${o.events} events to ${live.length} subscribers`);
    const profiled = profilingOpen ? undefined : o.profile?.();
    const cpuBefore = await readStats(o.servicePid);
    const committing = performance.now();
    for (let i = 0; i < o.events; i++) {
      await recordView(o.serviceUrl, `${MEASURED}${i}`);
      if (o.gapMs) await sleep(o.gapMs);
    }
    const commitSeconds = (performance.now() - committing) / 1000;
    const deliveryDeadline = Date.now() + DELIVERY_DEADLINE_MS;
    const measured = (s: Subscriber) => [...s.received.values()].filter((r) => r.path.startsWith(MEASURED));
    while (live.some((s) => measured(s).length < o.events) && Date.now() < deliveryDeadline) await sleep(100);
    const cpuAfter = await readStats(o.servicePid);
    if (profiled) o.progress(`subscriptions: profile ${await profiled()}`);

    const latencies: number[] = [];
    let missing = 0;
    for (const s of live) {
      const mine = measured(s);
      for (const r of mine) latencies.push(r.at - Date.parse(r.timestamp));
      missing += Math.max(0, o.events - mine.length);
    }
    latencies.sort((a, b) => a - b);
    const peakRss = o.sampler.windowPeakKb;
    const perSubscriberKb = (openRss - idleRss) / live.length;
    const peakPerSubscriberKb = (peakRss - idleRss) / live.length;
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    // The service's CPU from the first commit until the last receipt (or the deadline), per frame.
    const cpuPerDelivery = cpuBefore && cpuAfter ? ((cpuAfter.cpuSeconds - cpuBefore.cpuSeconds) * 1e6) / latencies.length : NaN;
    const rows = [
      ['subscribers (live / asked)', `${live.length} / ${o.subscribers}`],
      ['time to open them', `${fixed(openMs / 1000, 1)} s`],
      ['events committed (first request → last answered)', `${o.events} in ${fixed(commitSeconds, 1)} s`],
      ['deliveries measured (missing)', `${latencies.length} (${missing})`],
      ['latency p50', `${fixed(p50)} ms`],
      ['latency p99', `${fixed(p99)} ms`],
      ['latency max', `${fixed(latencies.at(-1) ?? NaN)} ms`],
      ['service CPU per delivery (first commit → last receipt)', `${fixed(cpuPerDelivery, 1)} µs`],
      ['service rss before / all open / peak', `${mb(idleRss)} / ${mb(openRss)} / ${mb(peakRss)}`],
      ['memory per subscriber (rss all open − before) / live', `${fixed(perSubscriberKb, 1)} KB`],
      ['memory per subscriber (peak rss − before) / live', `${fixed(peakPerSubscriberKb, 1)} KB`],
    ];
    const ok = missing === 0 && live.length === o.subscribers && p99 < P99_GOAL_MS;
    const verdict =
      `${ok ? 'PASS' : 'MISS'}  SSE subscriptions: p99 ${fixed(p99)} ms event timestamp → receipt over ${live.length} subscribers` +
      ` (goal < ${P99_GOAL_MS} ms${missing ? `, ${missing} deliveries missing` : ''}${live.length < o.subscribers ? `, only ${live.length} of ${o.subscribers} subscribers` : ''})`;
    const text = [
      `SSE subscriptions (${o.events} events, ${o.gapMs} ms apart; latency = receipt here − the event's timestamp, taken before its commit)`,
      table(['measure', 'value'], rows, [false, true]),
      ...notes.map((n) => `note: ${n}`),
      '',
      verdict,
    ].join('\n');
    const json = {
      subscribers: o.subscribers,
      live: live.length,
      events: o.events,
      gapMs: o.gapMs,
      deliveries: latencies.length,
      missing,
      p50,
      p99,
      max: latencies.at(-1),
      cpuPerDeliveryUs: cpuPerDelivery,
      openSeconds: openMs / 1000,
      rssKb: { before: idleRss, allOpen: openRss, peak: peakRss },
      perSubscriberKb: { allOpen: perSubscriberKb, peak: peakPerSubscriberKb },
      notes,
      pass: ok,
    };
    return { text, json };
  } finally {
    for (const s of subs) s.req.destroy();
    agent.destroy();
  }
}
