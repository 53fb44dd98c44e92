// One request path measured in one process, without sockets: the service's Yoga server (built by
// src/server.ts's buildService, on a fresh PostgreSQL database) or bare Yoga doing the same lookup,
// called through `yoga.fetch` with a server context shaped as the node server's. What sockets and
// a load generator on the same cores blur, this isolates: CPU per request, or a profile of it.
//
//   npx tsx bench/in-process.ts <variant> [cpu | cpu-profile | heap | heap-promoted]
//
// One variant per process, on purpose: a variant whose garbage reaches the old generation slows
// every variant run after it in the same heap. `cpu` prints the CPU per request of each of five
// rounds (the best is the figure to compare; alternate A and B runs); `cpu-profile` writes
// in-process.cpuprofile, `heap` in-process.heapprofile (every allocation, sampled) and
// `heap-promoted` the same of only what outlived the young generation, in the current directory,
// for bench/profile-summary.ts. The heap modes also print the sampled bytes a request: on a
// shared machine whose CPU time varies by a third from run to run, they move only with the code.
// Knobs: IN_PROCESS_REQUESTS (per round, default 20,000), IN_PROCESS_CONCURRENCY (default 20),
// IN_PROCESS_ROUNDS (cpu mode, default 5), IN_PROCESS_BETWEEN (cpu mode: variants, comma-separated,
// run unmeasured for as many requests between rounds, as the bench's other scenarios run between
// a scenario's rounds in its one service process), IN_PROCESS_WORKERS (1: run the instance's
// workers as startServer does, woken as it wakes them, so that a write's events are positioned and
// published within the measured CPU; default 1 for `view`, whose relay work is part of a view's
// cost, 0 for the others).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { loadConfig } from '../src/config.js';
import { createPgPool } from '../src/db/pg-pool.js';
import { DEMO_ACCOUNTS } from '../src/db/seed.js';
import { createLogger } from '../src/logger.js';
import { buildService } from '../src/server.js';
import { createWorkers } from '../src/workers.js';
import { createApiKey, signIn, type ServiceFetch } from './lib/accounts.js';
import { bareYoga, plainLookups } from './lib/bare-lookups.js';
import { sampledBytes, type HeapProfileNode } from './lib/heap-profile.js';
import { createDatabase } from './lib/database.js';

const USER_QUERY = 'query($id: ID!){ user(id: $id) { id name joined } }';
const [variantName, mode = 'cpu'] = process.argv.slice(2);
const requests = Number(process.env.IN_PROCESS_REQUESTS ?? 20_000);
const concurrency = Number(process.env.IN_PROCESS_CONCURRENCY ?? 20);
const cpuRounds = Number(process.env.IN_PROCESS_ROUNDS ?? 5);

const database = await createDatabase();
const config = loadConfig({
  NODE_ENV: 'development',
  HOST: '127.0.0.1',
  PORT: '0',
  DATABASE_URL: database.url,
  DATA_DIR: '/nonexistent',
  LOG_LEVEL: 'warn',
  // Counted on every request, never refused (as in bench/run.ts).
  RATE_LIMIT_FREE: '10000000',
  RATE_LIMIT_PRO: '10000000',
  RATE_LIMIT_WINDOW_S: '1',
  RATE_LIMIT_PAGE_VIEWS: '100000000/1m',
  // REDIS_URL=redis://… counts on Redis (the rate-limit bench's second store) instead of in-process.
  ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
});
// The service as startServer builds it (migrated and seeded), without its HTTP server and workers.
const service = await buildService(config, { log: createLogger('warn'), migrateInProcess: true });
const { yoga, db } = service;
// The instance's background work, as startServer starts and wakes it (src/server.ts).
const workers = process.env.IN_PROCESS_WORKERS === '1' || (process.env.IN_PROCESS_WORKERS !== '0' && variantName === 'view')
  ? createWorkers({ db, bus: service.bus, config, log: service.log, metrics: service.metrics })
  : undefined;
if (workers) {
  for (const worker of workers.all) worker.start();
  service.wakers.relay = () => workers.relay.wake?.();
  service.wakers.dispatcher = (endpointId) => workers.dispatcher.attemptNow(endpointId);
}

// The node server hands Yoga {req, res, waitUntil} as one object. yoga.fetch with one context
// object would give each request an Object.create() of it (@whatwg-node's isolateObject), which
// makes GraphQL's context dearer than it is in the server; with two, it assigns them to a plain one.
// The node server also hands Yoga a request's body as it read it (`req.body`, src/server.ts),
// where the response cache answers a plain POST before Yoga parses it; IN_PROCESS_NODE_BODY=0
// leaves it out, so that every POST takes Yoga's way (what that early look costs a miss).
const nodeBody = process.env.IN_PROCESS_NODE_BODY !== '0';
const serverContext = (body: RequestInit['body']) =>
  [{ req: { headers: {}, socket: { remoteAddress: '127.0.0.1' }, ...(nodeBody && typeof body === 'string' ? { body, bodyNotUtf8: false } : {}) } }, { waitUntil: () => {} }] as const;
/** `target` (the service's Yoga or bare Yoga) asked for `path`, as the node server would hand it the request. */
const fetchPath = (target: { fetch: typeof yoga.fetch }, path: string, init: RequestInit = {}) =>
  target.fetch(`http://localhost${path}`, init, ...(serverContext(init.body) as unknown as [object]));
const call = async (target: { fetch: typeof yoga.fetch }, path: string, init?: RequestInit, status = 200) => {
  const response = await fetchPath(target, path, init);
  if (response.status !== status) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  await response.text();
};

const [{ id: userId }] = (await db.query<{ id: string }>('SELECT id FROM "User" WHERE email = $1', [DEMO_ACCOUNTS[0].email])) as [{ id: string }];
/** The service's routes through `yoga.fetch`, as bench/run.ts reaches them over HTTP. */
const routes: ServiceFetch = (path, init) => Promise.resolve(fetchPath(yoga, path, init));
const token = await signIn(routes, DEMO_ACCOUNTS[0]);
const enterprise = DEMO_ACCOUNTS.find((account) => account.tier === 'ENTERPRISE')!;
const keys = variantName?.startsWith('me-key')
  ? { counted: await createApiKey(routes, DEMO_ACCOUNTS[0], 'in-process'), uncounted: await createApiKey(routes, enterprise, 'in-process') }
  : undefined;

// Bare Yoga answering the same lookups (bench/lib/bare-lookups.ts, as the bench's diagnostics do),
// on a pool that survives the database being dropped under it at the end (as the service's does).
const pool = createPgPool(database.url, 20);
const bare = bareYoga('', plainLookups(pool));

const post = (query: string, variables?: object): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ query, variables }),
});
const variants: Record<string, () => Promise<void>> = {
  'bare-rest': () => call(bare, `/users/${userId}`),
  'bare-me': () => call(bare, '/me', { headers: { authorization: `Bearer ${token}` } }),
  'bare-hello': () => call(bare, '/graphql', post('{ hello }')),
  'bare-post': () => call(bare, '/graphql', post(USER_QUERY, { id: userId })),
  rest: () => call(yoga, `/api/users/${userId}`),
  me: () => call(yoga, '/api/v1/user/me', { headers: { authorization: `Bearer ${token}` } }),
  // bench/limits.ts's pair in one process: the same route by API key, counted (PRO) or not (Enterprise).
  'me-key': () => call(yoga, '/api/v1/user/me', { headers: { 'x-api-key': keys!.counted } }),
  'me-key-enterprise': () => call(yoga, '/api/v1/user/me', { headers: { 'x-api-key': keys!.uncounted } }),
  post: () => call(yoga, '/graphql', post(USER_QUERY, { id: userId })),
  // A POST the cache never answers (it depends on the caller): what the early look costs a miss.
  'post-me': () => call(yoga, '/graphql', { ...post('{ me { id name } }'), headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } }),
  'post-typename': () => call(yoga, '/graphql', post('{ __typename }')),
  'cached-get': () => call(yoga, `/graphql?query=${encodeURIComponent(USER_QUERY)}&variables=${encodeURIComponent(JSON.stringify({ id: userId }))}`),
  healthz: () => call(yoga, '/healthz'),
  // Recording a page view over REST (bench/analytics.ts's recording scenario, in one process).
  view: () => call(yoga, '/api/analytics/views', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"path":"/in-process"}' }, 202),
};
const variant = variantName && variants[variantName];
const betweenNames = (process.env.IN_PROCESS_BETWEEN ?? '').split(',').filter(Boolean);
const between = betweenNames.flatMap((name) => variants[name] ?? []);
if (!variant || !['cpu', 'cpu-profile', 'heap', 'heap-promoted'].includes(mode) || between.length < betweenNames.length) {
  process.stderr.write(`usage: tsx bench/in-process.ts <${Object.keys(variants).join(' | ')}> [cpu | cpu-profile | heap | heap-promoted]\n`);
  process.stderr.write('       IN_PROCESS_BETWEEN: variants of the list above, comma-separated\n');
  process.exitCode = 2;
} else {
  /** Runs `requests` requests, `concurrency` at a time; returns the process's CPU µs per request. */
  const round = async (of = variant): Promise<number> => {
    let started = 0;
    const before = process.cpuUsage();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (started++ < requests) await of();
      }),
    );
    const used = process.cpuUsage(before);
    return (used.user + used.system) / requests;
  };
  await round(); // warm-up
  if (mode === 'cpu') {
    const rounds: number[] = [];
    for (let i = 0; i < cpuRounds; i++) {
      if (i > 0) for (const other of between) await round(other);
      rounds.push(await round());
    }
    process.stdout.write(`${variantName}: best ${Math.min(...rounds).toFixed(1)} µs CPU a request (rounds: ${rounds.map((r) => r.toFixed(0)).join(', ')})\n`);
  } else {
    const session = new Session();
    session.connect();
    const send = (method: string, params?: object) =>
      new Promise<unknown>((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
    const heap = mode.startsWith('heap');
    const includeObjectsCollectedByMinorGC = mode === 'heap';
    if (heap) await send('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC });
    else {
      await send('Profiler.enable');
      await send('Profiler.setSamplingInterval', { interval: 100 });
      await send('Profiler.start');
    }
    const cpu = await round();
    const { profile } = (await send(heap ? 'HeapProfiler.stopSampling' : 'Profiler.stop')) as { profile: unknown };
    const file = heap ? 'in-process.heapprofile' : 'in-process.cpuprofile';
    writeFileSync(file, JSON.stringify(profile));
    const bytes = heap ? ` ${(sampledBytes((profile as { head: HeapProfileNode }).head) / requests / 1024).toFixed(1)} kB ${includeObjectsCollectedByMinorGC ? 'allocated' : 'promoted'} each (sampled),` : '';
    process.stdout.write(`${variantName}: ${requests} requests (${cpu.toFixed(1)} µs CPU each, profiler included),${bytes} in ${file}\n`);
  }
}
await Promise.all(workers?.all.map((worker) => worker.stop()) ?? []);
await pool.end();
await service.close();
await database.drop();
