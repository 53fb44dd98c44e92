// Mixed traffic from N concurrent clients, each a loop of requests with a little think time, all
// through one small balancer (a refused connection sends the request to the other instance, as a
// load balancer's health check would; a request already sent is never replayed). Every result is
// judged at the end (checks.ts); here it is recorded: latencies per kind, counts per verdict, and
// the acknowledgements the database must bear out (page views answered 202, lessons published).
import { BudgetTracker, type Budget, type RequestResult } from './checks.js';
import type { Cluster, Instance } from './cluster.js';
import { idempotentWriter, type IdempotentWrites, type Send } from './idempotent-writer.js';

const REQUEST_TIMEOUT_MS = 30_000;
/** While every instance refuses connections, how long a request keeps looking for one. */
const NO_INSTANCE_MS = 15_000;

export type Kind = 'REST read' | 'REST write' | 'lesson publish' | 'page view' | 'GraphQL query' | 'GraphQL mutation' | 'register' | 'REST read (over budget)' | 'idempotent write';

export interface Tokens {
  /** ada@example.com: ADMIN (lesson writes), PRO. */
  admin: string;
  /** alan@example.com: MEMBER, ENTERPRISE (unlimited). */
  member: string;
}

export interface TrafficOptions {
  cluster: Cluster;
  tokens: Tokens;
  clients: number;
  /** The anonymous (Free) budget per address: what a greedy client runs into. */
  freeLimit: number;
  windowMs: number;
  /** Known ids to read. */
  userIds: string[];
  lessonIds: string[];
  /** An event id to list after. */
  eventId: string;
}

export interface Spec {
  kind: Kind;
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: unknown;
  token?: string;
  /** More request headers (an Idempotency-Key). */
  headers?: Record<string, string>;
  /** Checks the parsed body of a success (default: any). */
  expect?(body: unknown, status: number): boolean;
  /** See RequestResult.idempotentResend. */
  idempotentResend?: boolean;
}

export interface Recorded {
  /** Successes, by kind (only their count and latency are kept). */
  ok: Map<Kind, number>;
  /** Every other result, judged at the end against the faults' windows (checks.ts). */
  results: RequestResult[];
  /** Latencies (ms) of every request that got an answer, by kind. */
  latencies: Map<Kind, number[]>;
  /** Requests that were sent again to the other instance after a refused connection. */
  failovers: number;
  pageViews: Set<string>;
  published: Set<string>;
  /** What the idempotent writer sent and what came back (idempotent-writer.ts). */
  idempotent: IdempotentWrites;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const rand = (min: number, max: number) => min + Math.random() * (max - min);
const pickOne = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

type Json = Record<string, unknown>;
const hasId = (b: unknown) => typeof (b as Json | undefined)?.id === 'string';

export function startTraffic(o: TrafficOptions): { recorded: Recorded; stop(): Promise<void> } {
  const recorded: Recorded = {
    ok: new Map(), results: [], latencies: new Map(), failovers: 0, pageViews: new Set(), published: new Set(),
    idempotent: { keys: new Map(), replays: 0, replayMismatches: [] },
  };
  let running = true;
  let sequence = 0;
  const unique = () => `${Date.now().toString(36)}-${(sequence++).toString(36)}`;

  /** Sends one request (failing over on a refused connection) and records what came back. */
  async function send(spec: Spec, home: number, budget: Budget, address: string, tracker?: BudgetTracker): ReturnType<Send> {
    const headers: Record<string, string> = { 'x-forwarded-for': address, ...spec.headers };
    if (spec.token) headers.authorization = `Bearer ${spec.token}`;
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    const lookingSince = Date.now();
    for (;;) {
      const inst: Instance = o.cluster.pick(home);
      const start = Date.now();
      let response: Response;
      try {
        response = await fetch(inst.url + spec.path, {
          method: spec.method,
          headers,
          body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch (error) {
        const code = transportCode(error);
        if (code === 'ECONNREFUSED' && Date.now() - lookingSince < NO_INSTANCE_MS) {
          // Nothing was sent: another instance takes it.
          o.cluster.markDown(inst);
          recorded.failovers++;
          await sleep(50);
          continue;
        }
        const end = Date.now();
        const result: RequestResult = { kind: spec.kind, budget, instance: inst.index, start, end, status: 0, transportError: code };
        recorded.results.push(result);
        tracker?.record(result);
        return { status: 0, body: undefined, text: '', headers: new Headers() };
      }
      let text = '';
      try {
        text = await response.text();
      } catch (error) {
        const result: RequestResult = { kind: spec.kind, budget, instance: inst.index, start, end: Date.now(), status: 0, transportError: transportCode(error) };
        recorded.results.push(result);
        return { status: 0, body: undefined, text: '', headers: new Headers() };
      }
      const end = Date.now();
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      const errors = (body as { errors?: { extensions?: { code?: string } }[] } | undefined)?.errors;
      const result: RequestResult = {
        kind: spec.kind,
        budget,
        instance: inst.index,
        start,
        end,
        status: response.status,
        hasRetryAfter: response.headers.has('retry-after'),
        bodyCode: typeof (body as Json | undefined)?.code === 'number' ? ((body as Json).code as number) : undefined,
        graphqlCodes: Array.isArray(errors) ? errors.map((e) => e.extensions?.code ?? 'NO_CODE') : undefined,
        idempotentResend: spec.idempotentResend,
      };
      if (response.status === 429) result.budgetSpent = tracker?.spent(start) ?? false;
      if (response.ok && !result.graphqlCodes && spec.expect) result.wellFormed = spec.expect(body, response.status);
      tracker?.record(result);
      const plain = response.status >= 200 && response.status < 400 && !result.graphqlCodes && result.wellFormed !== false;
      if (plain) recorded.ok.set(spec.kind, (recorded.ok.get(spec.kind) ?? 0) + 1);
      else recorded.results.push(result);
      let list = recorded.latencies.get(spec.kind);
      if (!list) recorded.latencies.set(spec.kind, (list = []));
      list.push(end - start);
      return { status: response.status, body, text, headers: response.headers };
    }
  }

  const q = (query: string, variables?: Json) => ({ query, variables });
  const gqlOk = (field: string) => (b: unknown) => Boolean((b as { data?: Json } | undefined)?.data?.[field]);

  // One loop per client class; each client has its own address (X-Forwarded-For, TRUST_PROXY).
  type Loop = (home: number, address: string) => Promise<void>;

  const restReader: Loop = async (home, address) => {
    const token = o.tokens.member;
    const reads: (() => Spec)[] = [
      () => ({ kind: 'REST read', method: 'GET', path: '/api/v1/user/me', token, expect: hasId }),
      () => ({ kind: 'REST read', method: 'GET', path: '/api/v1/lessons?limit=10', token, expect: (b) => Array.isArray((b as Json).items) }),
      () => ({ kind: 'REST read', method: 'GET', path: `/api/v1/lessons?id=${pickOne(o.lessonIds)}`, token, expect: hasId }),
      () => ({ kind: 'REST read', method: 'GET', path: `/api/users/${pickOne(o.userIds)}`, token, expect: hasId }),
      () => ({ kind: 'REST read', method: 'GET', path: '/api/content/docs', token, expect: (b) => Array.isArray(b) }),
      () => ({ kind: 'REST read', method: 'GET', path: `/api/v1/events?after=${o.eventId}&limit=20`, token, expect: (b) => Array.isArray((b as Json).items) }),
      () => ({ kind: 'REST read', method: 'GET', path: '/api/analytics/views', token, expect: (b) => typeof (b as Json).total === 'number' }),
    ];
    while (running) {
      await send(pickOne(reads)(), home, 'unlimited', address);
      await sleep(rand(100, 300));
    }
  };

  const graphqlReader: Loop = async (home, address) => {
    const token = o.tokens.member;
    const reads: (() => Spec)[] = [
      () => ({ kind: 'GraphQL query', method: 'POST', path: '/graphql', token, body: q('{ me { id name } }'), expect: gqlOk('me') }),
      () => ({
        kind: 'GraphQL query', method: 'POST', path: '/graphql', token,
        body: q('{ lessons(first: 5) { edges { node { id title author { id name lessons(first: 2) { edges { node { id } } } } } } } }'),
        expect: gqlOk('lessons'),
      }),
      () => ({ kind: 'GraphQL query', method: 'POST', path: '/graphql', token, body: q('query($id: ID!) { lesson(id: $id) { id title } }', { id: pickOne(o.lessonIds) }), expect: gqlOk('lesson') }),
      () => ({ kind: 'GraphQL query', method: 'GET', path: `/graphql?query=${encodeURIComponent('{ docs { id slug title } }')}`, token, expect: gqlOk('docs') }),
      () => ({ kind: 'GraphQL query', method: 'POST', path: '/graphql', token, body: q('{ events(first: 10) { edges { node { id event } } } }'), expect: gqlOk('events') }),
    ];
    while (running) {
      await send(pickOne(reads)(), home, 'unlimited', address);
      await sleep(rand(100, 300));
    }
  };

  /** Anonymous page views, paced under both the Free budget and the page-view limit of an address. */
  const pageViewer: Loop = async (home, address) => {
    while (running) {
      const started = Date.now();
      const path = `/soak/view/${unique()}`;
      const { status } = await send({ kind: 'page view', method: 'POST', path: '/api/analytics/views', body: { path } }, home, 'paced', address);
      if (status === 202) recorded.pageViews.add(path);
      await sleep(Math.max(0, 800 - (Date.now() - started)) + rand(0, 200));
    }
  };

  /** Anonymous reads, paced under the Free budget: a 429 here is never earned. */
  const anonymousReader: Loop = async (home, address) => {
    const reads: (() => Spec)[] = [
      () => ({ kind: 'REST read', method: 'GET', path: `/api/users/${pickOne(o.userIds)}`, expect: hasId }),
      () => ({ kind: 'REST read', method: 'GET', path: '/api/content/docs', expect: (b) => Array.isArray(b) }),
      () => ({ kind: 'REST read', method: 'GET', path: '/api/analytics/views?path=/soak', expect: (b) => typeof (b as Json).total === 'number' }),
      () => ({ kind: 'GraphQL query', method: 'POST', path: '/graphql', body: q('query($id: ID!) { user(id: $id) { id name } }', { id: pickOne(o.userIds) }), expect: gqlOk('user') }),
    ];
    while (running) {
      const started = Date.now();
      await send(pickOne(reads)(), home, 'paced', address);
      await sleep(Math.max(0, 900 - (Date.now() - started)) + rand(0, 200));
    }
  };

  /** An anonymous client that asks faster than the Free budget allows: its 429s are earned. */
  const greedy: Loop = async (home, address) => {
    const tracker = new BudgetTracker(o.freeLimit, o.windowMs);
    while (running) {
      await send({ kind: 'REST read (over budget)', method: 'GET', path: `/api/users/${pickOne(o.userIds)}`, expect: hasId }, home, 'greedy', address, tracker);
      await sleep(rand(20, 60));
    }
  };

  /** ADMIN writes over REST: draft → edit → publish, and the profile. */
  const restWriter: Loop = async (home, address) => {
    const token = o.tokens.admin;
    while (running) {
      if (Math.random() < 0.3) {
        await send({ kind: 'REST write', method: 'PATCH', path: '/api/v1/user/me', token, body: { name: `Ada ${unique()}` }, expect: hasId }, home, 'unlimited', address);
      } else {
        const created = await send(
          { kind: 'REST write', method: 'POST', path: '/api/v1/lessons', token, body: { title: `Soak ${unique()}`, body: 'A lesson written by the soak.' }, expect: hasId },
          home, 'unlimited', address,
        );
        const id = created.status === 201 ? ((created.body as Json).id as string) : undefined;
        if (id && running) {
          await sleep(rand(50, 150));
          await send({ kind: 'REST write', method: 'PATCH', path: `/api/v1/lessons?id=${id}`, token, body: { summary: 'Edited by the soak.' }, expect: hasId }, home, 'unlimited', address);
          await sleep(rand(50, 150));
          const published = await send(
            { kind: 'lesson publish', method: 'POST', path: `/api/v1/lessons/publish?id=${id}`, token, expect: (b) => (b as Json).status === 'PUBLISHED' },
            home, 'unlimited', address,
          );
          if (published.status === 200) recorded.published.add(id);
        }
      }
      await sleep(rand(150, 450));
    }
  };

  /** ADMIN writes over GraphQL. */
  const graphqlWriter: Loop = async (home, address) => {
    const token = o.tokens.admin;
    while (running) {
      const r = Math.random();
      if (r < 0.3) {
        await send({ kind: 'GraphQL mutation', method: 'POST', path: '/graphql', token, body: q('mutation($n: String!) { updateMe(name: $n) { id } }', { n: `Ada ${unique()}` }), expect: gqlOk('updateMe') }, home, 'unlimited', address);
      } else if (r < 0.5) {
        const path = `/soak/gql-view/${unique()}`;
        const { status, body } = await send(
          { kind: 'GraphQL mutation', method: 'POST', path: '/graphql', token, body: q('mutation($p: String!) { recordPageView(path: $p) }', { p: path }), expect: gqlOk('recordPageView') },
          home, 'unlimited', address,
        );
        if (status === 200 && (body as { data?: Json } | undefined)?.data?.recordPageView) recorded.pageViews.add(path);
      } else {
        const created = await send(
          {
            kind: 'GraphQL mutation', method: 'POST', path: '/graphql', token,
            body: q('mutation($t: String!) { createLesson(input: { title: $t, body: "GraphQL soak lesson." }) { id } }', { t: `Soak GraphQL ${unique()}` }),
            expect: gqlOk('createLesson'),
          },
          home, 'unlimited', address,
        );
        const id = ((created.body as { data?: { createLesson?: { id?: string } } } | undefined)?.data?.createLesson?.id);
        if (id && running) {
          await sleep(rand(50, 150));
          const published = await send(
            { kind: 'lesson publish', method: 'POST', path: '/graphql', token, body: q('mutation($id: ID!) { publishLesson(id: $id) { id status } }', { id }), expect: gqlOk('publishLesson') },
            home, 'unlimited', address,
          );
          const status = (published.body as { data?: { publishLesson?: { status?: string } } } | undefined)?.data?.publishLesson?.status;
          if (status === 'PUBLISHED') recorded.published.add(id);
        }
      }
      await sleep(rand(150, 450));
    }
  };

  /** New accounts (user.created), slowly: each costs a password hash. */
  const registrar: Loop = async (home, address) => {
    while (running) {
      const n = unique();
      await send(
        { kind: 'register', method: 'POST', path: '/api/auth/register', body: { email: `soak-${n}@example.com`, password: `soak-password-${n}`, name: `Soak ${n}` }, expect: (b) => typeof (b as Json).token === 'string' },
        home, 'paced', address,
      );
      await sleep(rand(2_000, 4_000));
    }
  };

  // The mix, in shares of the clients (the rest are REST readers).
  const mix: [Loop, number][] = [
    [graphqlReader, 0.15],
    [pageViewer, 0.2],
    [anonymousReader, 0.1],
    [greedy, 0.02],
    [restWriter, 0.15],
    [graphqlWriter, 0.1],
    [registrar, 0.01],
    [(home, address) => idempotentWriter({ send: (spec) => send(spec, home, 'unlimited', address), token: o.tokens.admin, unique, running: () => running, record: recorded.idempotent }), 0.03],
  ];
  const loops: Loop[] = [];
  for (const [loop, share] of mix) for (let i = 0; i < Math.max(1, Math.round(share * o.clients)); i++) loops.push(loop);
  while (loops.length < o.clients) loops.push(restReader);
  const running$ = loops.slice(0, o.clients).map((loop, i) =>
    loop(i, `10.77.${Math.floor(i / 250)}.${(i % 250) + 1}`).catch((error: unknown) => {
      console.error(`client ${i} crashed: ${String(error)}`);
    }),
  );
  return {
    recorded,
    async stop() {
      running = false;
      await Promise.all(running$);
    },
  };
}

/** The code of a fetch failure (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET, TimeoutError…). */
function transportCode(error: unknown): string {
  const e = error as { name?: string; code?: string; cause?: { code?: string; name?: string; message?: string } };
  return e.cause?.code ?? e.code ?? (e.name === 'TimeoutError' ? 'TimeoutError' : e.cause?.name ?? e.name ?? 'unknown');
}
