// Generated hostile input, sent as the ADMIN: every REST operation of openapi.json and every GraphQL
// root field must refuse it (a 4xx in the contract's shape, never a masked error or an error log)
// and change nothing in the database; GraphQL also in every encoding and over every transport.
// FUZZ_RUNS sets the cases per operation; a failure prints the FUZZ_ONLY, FUZZ_SEED and FUZZ_PATH replaying it.
import fc from 'fast-check';
import { buildClientSchema, getIntrospectionQuery, type GraphQLField, type GraphQLInputType, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import pg from 'pg';
import { beforeAll, describe, expect } from 'vitest';
import { garbageAuthCase, garbageAuthorization, hostileRestCase, restOperations, type JsonSchema, type RestCase, type RestFixtures, type RestOperation } from './support/fuzz.js';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import {
  encodedGraphQLPost,
  fieldOperation,
  hostileDirectiveCase,
  hostileFieldCase,
  malformedGraphQLBody,
  malformedGraphQLGet,
  type GraphQLCase,
  type GraphQLFixtures,
} from './support/fuzz-graphql.js';
import { serverTest } from './support/fixtures.js';
import type { Client, Reply } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import type { TestServer } from './support/server.js';

/** Cases per operation, per GraphQL field and per property of the rest. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 8);
const SEED = process.env.FUZZ_SEED === undefined ? Date.now() ^ (Math.random() * 0x100000000) : Number(process.env.FUZZ_SEED);
const PATH = process.env.FUZZ_PATH;
/** One operation or field only (the label a failure names). */
const ONLY = process.env.FUZZ_ONLY;
const TIMEOUT = Math.max(120_000, RUNS * 4_000);

/** GraphQL root fields anyone may use (the REST routes without a token, as the contract lists them). */
const PUBLIC_FIELDS = new Set(['login', 'register', 'refreshToken', 'logout', 'user', 'docs', 'pageViews', 'recordPageView']);
/** No delivery exists (one would be attempted in the background, changing the database mid-run). */
const MISSING_DELIVERY = 'dlv_01kzzzzzzzzzzzzzzzzzzzzzzz';

const it = serverTest({ kind: 'postgres', env: NO_RATE_LIMITS });

// The fixture's server, client and Ada's token, and what the cases name, for the helpers below.
let server: TestServer;
let api: Client;
let db: pg.Client;
let token: string;
let fixtures: {
  userId: string; lessonId: string; webhookId: string; keyId: string; sessionId: string; refreshToken: string;
  /** A published lesson, in the published course: what a learner completes and a course may hold. */
  publishedLessonId: string;
  courseId: string;
};
const counts = { rest: 0, restAuth: 0, graphql: 0, graphqlAuth: 0, malformed: 0, transports: 0 };

it.beforeAll(async ({ server: started, api: itsClient, ada }) => {
  [server, api, token] = [started, itsClient, ada];
  // A second session of Ada's: the one the session routes name, and whose refresh token the auth routes get.
  const other = await api.loginAs('ada');
  const me = await api.get('/api/v1/user/me', { token });
  const lesson = await api.post('/api/v1/lessons', { title: 'Fuzz target', body: 'A draft the fuzz cases name.' }, { token });
  // Subscribed to an event no case causes (the fixtures below publish a lesson and a course): a
  // delivery would be attempted in the background, changing the database mid-run.
  const webhook = await api.post('/api/v1/webhooks', { url: 'http://127.0.0.1:9/fuzz', events: ['user.created'] }, { token });
  const key = await api.post('/api/v1/api-keys', { name: 'fuzz target' }, { token });
  const sessions = await api.get('/api/v1/sessions', { token });
  const session = (sessions.body.items as { id: string; current: boolean }[]).find((s) => !s.current);
  // A published course of one published lesson, which Ada is not enrolled in and has not completed:
  // with the one hostile part taken away, an enrolment or a completion would change the database.
  const published = await api.post('/api/v1/lessons', { title: 'Fuzz course lesson', body: 'A published lesson the fuzz cases name.' }, { token });
  const publish = await api.post(`/api/v1/lessons/publish?id=${published.body.id as string}`, undefined, { token });
  const course = await api.post('/api/v1/courses', { title: 'Fuzz course' }, { token });
  const lessons = await api.request('PUT', `/api/v1/courses/${course.body.id as string}/lessons`, { token, body: { lessonIds: [published.body.id] } });
  const courseOut = await api.post(`/api/v1/courses/${course.body.id as string}/publish`, undefined, { token });
  expect([me.status, lesson.status, webhook.status, key.status, sessions.status, published.status, publish.status, course.status, lessons.status, courseOut.status])
    .toEqual([200, 201, 201, 201, 200, 201, 200, 201, 200, 200]);
  fixtures = {
    userId: me.body.id, lessonId: lesson.body.id, webhookId: webhook.body.id, keyId: key.body.id, sessionId: session!.id, refreshToken: other.refreshToken,
    publishedLessonId: published.body.id, courseId: course.body.id,
  };
  db = new pg.Client({ connectionString: server.databaseUrl });
  await db.connect();
  console.log(`fuzz: FUZZ_RUNS=${RUNS} FUZZ_SEED=${SEED}${PATH ? ` FUZZ_PATH=${PATH}` : ''}`);
});

it.afterAll(async () => {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  console.log(`fuzz: ${total} hostile cases (REST ${counts.rest}, REST garbage credentials ${counts.restAuth}, GraphQL fields ${counts.graphql}, ` +
    `GraphQL garbage credentials ${counts.graphqlAuth}, malformed GraphQL requests ${counts.malformed}, GraphQL encodings and transports ${counts.transports}); ` +
    `FUZZ_RUNS=${RUNS} FUZZ_SEED=${SEED}`);
  await db?.end();
});

// ---------------------------------------------------------------------------------------------
// Nothing changes: every row of every table, compared after each case. Aside: what workers write on
// their own, whatever the requests: an event's `position` (the relay numbers committed events), the
// page-view fold's buckets and watermark (derived from PageView, which is compared), and lastUsedAt
// (using a credential may record that, at most once a minute).
const DERIVED_TABLES = ['_prisma_migrations', 'PageViewBucket', 'PageViewFold'];

let tablesQuery: string | undefined;
async function snapshot(): Promise<Record<string, string>> {
  if (!tablesQuery) {
    const { rows } = await db.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
    );
    tablesQuery = rows
      .filter(({ name }) => !DERIVED_TABLES.includes(name))
      .map(({ name }) => {
        const row = `(to_jsonb(t) - 'lastUsedAt' - 'position')::text`;
        return `SELECT '${name}' AS name, coalesce(string_agg(${row}, E'\\n' ORDER BY ${row}), '') AS rows FROM "${name}" t`;
      })
      .join(' UNION ALL ');
  }
  const { rows } = await db.query<{ name: string; rows: string }>(tablesQuery);
  return Object.fromEntries(rows.map((r) => [r.name, r.rows]));
}

/** Fails on a log line at error level or above (pino's 50) written since `from`: what a case made the server call unexpected. */
function expectNoErrorLogged(from: number): void {
  const lines = server.logs.slice(from).filter((line) => Number(line.level) >= 50);
  expect(lines.map((line) => JSON.stringify(line).slice(0, 600)), 'error-level log lines').toEqual([]);
}

/** Fails on the masked unexpected error anywhere in what a client got, whatever the status. */
function expectNotMasked(text: string, context: string): void {
  expect(text.includes('Unexpected error.') || text.includes('INTERNAL_SERVER_ERROR') || text.includes('Internal server error'), `${context} -> ${text.slice(0, 400)}`).toBe(false);
}

let baseline: Record<string, string> | undefined;
/**
 * Fails when a table changed since the last case; the next case compares with the new state, so
 * that a failing case (and each step of its shrinking) is blamed for its own changes only.
 */
async function expectNothingChanged(): Promise<void> {
  const now = await snapshot();
  const before = baseline ?? now;
  baseline = now;
  const changed = Object.keys(now).filter((t) => now[t] !== before[t]);
  // Which rows, for the report: the tables are the demo data and a few fixtures.
  const rows = (text: string | undefined) => new Set((text ?? '').split('\n'));
  const diff = changed.flatMap((t) => {
    const [was, is] = [rows(before[t]), rows(now[t])];
    return [...[...was].filter((r) => !is.has(r)).map((r) => `- ${t} ${r}`), ...[...is].filter((r) => !was.has(r)).map((r) => `+ ${t} ${r}`)];
  });
  expect(diff, 'rows changed by a hostile request').toEqual([]);
}

/**
 * fc.assert with this run's seed (and path, to replay one failure), cases counted, under a label
 * (the operation or field): a failure names the command that replays it alone, FUZZ_ONLY=<label>.
 */
async function holds<T>(label: string, arbitrary: fc.Arbitrary<T>, check: (value: T) => Promise<void>, count: keyof typeof counts, runs = RUNS): Promise<void> {
  if (ONLY !== undefined && label !== ONLY) return;
  await expectNothingChanged();
  try {
    await fc.assert(
      fc.asyncProperty(arbitrary, async (value) => {
        counts[count]++;
        const logged = server.logs.length;
        let failure: unknown;
        try {
          await check(value);
        } catch (error) {
          failure = error;
        }
        // Even when the answer failed: what it changed is this case's, not the next one's.
        await expectNothingChanged();
        if (failure !== undefined) throw failure;
        expectNoErrorLogged(logged);
      }),
      { numRuns: runs, seed: SEED, ...(PATH ? { path: PATH } : {}) },
    );
  } catch (error) {
    const path = /path: "([^"]*)"/.exec(String(error))?.[1] ?? '';
    throw new Error(`${label}: replay with FUZZ_ONLY='${label}' FUZZ_SEED=${SEED} FUZZ_PATH='${path}' FUZZ_RUNS=${RUNS} npm run fuzz\n${String(error)}`, { cause: error });
  }
}

// ---------------------------------------------------------------------------------------------
// REST

async function send(c: RestCase): Promise<Reply> {
  return api.request(c.method, c.path, { headers: c.headers, body: c.body });
}

/** A 4xx in the contract's error shape, `code` = status. */
function expectRefused(reply: Reply, what: string): void {
  const context = `${what} -> ${reply.status} ${reply.text.slice(0, 300)}`;
  expectNotMasked(reply.text, what);
  expect(reply.status, context).toBeGreaterThanOrEqual(400);
  expect(reply.status, context).toBeLessThan(500);
  expect(reply.headers.get('content-type'), context).toMatch(/^application\/json/);
  const { error, code, message, details, ...rest } = (reply.body ?? {}) as Record<string, unknown>;
  expect({ error, code, extra: Object.keys(rest) }, context).toEqual({ error: true, code: reply.status, extra: [] });
  expect(typeof message === 'string' && message.length > 0, context).toBe(true);
  if (details !== undefined) expect(details !== null && typeof details === 'object' && !Array.isArray(details), context).toBe(true);
}

let operations: RestOperation[];
let restFixtures: RestFixtures;

describe('REST, from openapi.json', () => {
  beforeAll(async () => {
    const doc = await api.get('/api/openapi.json');
    operations = restOperations(doc.body);
    const realId = (op: RestOperation, name: string): string => {
      if (name === 'deliveryId') return MISSING_DELIVERY;
      if (op.path.startsWith('/api/users/')) return fixtures.userId;
      if (op.path.startsWith('/api/v1/sessions/')) return fixtures.sessionId;
      if (op.path.startsWith('/api/v1/webhooks/')) return fixtures.webhookId;
      if (op.path.startsWith('/api/v1/api-keys/')) return fixtures.keyId;
      if (op.path.startsWith('/api/v1/courses/')) return fixtures.courseId;
      if (op.operationId === 'completeLesson') return fixtures.publishedLessonId;
      if (op.path.startsWith('/api/v1/lessons')) return fixtures.lessonId;
      throw new Error(`no fixture for ${name} of ${op.operationId}`);
    };
    const samples = (op: RestOperation): Record<string, unknown> => {
      switch (op.operationId) {
        case 'login':
          return { email: 'ada@example.com', password: 'lovelace-1815' };
        case 'register':
          return { email: 'fuzz-new@example.com', password: 'fuzz-password-1', name: 'Fuzz' };
        default:
          return {
            refreshToken: fixtures.refreshToken, url: 'https://example.com/fuzz', events: ['lesson.published'], since: '2020-01-01', path: '/fuzz',
            lessonIds: [fixtures.publishedLessonId],
          };
      }
    };
    restFixtures = { ids: realId, samples, token };
  });

  it('finds every operation in the document', () => {
    // The contract's routes, so that a broken document cannot pass by offering nothing to fuzz.
    expect(operations.length).toBeGreaterThanOrEqual(30);
    expect(operations.map((o) => o.operationId)).toEqual(expect.arrayContaining([
      'login', 'updateMe', 'getUser', 'createLesson', 'createWebhook', 'retryWebhookDelivery', 'revokeApiKey', 'listEvents',
      'createCourse', 'updateCourse', 'setCourseLessons', 'publishCourse', 'enroll', 'unenroll', 'getEnrollments', 'getCourseEnrollments', 'completeLesson', 'getCourseStats',
    ]));
  });

  it('refuses hostile path ids, query values and bodies on every operation, in the contract\'s shape, changing nothing', async () => {
    for (const op of operations) {
      await holds(`rest ${op.operationId}`, hostileRestCase(op, restFixtures), async (c) => expectRefused(await send(c), c.hostile), 'rest');
    }
  }, TIMEOUT);

  it('answers garbage credentials with 403 on every operation that needs them, changing nothing', async () => {
    const guarded = operations.filter((op) => op.auth);
    expect(guarded.length).toBeGreaterThanOrEqual(20);
    for (const op of guarded) {
      await holds(`rest credentials ${op.operationId}`, garbageAuthCase(op, restFixtures), async (c) => {
        const reply = await send(c);
        expectRefused(reply, `${c.hostile} ${JSON.stringify((c.headers.authorization ?? c.headers['x-api-key'] ?? '').slice(0, 80))} on ${op.operationId}`);
        expect(reply.status).toBe(403);
      }, 'restAuth', Math.max(2, Math.ceil(RUNS / 2)));
    }
  }, TIMEOUT);
});

// ---------------------------------------------------------------------------------------------
// GraphQL

interface GraphQLReply {
  status: number;
  /** The response's Content-Type. */
  type?: string | null;
  results: { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: { code?: string } }[] }[];
  text: string;
}

async function sendGraphQL(body: string, operation: GraphQLCase['operation'], headers: Record<string, string>): Promise<GraphQLReply> {
  const stream = operation === 'subscription';
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/graphql-response+json, application/json', ...headers },
    body,
    // A refused subscription ends at once; one that was accepted would stay open.
    signal: stream ? AbortSignal.timeout(10_000) : undefined,
  });
  let text: string;
  try {
    text = await res.text();
  } catch (error) {
    throw new Error(`the subscription was not refused: it stayed open (${String(error)})`);
  }
  if (!stream || !(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    let parsed: GraphQLReply['results'][number] | undefined;
    try {
      parsed = JSON.parse(text) as GraphQLReply['results'][number];
    } catch {
      parsed = undefined;
    }
    return { status: res.status, type: res.headers.get('content-type'), results: parsed ? [parsed] : [], text };
  }
  const results = text
    .split('\n\n')
    .filter((event) => /^event: next$/m.test(event))
    .map((event) => JSON.parse(event.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).join('\n')) as GraphQLReply['results'][number]);
  return { status: res.status, type: res.headers.get('content-type'), results, text };
}

/** Status < 500; GraphQL errors, none of them masked; no root field answered. */
function expectGraphQLRefused(reply: GraphQLReply, what: string): void {
  const context = `${what} -> ${reply.status} ${reply.text.slice(0, 400)}`;
  expectNotMasked(reply.text, what);
  expect(reply.status, context).toBeLessThan(500);
  expect(reply.results.length, context).toBeGreaterThan(0);
  for (const result of reply.results) {
    expect(result.errors?.length ?? 0, context).toBeGreaterThan(0);
    for (const error of result.errors ?? []) {
      expect(error.message, context).not.toBe('Unexpected error.');
      expect(error.extensions?.code, context).not.toBe('INTERNAL_SERVER_ERROR');
    }
    for (const value of Object.values(result.data ?? {})) expect(value, context).toBeNull();
  }
}

let schema: GraphQLSchema;
let rootFields: { operation: GraphQLCase['operation']; field: GraphQLField<unknown, unknown> }[];
let graphqlFixtures: GraphQLFixtures;

describe('GraphQL, from the schema by introspection', () => {
  beforeAll(async () => {
    const introspection = await api.graphql(getIntrospectionQuery(), undefined, { token });
    schema = buildClientSchema(introspection.body.data as IntrospectionQuery);
    rootFields = (['query', 'mutation', 'subscription'] as const).flatMap((operation) => {
      const type = operation === 'query' ? schema.getQueryType() : operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
      return Object.values(type?.getFields() ?? {}).map((field) => ({ operation, field }));
    });
    const doc = await api.get('/api/openapi.json');
    const stringRules: Record<string, JsonSchema> = {};
    for (const op of restOperations(doc.body)) {
      for (const [name, rule] of Object.entries(op.body?.properties ?? {})) stringRules[name] ??= rule;
    }
    const ids: Record<string, string> = {
      lesson: fixtures.lessonId, updateLesson: fixtures.lessonId, publishLesson: fixtures.lessonId, user: fixtures.userId, revokeApiKey: fixtures.keyId,
      revokeSession: fixtures.sessionId, course: fixtures.courseId, courseStats: fixtures.courseId, updateCourse: fixtures.courseId,
      setCourseLessons: fixtures.courseId, publishCourse: fixtures.courseId,
    };
    const sample = (field: string, name: string, _type: GraphQLInputType): unknown => {
      if (name === 'id') return ids[field] ?? fixtures.webhookId;
      if (name === 'webhookId') return fixtures.webhookId;
      if (name === 'deliveryId') return MISSING_DELIVERY;
      if (name === 'courseId') return fixtures.courseId;
      if (name === 'lessonId') return fixtures.publishedLessonId;
      if (name === 'lessonIds') return [fixtures.publishedLessonId];
      if (field === 'login') return { email: 'ada@example.com', password: 'lovelace-1815' }[name];
      if (field === 'register') return { email: 'fuzz-new@example.com', password: 'fuzz-password-1', name: 'Fuzz' }[name];
      return {
        refreshToken: fixtures.refreshToken, name: 'Fuzz', title: 'Fuzz', body: 'Fuzz', path: '/fuzz', url: 'https://example.com/fuzz', events: ['lesson.published'],
        since: '2020-01-01T00:00:00Z',
      }[name];
    };
    graphqlFixtures = { sample, stringRules };
  });

  it('finds the contract\'s root fields in the schema', () => {
    const names = rootFields.map((f) => `${f.operation}.${f.field.name}`);
    expect(names).toEqual(expect.arrayContaining([
      'query.me', 'query.lessons', 'query.events', 'mutation.updateMe', 'mutation.createWebhook', 'subscription.events',
      'query.course', 'query.courses', 'query.courseStats', 'mutation.createCourse', 'mutation.updateCourse', 'mutation.setCourseLessons', 'mutation.publishCourse',
      'mutation.enroll', 'mutation.unenroll', 'mutation.completeLesson',
    ]));
  });

  it('refuses hostile arguments and variables on every query, mutation and subscription field, never as an unexpected error, changing nothing', async () => {
    for (const { operation, field } of rootFields) {
      await holds(`graphql ${operation}.${field.name}`, hostileFieldCase(operation, field, graphqlFixtures), async (c) => {
        expectGraphQLRefused(await sendGraphQL(c.body, c.operation, { authorization: `Bearer ${token}` }), `${c.hostile} on ${operation}.${field.name}`);
      }, 'graphql');
    }
  }, TIMEOUT);

  it('refuses garbage credentials on every field that needs them', async () => {
    const guarded = rootFields.filter((f) => !PUBLIC_FIELDS.has(f.field.name) || f.operation === 'subscription');
    const fieldArb = fc.constantFrom(...guarded);
    await holds('graphql credentials', fc.tuple(fieldArb, garbageAuthorization(token)), async ([{ operation, field }, authorization]) => {
      const { body } = fieldOperation(operation, field, graphqlFixtures);
      const reply = await sendGraphQL(body, operation, { authorization });
      expectGraphQLRefused(reply, `${JSON.stringify(authorization.slice(0, 80))} on ${operation}.${field.name}`);
      const codes = reply.results.flatMap((r) => (r.errors ?? []).map((e) => e.extensions?.code));
      expect(codes, reply.text.slice(0, 300)).toContain('UNAUTHENTICATED');
    }, 'graphqlAuth', Math.max(20, RUNS * 5));
  }, TIMEOUT);

  it('answers bodies and GET query strings that are no GraphQL request with GraphQL errors, never an unexpected one, changing nothing', async () => {
    await holds('graphql malformed POST', malformedGraphQLBody(), async ({ body, contentType }) => {
      const reply = await sendGraphQL(body, 'mutation', { authorization: `Bearer ${token}`, 'content-type': contentType });
      // A body that is not declared as JSON is 415 in the contract's shape, whatever it holds.
      if (!contentType.startsWith('application/json')) {
        expectRefused({ status: reply.status, headers: new Headers({ 'content-type': reply.type ?? '' }), body: JSON.parse(reply.text) as unknown, text: reply.text }, `${contentType} ${body.slice(0, 200)}`);
        expect(reply.status).toBe(415);
        return;
      }
      expectGraphQLRefused(reply, `${contentType} ${body.slice(0, 200)}`);
    }, 'malformed', Math.max(30, RUNS * 10));
    await holds('graphql malformed GET', malformedGraphQLGet(), async ({ search }) => {
      const res = await fetch(`${server.url}/graphql?${search}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/graphql-response+json, application/json' } });
      const text = await res.text();
      let result: GraphQLReply['results'][number] | undefined;
      try {
        result = JSON.parse(text) as GraphQLReply['results'][number];
      } catch {
        result = undefined;
      }
      expectGraphQLRefused({ status: res.status, results: result ? [result] : [], text }, `GET /graphql?${search.slice(0, 200)}`);
    }, 'malformed', Math.max(20, RUNS * 5));
  }, TIMEOUT);
});

// ---------------------------------------------------------------------------------------------
// GraphQL in every encoding and over every transport

/** The results in a response of any of the media types a GraphQL POST or GET can be answered in. */
function resultsOf(type: string, text: string): GraphQLReply['results'] {
  const json = (data: string) => JSON.parse(data) as GraphQLReply['results'][number];
  if (type.startsWith('text/event-stream')) {
    return text.split('\n\n').filter((event) => /^event: next$/m.test(event)).map((event) => json(event.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).join('\n')));
  }
  if (type.startsWith('multipart/mixed')) {
    // Each part: its headers, a blank line, its JSON.
    return text.split(/\r\n-{3,}\r?\n?/).map((part) => part.split('\r\n\r\n')[1]?.trim()).filter((body): body is string => !!body?.startsWith('{')).map(json);
  }
  try {
    return [json(text)];
  } catch {
    return [];
  }
}

const ACCEPTS = ['application/json', 'application/graphql-response+json', 'application/graphql-response+json, application/json', 'multipart/mixed', 'text/event-stream', '*/*'];

describe('GraphQL in every encoding, over every transport', () => {
  it('answers a POST in any encoding but JSON with 415 in the contract\'s shape, and a JSON one with GraphQL\'s answer, never masked, changing nothing', async () => {
    await holds('graphql encodings', encodedGraphQLPost(), async (c) => {
      const res = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, accept: 'application/graphql-response+json, application/json', ...(c.contentType !== undefined ? { 'content-type': c.contentType } : {}) },
        body: c.body,
      });
      const text = await res.text();
      const type = res.headers.get('content-type') ?? '';
      if (c.encoding !== 'json') {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        expectRefused({ status: res.status, headers: res.headers, body, text }, c.hostile);
        expect(res.status, c.hostile).toBe(415);
        return;
      }
      expectNotMasked(text, c.hostile);
      expect(res.status, `${c.hostile} -> ${text.slice(0, 300)}`).toBeLessThan(500);
      // The mutation and the plain query run (the mutation gives Ada the name she has: nothing changes).
      if (c.runs) {
        expect(res.status, `${c.hostile} -> ${text.slice(0, 300)}`).toBe(200);
        return;
      }
      expectGraphQLRefused({ status: res.status, type, results: resultsOf(type, text), text }, c.hostile);
    }, 'transports', Math.max(30, RUNS * 4));
  }, TIMEOUT);

  it('refuses hostile directive arguments over POST (every Accept), GET, SSE in both modes and WebSocket, never masked, changing nothing', async () => {
    // POST, and SSE's distinct connections mode on /graphql (a POST accepting text/event-stream).
    await holds('graphql directives POST', fc.tuple(hostileDirectiveCase(), fc.constantFrom(...ACCEPTS)), async ([c, accept]) => {
      const res = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, accept, 'content-type': 'application/json' },
        body: JSON.stringify({ query: c.query, variables: c.variables }),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await res.text();
      const type = res.headers.get('content-type') ?? '';
      expectGraphQLRefused({ status: res.status, type, results: resultsOf(type, text), text }, `${c.hostile} accepting ${accept}`);
    }, 'transports', Math.max(16, RUNS * 3));
    await holds('graphql directives GET', hostileDirectiveCase(), async (c) => {
      const search = new URLSearchParams({ query: c.query, ...(c.variables ? { variables: JSON.stringify(c.variables) } : {}) });
      const res = await fetch(`${server.url}/graphql?${search}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/graphql-response+json, application/json' } });
      const text = await res.text();
      expectGraphQLRefused({ status: res.status, type: res.headers.get('content-type'), results: resultsOf(res.headers.get('content-type') ?? '', text), text }, `GET ${c.hostile}`);
    }, 'transports', Math.max(8, RUNS * 2));

    /** What a client of a streaming transport got: its results, or what it was refused with. */
    const collect = async (iterate: () => AsyncIterable<unknown>, what: string): Promise<GraphQLReply> => {
      const results: GraphQLReply['results'] = [];
      try {
        for await (const result of iterate()) results.push(result as GraphQLReply['results'][number]);
      } catch (error) {
        // graphql-ws rejects with the errors of an `error` message; anything else (a close, a Response) is a failure.
        if (!Array.isArray(error)) throw new Error(`${what}: the transport failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`, { cause: error });
        results.push({ errors: error as GraphQLReply['results'][number]['errors'] });
      }
      return { status: 200, results, text: JSON.stringify(results) };
    };
    const authorization = `Bearer ${token}`;
    // SSE's single connection mode: the client reserves a stream with a PUT on /graphql/stream.
    const sse = createSseClient({ url: `${server.url}/graphql/stream`, singleConnection: true, headers: { authorization }, retryAttempts: 0 });
    const ws = createWsClient({ url: `${server.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization }, retryAttempts: 0, lazy: true });
    try {
      await holds('graphql directives SSE single connection', hostileDirectiveCase(), async (c) => {
        expectGraphQLRefused(await collect(() => sse.iterate({ query: c.query, variables: c.variables }), c.hostile), `SSE single connection ${c.hostile}`);
      }, 'transports', Math.max(8, RUNS * 2));
      await holds('graphql directives WebSocket', hostileDirectiveCase(), async (c) => {
        expectGraphQLRefused(await collect(() => ws.iterate({ query: c.query, variables: c.variables }), c.hostile), `WebSocket ${c.hostile}`);
      }, 'transports', Math.max(8, RUNS * 2));
    } finally {
      sse.dispose();
      await ws.dispose();
    }
  }, TIMEOUT);
});
