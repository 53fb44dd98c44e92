// The client library (src/client) against the real server over real HTTP: REST calls with their
// typed errors, typed GraphQL, the live event stream (resuming across a dropped connection and a
// server restart without gap or duplicate), webhook verification on real deliveries, and 429 and
// 503 handling. Fetch wrappers here only observe requests or cut a real connection.
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import * as pkg from 'learnstream';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConflictError,
  LearningApiError,
  LearningClient,
  LessonDocument,
  NotFoundError,
  PermissionDeniedError,
  PublishLessonDocument,
  RateLimitError,
  RecordPageViewDocument,
  ValidationError,
  verifyWebhook,
  WebhookVerificationError,
  type CreatedApiKey,
  type EventStream,
  type FetchLike,
  type LearningEvent,
  type Lesson,
  type StoredEvent,
} from '../src/client/index.js';
import { serverTest } from './support/fixtures.js';
import type { Client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { startReceiver, type Hit } from './support/receiver.js';
import { passRefreshGrace } from './support/refresh-grace.js';
import { PG_ADMIN_URL, type TestServer } from './support/server.js';
import { freePort, sleep, waitFor } from './support/wait.js';

/** How long to wait for something that should happen (a deadline, not a measurement). */
const DEADLINE_MS = 15_000;
const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const EVENT_ID = /^evt_\w+$/;

const unique = (prefix: string) => `/${prefix}/${randomBytes(5).toString('hex')}`;


/** The rejection of a promise that must reject. */
async function rejection(promise: Promise<unknown>): Promise<LearningApiError> {
  try {
    await promise;
  } catch (error) {
    return error as LearningApiError;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** A fetch that records each request's method, URL and response status (and nothing else). */
function recordingFetch() {
  const calls: { method: string; url: string; status: number }[] = [];
  const fetchFn: FetchLike = async (input, init) => {
    const response = await fetch(input, init);
    calls.push({ method: init?.method ?? 'GET', url: input, status: response.status });
    return response;
  };
  return { fetch: fetchFn, calls };
}

/**
 * A fetch that lets a test cut the client's event-stream connections (aborting the real socket,
 * as a network failure would) and hold new ones until released. Every request still goes to
 * the real server.
 */
function streamControl() {
  const connections: { variables: { after?: string; types?: string[] }; clientSignal?: AbortSignal | null; cut: AbortController }[] = [];
  let held: Promise<void> | undefined;
  let release = () => {};
  let waiting = 0;
  const fetchFn: FetchLike = async (input, init) => {
    const accept = new Headers(init?.headers).get('accept') ?? '';
    if (!accept.includes('text/event-stream')) return fetch(input, init);
    if (held) {
      waiting++;
      await held;
      waiting--;
    }
    const cut = new AbortController();
    init?.signal?.addEventListener('abort', () => cut.abort(init.signal?.reason));
    const body = JSON.parse(String(init?.body)) as { variables?: { after?: string; types?: string[] } };
    connections.push({ variables: body.variables ?? {}, clientSignal: init?.signal, cut });
    return fetch(input, { ...init, signal: cut.signal });
  };
  return {
    fetch: fetchFn,
    connections,
    get waiting() {
      return waiting;
    },
    /** New stream connections wait until `release()`. */
    hold() {
      held = new Promise((r) => (release = r));
    },
    release() {
      held = undefined;
      release();
    },
    /** Cuts every open stream connection. */
    cutAll() {
      for (const c of connections) c.cut.abort(new Error('connection cut by the test'));
    },
  };
}

/** Consumes an event stream in the background, as an application's for-await loop would. */
function collect(stream: EventStream) {
  const events: LearningEvent[] = [];
  let failure: unknown;
  let finished = false;
  const loop = (async () => {
    try {
      for await (const event of stream) events.push(event);
    } catch (error) {
      failure = error;
    } finally {
      finished = true;
    }
  })();
  return {
    events,
    get failure() {
      return failure;
    },
    get finished() {
      return finished;
    },
    until: (what: string, test: (events: LearningEvent[]) => boolean) =>
      waitFor(`${what} (received ${JSON.stringify(events.map((e) => e.path ?? e.event))})`, () => test(events)),
    async stop() {
      await stream.return();
      await loop;
    },
  };
}

/**
 * Records probe page views until one arrives: from then on the subscription is live, and every
 * later event must arrive. The probes are told apart by their path.
 */
async function goLive(sub: ReturnType<typeof collect>, record: (path: string) => Promise<void>, prefix: string): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  for (let i = 0; ; i++) {
    await record(`${prefix}/probe/${i}`);
    const probeSeen = Date.now() + 400;
    while (Date.now() < probeSeen) {
      if (sub.events.some((e) => e.path?.startsWith(`${prefix}/probe/`))) return;
      if (sub.failure) throw sub.failure;
      await sleep(20);
    }
    if (Date.now() > deadline) throw new Error('the stream never went live');
  }
}


// Webhook retries an hour apart: a second attempt in these tests is the one asked for by hand.
const realServer = serverTest({ env: { ...NO_RATE_LIMITS, WEBHOOK_RETRY_SCHEDULE: '1h' } });
const WINDOW_S = 2;
const limited = serverTest({ env: { RATE_LIMIT_FREE: '3', RATE_LIMIT_WINDOW_S: String(WINDOW_S) } });
const outage = serverTest({ kind: 'postgres', env: NO_RATE_LIMITS });
// A fixed port, so the restarted server is where the client expects it.
const restarting = serverTest({ env: { ...NO_RATE_LIMITS, PORT: String(await freePort()) } });

describe('the client library as a package', () => {
  it("is this repository's `learnstream` entry (the published package, @learnstream/client, is tested in client-package.test.ts)", () => {
    expect(pkg.LearningClient).toBe(LearningClient);
  });

  it('imports nothing from the server: only its own files, graphql-sse, standardwebhooks and a type package', async () => {
    const root = resolve(dirname(new URL(import.meta.url).pathname), '../src/client');
    const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith('.ts'));
    expect(files).toEqual(expect.arrayContaining(['index.ts', 'client.ts', join('generated', 'graphql.ts')]));
    const allowed = new Set(['graphql-sse', 'standardwebhooks', '@graphql-typed-document-node/core']);
    const outside: string[] = [];
    for (const file of files) {
      const text = await readFile(join(root, file), 'utf8');
      // Import and export statements (not comments), and import('…') types.
      for (const [, statement, dynamic] of text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm)) {
        const spec = (statement ?? dynamic)!;
        if (spec.startsWith('.')) {
          if (relative(root, resolve(root, dirname(file), spec)).startsWith('..')) outside.push(`${file}: ${spec}`);
        } else if (!allowed.has(spec)) outside.push(`${file}: ${spec}`);
      }
    }
    expect(outside).toEqual([]);
  });
});

describe('LearningClient against the real server', () => {
  const it = realServer;
  let server: TestServer;
  let api: Client;
  let adaToken: string;
  let adaKey: CreatedApiKey;
  /** Ada (ADMIN, PRO) with an API key. */
  let ada: LearningClient;
  /** Grace (MEMBER, FREE) with an access token. */
  let grace: LearningClient;
  /** No credentials. */
  let anon: LearningClient;

  it.beforeAll(async ({ server: started, api: itsClient, ada: adaSignedIn, grace: graceSignedIn }) => {
    [server, api, adaToken] = [started, itsClient, adaSignedIn];
    const created = await api.post('/api/v1/api-keys', { name: 'client tests' }, { token: adaToken });
    expect(created.status).toBe(201);
    adaKey = created.body as CreatedApiKey;
    ada = new LearningClient({ baseUrl: server.url, apiKey: adaKey.key });
    grace = new LearningClient({ baseUrl: `${server.url}/`, token: graceSignedIn });
    anon = new LearningClient({ baseUrl: server.url });
  });

  it('has a method for every operation of the OpenAPI document', async () => {
    const CLIENT_METHODS: Record<string, string[]> = {
      getMe: ['me'],
      updateMe: ['updateMe'],
      getUser: ['users.get'],
      getLessons: ['lessons.get', 'lessons.list', 'lessons.all'],
      createLesson: ['lessons.create'],
      updateLesson: ['lessons.update'],
      publishLesson: ['lessons.publish'],
      listDocs: ['docs.list'],
      getPageViews: ['analytics.getPageViews'],
      recordPageView: ['analytics.recordPageView'],
      login: ['auth.login'],
      register: ['auth.register'],
      refreshToken: ['auth.refresh'],
      logout: ['auth.logout'],
      createApiKey: ['apiKeys.create'],
      listApiKeys: ['apiKeys.list'],
      getApiKey: ['apiKeys.get'],
      revokeApiKey: ['apiKeys.revoke'],
      listSessions: ['sessions.list'],
      getSession: ['sessions.get'],
      revokeSession: ['sessions.revoke'],
      createWebhook: ['webhooks.create'],
      listWebhooks: ['webhooks.list'],
      getWebhook: ['webhooks.get'],
      updateWebhook: ['webhooks.update'],
      deleteWebhook: ['webhooks.delete'],
      testWebhook: ['webhooks.test'],
      listWebhookDeliveries: ['webhooks.deliveries'],
      retryWebhookDelivery: ['webhooks.retryDelivery'],
      listEvents: ['listEvents', 'allEvents'],
      listEventTypes: ['eventTypes'],
      recoverWebhook: ['webhooks.recover'],
      rotateWebhookSecret: ['webhooks.rotateSecret'],
      listCourses: ['courses.list', 'courses.all'],
      getCourse: ['courses.get'],
      createCourse: ['courses.create'],
      updateCourse: ['courses.update'],
      setCourseLessons: ['courses.setLessons'],
      publishCourse: ['courses.publish'],
      enroll: ['courses.enroll'],
      unenroll: ['courses.leave'],
      getEnrollments: ['enrollments.list', 'enrollments.all'],
      getCourseEnrollments: ['courses.enrollments'],
      completeLesson: ['lessons.complete'],
      getCourseStats: ['courses.stats'],
    };
    const openapi = (await api.get('/api/openapi.json')).body as { paths: Record<string, Record<string, { operationId?: string }>> };
    const operationIds = Object.values(openapi.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(operationIds.length).toBeGreaterThanOrEqual(25);
    // The document itself is for tools, not a call of the client.
    const META = new Set(['getOpenApiDocument', 'getAsyncApiDocument']);
    expect(operationIds.filter((id) => !id || !(id in CLIENT_METHODS || META.has(id)))).toEqual([]);
    for (const method of Object.values(CLIENT_METHODS).flat()) {
      const fn = method.split('.').reduce<unknown>((on, key) => (on as Record<string, unknown>)[key], ada);
      expect(typeof fn, method).toBe('function');
    }
  });

  describe('users', () => {
    it('me() answers the current user of an API key or of a token, in the contract shape', async () => {
      const me = await ada.me();
      expect(me).toEqual({ id: expect.stringMatching(/^usr_/), name: 'Ada Lovelace', email: 'ada@example.com', joined: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), role: 'ADMIN', tier: 'PRO' });
      expect(await grace.me()).toMatchObject({ name: 'Grace Hopper', email: 'grace@example.com', role: 'MEMBER', tier: 'FREE' });
      // The same through the package's own name.
      expect(await new pkg.LearningClient({ baseUrl: server.url, token: adaToken }).me()).toEqual(me);
    });

    it('updateMe renames the current user; 400 ValidationError names the field', async () => {
      const before = await grace.me();
      expect(await grace.updateMe({ name: 'Rear Admiral Grace Hopper' })).toEqual({ ...before, name: 'Rear Admiral Grace Hopper' });
      expect((await grace.me()).name).toBe('Rear Admiral Grace Hopper');
      const error = await rejection(grace.updateMe({ name: '   ' }));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ status: 400, code: 400, message: 'name: must not be empty', field: 'name' });
      await grace.updateMe({ name: before.name });
    });

    it('users.get answers exactly the public fields; an unknown id is NotFoundError with the contract message and the request id', async () => {
      const me = await ada.me();
      expect(await anon.users.get(me.id)).toEqual({ id: me.id, name: 'Ada Lovelace', joined: me.joined });
      const traced = new LearningClient({ baseUrl: server.url, headers: { 'x-request-id': 'client-test-404' } });
      const error = await rejection(traced.users.get('usr_nobody'));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toBeInstanceOf(LearningApiError);
      expect(error).toMatchObject({ status: 404, code: 404, message: 'User usr_nobody not found', requestId: 'client-test-404' });
      expect(error.name).toBe('NotFoundError');
    });
  });

  describe('lessons and docs', () => {
    it('create, update and publish as ADMIN; publishing twice is ConflictError; a MEMBER gets PermissionDeniedError', async () => {
      const draft = await ada.lessons.create({ title: 'Client lesson', summary: null, body: 'Written by the client test' });
      expect(draft).toMatchObject({ id: expect.stringMatching(/^les_/), title: 'Client lesson', summary: null, status: 'DRAFT', publishedAt: null });
      expect(draft.createdAt).toMatch(ISO_MS_Z);
      const updated = await ada.lessons.update(draft.id, { summary: 'Now with a summary' });
      expect(updated).toMatchObject({ id: draft.id, summary: 'Now with a summary', status: 'DRAFT' });
      // A MEMBER does not see the draft at all.
      const hidden = await rejection(grace.lessons.get(draft.id));
      expect(hidden).toBeInstanceOf(NotFoundError);
      expect(hidden.message).toBe(`Lesson ${draft.id} not found`);

      const published = await ada.lessons.publish(draft.id);
      expect(published).toMatchObject({ id: draft.id, status: 'PUBLISHED', publishedAt: expect.stringMatching(ISO_MS_Z) });
      expect(await grace.lessons.get(draft.id)).toEqual(published);
      const twice = await rejection(ada.lessons.publish(draft.id));
      expect(twice).toBeInstanceOf(ConflictError);
      expect(twice).toMatchObject({ status: 409, code: 409, message: `Lesson ${draft.id} is already published` });

      const forbidden = await rejection(grace.lessons.create({ title: 'Nope', body: 'Nope' }));
      expect(forbidden).toBeInstanceOf(PermissionDeniedError);
      expect(forbidden).toBeInstanceOf(AuthenticationError);
      expect(forbidden).toMatchObject({ status: 403, code: 403, message: 'Forbidden' });
    });

    it('list pages with limit and cursor, newest first; all() walks every page; a bad limit is ValidationError', async () => {
      const first = await ada.lessons.list({ limit: 2 });
      expect(first.items).toHaveLength(2);
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await ada.lessons.list({ limit: 2, cursor: first.nextCursor! });
      const everything = await ada.lessons.list({ limit: 100 });
      expect([...first.items, ...second.items]).toEqual(everything.items.slice(0, 4));
      expect(everything.nextCursor).toBeNull();
      const walked: Lesson[] = [];
      for await (const lesson of ada.lessons.all({ limit: 3 })) walked.push(lesson);
      expect(walked).toEqual(everything.items);
      const created = walked.map((l) => l.createdAt);
      expect(created).toEqual([...created].sort().reverse());

      const error = await rejection(ada.lessons.list({ limit: 0 }));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ status: 400, code: 400, field: 'query.limit' });
      expect(error.message).toMatch(/^query\.limit: /);
    });

    it('lessons need a key or token: without one, AuthenticationError 403 "Missing or invalid token"', async () => {
      const error = await rejection(anon.lessons.list());
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error).not.toBeInstanceOf(PermissionDeniedError);
      expect(error).toMatchObject({ status: 403, code: 403, message: 'Missing or invalid token' });
    });

    it('docs.list answers the documentation pages', async () => {
      const docs = await anon.docs.list();
      expect(docs.length).toBeGreaterThan(0);
      for (const doc of docs) expect(Object.keys(doc).sort()).toEqual(['id', 'slug', 'title', 'updatedAt', 'url']);
    });
  });

  describe('analytics', () => {
    it('recordPageView is counted by getPageViews, narrowed by path and by dates', async () => {
      const path = unique('client-views');
      const anyBefore = await anon.analytics.getPageViews();
      await anon.analytics.recordPageView(path);
      await ada.analytics.recordPageView(path);
      expect(await anon.analytics.getPageViews({ path })).toBe(2);
      expect(await anon.analytics.getPageViews()).toBeGreaterThanOrEqual(anyBefore + 2);
      const tomorrow = new Date(Date.now() + 86_400_000);
      expect(await anon.analytics.getPageViews({ path, from: new Date(Date.now() - 60_000), to: tomorrow })).toBe(2);
      expect(await anon.analytics.getPageViews({ path, from: tomorrow.toISOString().slice(0, 10) })).toBe(0);
      const error = await rejection(anon.analytics.recordPageView('no-leading-slash'));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ status: 400, field: 'path', message: 'path: must start with /' });
    });
  });

  describe('the event list', () => {
    it('listEvents pages in commit order with the ids events() uses; allEvents walks every page; eventTypes is the catalogue', async () => {
      const path = unique('client-list');
      await anon.analytics.recordPageView(`${path}/first`);
      await anon.analytics.recordPageView(path);
      const hits = await waitFor('the view in the list', async () => {
        const all: StoredEvent[] = [];
        for await (const event of grace.allEvents({ types: ['analytics.hit'], limit: 2 })) all.push(event);
        return all.some((e) => e.event === 'analytics.hit' && e.path === path) && all;
      });
      expect(hits.every((e) => e.event === 'analytics.hit')).toBe(true);
      const ours = hits.find((e) => e.event === 'analytics.hit' && e.path === path)!;
      expect(ours).toEqual({ id: expect.stringMatching(EVENT_ID), event: 'analytics.hit', timestamp: expect.stringMatching(ISO_MS_Z), path });
      // The same events, unfiltered and in one page.
      const everything = await ada.listEvents({ limit: 1000 });
      expect(everything.items.filter((e) => e.event === 'analytics.hit')).toEqual(hits);
      // No names is every event, as events({ types: [] }) streams every event.
      expect((await ada.listEvents({ types: [], limit: 1000 })).items.slice(0, everything.items.length)).toEqual(everything.items);
      const first = await ada.listEvents({ types: ['analytics.hit'], limit: 1 });
      expect(first.items).toEqual(hits.slice(0, 1));
      expect(first.nextCursor).toBe(hits.length > 1 ? hits[0]!.id : null);
      expect((await ada.listEvents({ after: ours.id, types: ['analytics.hit'] })).items).toEqual(hits.slice(hits.indexOf(ours) + 1));
      expect((await ada.listEvents({ since: new Date(ours.timestamp), types: ['analytics.hit'] })).items[0]).toEqual(
        hits.find((e) => e.timestamp >= ours.timestamp),
      );
      // The stream replays from the same cursor with the same ids.
      const stream = grace.events({ after: hits[0]!.id, types: ['analytics.hit'] });
      const streamed: string[] = [];
      for await (const event of stream) {
        streamed.push(event.id);
        if (streamed.length === hits.length - 1) break;
      }
      expect(streamed).toEqual(hits.slice(1).map((e) => e.id));

      const types = await grace.eventTypes();
      expect(types.map((t) => t.name)).toEqual([
        'user.created', 'user.updated', 'lesson.published', 'lesson.updated', 'analytics.hit',
        'course.published', 'course.updated', 'enrollment.created', 'lesson.completed', 'course.completed',
      ]);
      expect(types[0]!.schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', additionalProperties: false });

      const bad = await rejection(ada.listEvents({ limit: 0 }));
      expect(bad).toBeInstanceOf(ValidationError);
      expect(bad).toMatchObject({ status: 400, field: 'query.limit' });
      expect(await rejection(ada.listEvents({ after: 'les_unknown' }))).toMatchObject({ status: 400, field: 'query.after' });
      const anonymous = await rejection(anon.listEvents());
      expect(anonymous).toBeInstanceOf(AuthenticationError);
      expect(anonymous).toMatchObject({ status: 403, message: 'Missing or invalid token' });
    });
  });

  describe('sessions', () => {
    it('list marks the current one; revoke ends another at once (403), and again is 404', async () => {
      const anonClient = new LearningClient({ baseUrl: server.url });
      const first = await anonClient.auth.login({ email: 'grace@example.com', password: 'hopper-1906' });
      const second = await anonClient.auth.login({ email: 'grace@example.com', password: 'hopper-1906' });
      const graceFirst = new LearningClient({ baseUrl: server.url, token: first.token });
      const graceSecond = new LearningClient({ baseUrl: server.url, token: second.token });
      const listed = await graceSecond.sessions.list();
      const current = listed.filter((s) => s.current);
      expect(current).toHaveLength(1);
      expect(current[0]).toEqual({ id: expect.stringMatching(/^ses_/), createdAt: expect.stringMatching(ISO_MS_Z), lastUsedAt: expect.stringMatching(ISO_MS_Z), userAgent: expect.any(String), current: true });
      const firstId = (await graceFirst.sessions.list()).find((s) => s.current)!.id;
      await graceSecond.sessions.revoke(firstId);
      const ended = await rejection(graceFirst.me());
      expect(ended).toMatchObject({ status: 403, message: 'Missing or invalid token' });
      expect(await rejection(graceSecond.sessions.revoke(firstId))).toBeInstanceOf(NotFoundError);
      expect((await graceSecond.me()).email).toBe('grace@example.com');
    });
  });

  describe('API keys', () => {
    it('create, list and revoke: a revoked key is refused at once (403); a made-up key too', async () => {
      const created = await ada.apiKeys.create('short-lived');
      expect(created).toEqual({ id: expect.stringMatching(/^key_/), name: 'short-lived', key: expect.stringMatching(/^lp_/), createdAt: expect.stringMatching(ISO_MS_Z) });
      const keyed = new LearningClient({ baseUrl: server.url, apiKey: created.key });
      expect((await keyed.me()).email).toBe('ada@example.com');
      const listed = await ada.apiKeys.list();
      expect(listed.find((k) => k.id === created.id)).toEqual({
        id: created.id,
        name: 'short-lived',
        prefix: created.key.slice(3, 11),
        createdAt: created.createdAt,
        lastUsedAt: expect.stringMatching(ISO_MS_Z),
      });
      expect(JSON.stringify(listed)).not.toContain(created.key);

      await ada.apiKeys.revoke(created.id);
      const revoked = await rejection(keyed.me());
      expect(revoked).toBeInstanceOf(AuthenticationError);
      expect(revoked).toMatchObject({ status: 403, code: 403, message: 'Missing or invalid token' });
      expect((await ada.apiKeys.list()).map((k) => k.id)).not.toContain(created.id);
      const again = await rejection(ada.apiKeys.revoke(created.id));
      expect(again).toBeInstanceOf(NotFoundError);
      expect(again.message).toBe(`API key ${created.id} not found`);

      const madeUp = await rejection(new LearningClient({ baseUrl: server.url, apiKey: 'lp_not-a-real-key' }).me());
      expect(madeUp).toBeInstanceOf(AuthenticationError);
      expect(madeUp).toMatchObject({ status: 403, message: 'Missing or invalid token' });
    });
  });

  describe('auth', () => {
    it('register, login, refresh and logout; the contract errors are typed', async () => {
      const email = `client-${randomBytes(4).toString('hex')}@Example.com`;
      const registration = await anon.auth.register({ email, password: 'correct-horse', name: 'Client Tester' });
      expect(registration.user).toMatchObject({ email: email.toLowerCase(), name: 'Client Tester', role: 'MEMBER', tier: 'FREE' });
      expect(registration).toMatchObject({ token: expect.any(String), expiresIn: 86_400, refreshToken: expect.any(String), refreshExpiresIn: 2_592_000 });
      const taken = await rejection(anon.auth.register({ email, password: 'correct-horse', name: 'Again' }));
      expect(taken).toBeInstanceOf(ConflictError);
      expect(taken.status).toBe(409);

      const wrong = await rejection(anon.auth.login({ email, password: 'wrong-horse' }));
      expect(wrong).toBeInstanceOf(AuthenticationError);
      expect(wrong).toMatchObject({ status: 401, code: 401, message: 'Invalid email or password' });

      const pair = await anon.auth.login({ email, password: 'correct-horse' });
      const signedIn = new LearningClient({ baseUrl: server.url, token: pair.token });
      expect(await signedIn.me()).toEqual(registration.user);
      const rotated = await anon.auth.refresh(pair.refreshToken);
      expect(rotated.refreshToken).not.toBe(pair.refreshToken);
      // Presented again past the reuse grace: reuse.
      await passRefreshGrace(server, pair.refreshToken);
      const reused = await rejection(anon.auth.refresh(pair.refreshToken));
      expect(reused).toBeInstanceOf(AuthenticationError);
      expect(reused).toMatchObject({ status: 401, message: 'Invalid refresh token' });

      const fresh = await anon.auth.login({ email, password: 'correct-horse' });
      const session = new LearningClient({ baseUrl: server.url, token: fresh.token });
      expect((await session.me()).email).toBe(email.toLowerCase());
      await expect(anon.auth.logout(fresh.refreshToken)).resolves.toBeUndefined();
      const loggedOut = await rejection(session.me());
      expect(loggedOut).toBeInstanceOf(AuthenticationError);
      expect(loggedOut.status).toBe(403);
    });

    it('the login throttle (429, Retry-After ~15 min) is longer than maxRetryDelayMs: RateLimitError at once, no waiting', async () => {
      const email = `throttled-${randomBytes(4).toString('hex')}@example.com`;
      await anon.auth.register({ email, password: 'right-password', name: 'Throttled' });
      for (let i = 0; i < 10; i++) expect(await rejection(anon.auth.login({ email, password: 'wrong-password' }))).toBeInstanceOf(AuthenticationError);
      const net = recordingFetch();
      const patient = new LearningClient({ baseUrl: server.url, fetch: net.fetch });
      const started = Date.now();
      const error = await rejection(patient.auth.login({ email, password: 'right-password' }));
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({ status: 429, code: 429, message: 'Too many failed login attempts' });
      expect((error as RateLimitError).retryAfterSeconds).toBeGreaterThan(60);
      expect((error as RateLimitError).retryAfterSeconds).toBeLessThanOrEqual(900);
      expect(net.calls.map((c) => c.status)).toEqual([429]);
    });

    it('refuses both an apiKey and a token, and a missing baseUrl', () => {
      expect(() => new LearningClient({ baseUrl: server.url, apiKey: 'lp_x', token: 'jwt' })).toThrow(/apiKey or token/);
      expect(() => new LearningClient({ baseUrl: '' })).toThrow(/baseUrl/);
    });
  });

  describe('GraphQL', () => {
    it('typed queries answer what REST answers', async () => {
      expect(await ada.graphql.me()).toEqual(await ada.me());
      const me = await ada.me();
      expect(await anon.graphql.user(me.id)).toEqual(await anon.users.get(me.id));
      expect(await anon.graphql.docs()).toEqual(await anon.docs.list());
      const path = unique('client-gql-views');
      await ada.query(RecordPageViewDocument, { path });
      expect(await anon.graphql.pageViews({ path })).toBe(1);
      expect(await anon.graphql.pageViews({ path, from: new Date(Date.now() + 86_400_000) })).toBe(0);

      const rest = await ada.lessons.list({ limit: 4 });
      const page1 = await ada.graphql.lessons({ first: 2 });
      expect(page1.pageInfo.hasNextPage).toBe(true);
      const page2 = await ada.graphql.lessons({ first: 2, after: page1.pageInfo.endCursor! });
      expect([...page1.edges, ...page2.edges].map((e) => e.node)).toEqual(rest.items);

      const lesson = await grace.graphql.lesson(rest.items.find((l) => l.status === 'PUBLISHED')!.id);
      expect(lesson.author).toEqual({ id: me.id, name: 'Ada Lovelace', joined: me.joined });
    });

    it('the generic query() runs typed documents, mutations included', async () => {
      const draft = await ada.lessons.create({ title: 'GraphQL-published', body: 'body' });
      const { publishLesson } = await ada.query(PublishLessonDocument, { id: draft.id });
      expect(publishLesson).toMatchObject({ id: draft.id, status: 'PUBLISHED', publishedAt: expect.stringMatching(ISO_MS_Z) });
      const { lesson } = await grace.query(LessonDocument, { id: draft.id });
      expect(lesson?.title).toBe('GraphQL-published');
    });

    it('GraphQL errors are typed by extensions.code, with the HTTP status of the contract', async () => {
      const missing = await rejection(anon.graphql.user('usr_nobody'));
      expect(missing).toBeInstanceOf(NotFoundError);
      expect(missing).toMatchObject({ code: 'NOT_FOUND', status: 404, message: 'User usr_nobody not found', data: { user: null } });
      expect(missing.graphQLErrors?.[0]?.path).toEqual(['user']);
      expect(missing.requestId).toEqual(expect.any(String));

      const draft = await ada.lessons.create({ title: 'Not for members', body: 'body' });
      const forbidden = await rejection(grace.query(PublishLessonDocument, { id: draft.id }));
      expect(forbidden).toBeInstanceOf(PermissionDeniedError);
      expect(forbidden).toMatchObject({ code: 'FORBIDDEN', status: 403, message: 'Forbidden' });

      const unauthenticated = await rejection(anon.graphql.me());
      expect(unauthenticated).toBeInstanceOf(AuthenticationError);
      expect(unauthenticated).not.toBeInstanceOf(PermissionDeniedError);
      expect(unauthenticated).toMatchObject({ code: 'UNAUTHENTICATED', status: 403, message: 'Missing or invalid token' });

      const badInput = await rejection(ada.graphql.lessons({ first: 0 }));
      expect(badInput).toBeInstanceOf(ValidationError);
      expect(badInput).toMatchObject({ code: 'BAD_USER_INPUT', status: 400, field: 'first' });

      // A document the schema does not know (a plain string is a document too, of unknown type).
      const invalid = await rejection(ada.query('{ noSuchField }'));
      expect(invalid).toBeInstanceOf(ValidationError);
      expect(invalid).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', status: 400 });
      expect(invalid.message).toContain('noSuchField');
    });
  });

  describe('webhooks and verifyWebhook', () => {
    it('CRUD, test, deliveries and retry; real deliveries verify, tampered ones do not', async () => {
      // The first test ping gets a 500. Only pings: an event committed by an earlier test may still
      // be fanned out to the new endpoint (it subscribes to lesson.published) and reach it first.
      let pings = 0;
      const isPing = (body: string) => body.includes('"webhook.test"');
      const receiver = await startReceiver((hit) => (isPing(hit.body) && ++pings === 1 ? 500 : 200));
      const pingHits = () => receiver.hits.filter((h) => isPing(h.body));
      try {
        const hook = await ada.webhooks.create({ url: receiver.url, events: ['lesson.published'], description: 'client test' });
        expect(hook).toMatchObject({ id: expect.stringMatching(/^whk_/), url: receiver.url, events: ['lesson.published'], enabled: true, disabledReason: null });
        expect(hook.secret).toMatch(/^whsec_/);
        const { secret, ...view } = hook;
        expect(await ada.webhooks.get(hook.id)).toEqual(view);
        expect((await ada.webhooks.list()).find((w) => w.id === hook.id)).toEqual(view);
        const renamed = await ada.webhooks.update(hook.id, { description: 'renamed' });
        expect(renamed).toMatchObject({ id: hook.id, description: 'renamed' });

        // A test ping: the receiver answers 500 to it, then 200 to the retry asked for by hand.
        const ping = await ada.webhooks.test(hook.id);
        expect(ping).toMatchObject({ eventId: expect.stringMatching(EVENT_ID), event: 'webhook.test', status: 'PENDING' });
        const failed = await waitFor('the first attempt', async () => {
          const page = await ada.webhooks.deliveries(hook.id, { limit: 10 });
          const d = page.items.find((i) => i.id === ping.id);
          return d && d.attempts.length === 1 ? d : undefined;
        });
        expect(failed.attempts[0]).toMatchObject({ statusCode: 500 });
        expect(failed.status).toBe('PENDING');
        const retried = await ada.webhooks.retryDelivery(hook.id, ping.id);
        expect(retried).toMatchObject({ id: ping.id, status: 'PENDING' });
        const succeeded = await waitFor('the retried attempt', async () => {
          const d = (await ada.webhooks.deliveries(hook.id)).items.find((i) => i.id === ping.id);
          return d?.status === 'SUCCEEDED' ? d : undefined;
        });
        expect(succeeded.attempts.map((a) => a.statusCode)).toEqual([500, 200]);
        expect(pingHits()).toHaveLength(2);

        for (const hit of pingHits()) {
          const event = verifyWebhook(hit.body, hit.headers, secret);
          expect(event).toEqual({ id: ping.eventId, event: 'webhook.test', timestamp: expect.stringMatching(ISO_MS_Z) });
        }
        const [hit] = pingHits() as [Hit];
        // Headers as fetch gives them, and the body as bytes, work too.
        expect(verifyWebhook(new TextEncoder().encode(hit.body), new Headers(hit.headers), secret).id).toBe(ping.eventId);

        const tampered = hit.body.replace('webhook.test', 'user.created');
        expect(tampered).not.toBe(hit.body);
        expect(() => verifyWebhook(tampered, hit.headers, secret)).toThrow(WebhookVerificationError);
        const otherSecret = `whsec_${randomBytes(24).toString('base64')}`;
        expect(() => verifyWebhook(hit.body, hit.headers, otherSecret)).toThrow(WebhookVerificationError);
        const { 'webhook-signature': _dropped, ...unsigned } = hit.headers;
        expect(() => verifyWebhook(hit.body, unsigned, secret)).toThrow(/Missing webhook-signature header/);

        // A real event caused through REST.
        const draft = await ada.lessons.create({ title: 'Announced by webhook', body: 'body' });
        await ada.lessons.publish(draft.id);
        const announced = await waitFor('the lesson.published delivery', () =>
          receiver.hits.find((h) => h.body.includes(`"lessonId":"${draft.id}"`)),
        );
        expect(verifyWebhook(announced.body, announced.headers, secret)).toEqual({
          id: expect.stringMatching(EVENT_ID),
          event: 'lesson.published',
          timestamp: expect.stringMatching(ISO_MS_Z),
          lessonId: draft.id,
        });

        const denied = await rejection(grace.webhooks.list());
        expect(denied).toBeInstanceOf(PermissionDeniedError);
        expect(denied).toMatchObject({ status: 403, message: 'Forbidden' });

        await ada.webhooks.delete(hook.id);
        const gone = await rejection(ada.webhooks.get(hook.id));
        expect(gone).toBeInstanceOf(NotFoundError);
        expect(gone.message).toBe(`Webhook ${hook.id} not found`);
      } finally {
        await receiver.close();
      }
    });
  });

  describe('webhooks.rotateSecret and webhooks.recover', () => {
    it('a rotated secret and the previous one both verify the next delivery; recover counts, and names a bad since', async () => {
      const receiver = await startReceiver(() => 200);
      try {
        const hook = await ada.webhooks.create({ url: receiver.url, events: ['user.created'] });
        const secret = await ada.webhooks.rotateSecret(hook.id);
        expect(secret).toMatch(/^whsec_/);
        expect(secret).not.toBe(hook.secret);
        const ping = await ada.webhooks.test(hook.id);
        const hit = await waitFor('the ping', () => receiver.hits.find((h) => h.headers['webhook-id'] === ping.eventId));
        expect(verifyWebhook(hit.body, hit.headers, secret).id).toBe(ping.eventId);
        expect(verifyWebhook(hit.body, hit.headers, hook.secret).id).toBe(ping.eventId);

        // Nothing has FAILED (the ping succeeded): none to recover, since a Date or a date.
        expect(await ada.webhooks.recover(hook.id, new Date(Date.parse(ping.createdAt) - 60_000))).toBe(0);
        expect(await ada.webhooks.recover(hook.id, '2026-01-01')).toBe(0);
        const future = await rejection(ada.webhooks.recover(hook.id, new Date(Date.now() + 86_400_000)));
        expect(future).toBeInstanceOf(ValidationError);
        expect(future).toMatchObject({ status: 400, field: 'since', message: 'since: must not be in the future' });
        expect(await rejection(grace.webhooks.rotateSecret(hook.id))).toBeInstanceOf(PermissionDeniedError);
        expect(await rejection(ada.webhooks.recover('whk_nope', '2026-01-01'))).toBeInstanceOf(NotFoundError);
        await ada.webhooks.delete(hook.id);
      } finally {
        await receiver.close();
      }
    });
  });

  describe('events()', () => {
    const recordAsAnon = (path: string) => anon.analytics.recordPageView(path);

    it('yields the events REST mutations cause, in order, filtered by types, and remembers the last id', async () => {
      const prefix = unique('client-events');
      const stream = ada.events({ types: ['lesson.published', 'analytics.hit'] });
      const sub = collect(stream);
      try {
        await goLive(sub, recordAsAnon, prefix);
        const draft = await ada.lessons.create({ title: 'Streamed', body: 'body' });
        await ada.lessons.update(draft.id, { title: 'Streamed (updated)' }); // lesson.updated: filtered out
        await ada.lessons.publish(draft.id);
        await anon.analytics.recordPageView(`${prefix}/after`);
        await sub.until('the page view after the publish', (evs) => evs.some((e) => e.path === `${prefix}/after`));
        const seen = sub.events.filter((e) => e.event !== 'analytics.hit' || (e.path?.startsWith(`${prefix}/`) && !e.path.startsWith(`${prefix}/probe/`)));
        expect(seen).toEqual([
          { id: expect.stringMatching(EVENT_ID), event: 'lesson.published', timestamp: expect.stringMatching(ISO_MS_Z), lessonId: draft.id, userId: null, path: null, courseId: null },
          { id: expect.stringMatching(EVENT_ID), event: 'analytics.hit', timestamp: expect.stringMatching(ISO_MS_Z), lessonId: null, userId: null, path: `${prefix}/after`, courseId: null },
        ]);
        expect(stream.lastEventId).toBe(seen[1]!.id);

        // `after` starts a new stream right behind a known event: the later one is replayed.
        const replay = collect(ada.events({ types: ['lesson.published', 'analytics.hit'], after: seen[0]!.id }));
        await replay.until('the replayed page view', (evs) => evs.length >= 1);
        expect(replay.events[0]).toEqual(seen[1]);
        await replay.stop();
      } finally {
        await sub.stop();
      }
      expect(sub.failure).toBeUndefined();
    });

    it('break closes the connection; close() ends a pending next()', async () => {
      const net = streamControl();
      const keyed = new LearningClient({ baseUrl: server.url, apiKey: adaKey.key, fetch: net.fetch });
      const prefix = unique('client-break');
      const ticks: Promise<void>[] = [];
      const pump = setInterval(() => ticks.push(recordAsAnon(`${prefix}/tick`)), 100);
      try {
        for await (const event of keyed.events({ types: ['analytics.hit'] })) {
          expect(event.event).toBe('analytics.hit');
          break;
        }
      } finally {
        clearInterval(pump);
        await Promise.all(ticks);
      }
      expect(net.connections).toHaveLength(1);
      expect(net.connections[0]!.clientSignal?.aborted).toBe(true);

      const idle = keyed.events({ types: ['user.created'] });
      const pending = idle.next();
      await waitFor('the connection', () => net.connections.length === 2);
      idle.close();
      await expect(pending).resolves.toEqual({ done: true, value: undefined });
      expect(net.connections[1]!.clientSignal?.aborted).toBe(true);
    });

    it('resumes after a dropped connection with `after`: the events committed meanwhile arrive once, in order', async () => {
      const net = streamControl();
      const keyed = new LearningClient({ baseUrl: server.url, apiKey: adaKey.key, fetch: net.fetch });
      const prefix = unique('client-resume');
      const disconnects: unknown[] = [];
      const connects: { reconnect: boolean; after: string | undefined }[] = [];
      const stream = keyed.events({
        types: ['analytics.hit'],
        reconnectDelayMs: 50,
        onConnected: (info) => connects.push(info),
        onDisconnected: ({ error }) => disconnects.push(error),
      });
      const sub = collect(stream);
      try {
        await goLive(sub, recordAsAnon, prefix);
        for (let i = 0; i < 3; i++) await recordAsAnon(`${prefix}/before/${i}`);
        await sub.until('the events before the drop', (evs) => evs.some((e) => e.path === `${prefix}/before/2`));
        const lastBefore = stream.lastEventId;

        net.hold();
        net.cutAll();
        // The client noticed and is trying to reconnect; meanwhile three more events are committed.
        await waitFor('a reconnect attempt', () => net.waiting === 1);
        expect(disconnects).toHaveLength(1);
        for (let i = 0; i < 3; i++) await recordAsAnon(`${prefix}/gap/${i}`);
        net.release();
        await recordAsAnon(`${prefix}/live/0`);
        await sub.until('the live event after the reconnect', (evs) => evs.some((e) => e.path === `${prefix}/live/0`));

        expect(net.connections.map((c) => c.variables.after)).toEqual([undefined, lastBefore]);
        expect(connects).toEqual([{ reconnect: false, after: undefined }, { reconnect: true, after: lastBefore }]);
        const paths = sub.events.map((e) => e.path).filter((p) => p?.startsWith(`${prefix}/`) && !p.startsWith(`${prefix}/probe/`));
        expect(paths).toEqual([0, 1, 2].map((i) => `${prefix}/before/${i}`).concat([0, 1, 2].map((i) => `${prefix}/gap/${i}`), `${prefix}/live/0`));
        const ids = sub.events.map((e) => e.id);
        expect(new Set(ids).size).toBe(ids.length);
      } finally {
        await sub.stop();
      }
      expect(sub.failure).toBeUndefined();
    });

    it('a refusal that reconnecting cannot fix ends the stream with a typed error', async () => {
      const madeUp = new LearningClient({ baseUrl: server.url, apiKey: 'lp_not-a-real-key' }).events();
      const unauthenticated = await rejection(madeUp.next());
      expect(unauthenticated).toBeInstanceOf(AuthenticationError);
      expect(unauthenticated).toMatchObject({ code: 'UNAUTHENTICATED', status: 403, message: 'Missing or invalid token' });

      const expired = await rejection(ada.events({ after: 'evt_01JZZZZZZZZZZZZZZZZZZZZZZZ' }).next());
      expect(expired).toBeInstanceOf(ValidationError);
      expect(expired).toMatchObject({ code: 'BAD_USER_INPUT', status: 400, field: 'after' });

      // An empty `after` (a last id stored as "") is refused as the list refuses it, not dropped:
      // dropped, the stream went live and skipped everything committed since that client last ran.
      const empty = await rejection(ada.events({ after: '' }).next());
      expect(empty).toBeInstanceOf(ValidationError);
      expect(empty).toMatchObject({ code: 'BAD_USER_INPUT', status: 400, field: 'after' });
    });
  });
});

describe('events() across a server restart', () => {
  const it = restarting;

  it('reconnects to the restarted server after the last event it saw: nothing missed, nothing twice', { timeout: 120_000 }, async ({ server: started, api, alan: alanToken }) => {
    // Restarted below: the fixture's clean-up stops the restarted server.
    let server = started;
    const key = ((await api.post('/api/v1/api-keys', { name: 'restart' }, { token: alanToken })).body as CreatedApiKey).key;
    const net = streamControl();
    const alan = new LearningClient({ baseUrl: server.url, apiKey: key, fetch: net.fetch });
    const prefix = unique('client-restart');
    const record = (path: string) => new LearningClient({ baseUrl: server.url }).analytics.recordPageView(path);
    const stream = alan.events({ types: ['analytics.hit'], reconnectDelayMs: 100, maxReconnectDelayMs: 500 });
    const sub = collect(stream);
    try {
      await goLive(sub, record, prefix);
      for (let i = 0; i < 2; i++) await record(`${prefix}/before/${i}`);
      await sub.until('the events before the restart', (evs) => evs.some((e) => e.path === `${prefix}/before/1`));
      const lastBefore = stream.lastEventId;

      // Reconnects wait until events have been committed on the restarted server.
      net.hold();
      server = await server.restart();
      for (let i = 0; i < 2; i++) await record(`${prefix}/while-away/${i}`);
      net.release();
      await record(`${prefix}/live`);
      await sub.until('the live event after the restart', (evs) => evs.some((e) => e.path === `${prefix}/live`));

      expect(net.connections.map((c) => c.variables.after)).toEqual([undefined, lastBefore]);
      const paths = sub.events.map((e) => e.path).filter((p) => p?.startsWith(`${prefix}/`) && !p.startsWith(`${prefix}/probe/`));
      expect(paths).toEqual([`${prefix}/before/0`, `${prefix}/before/1`, `${prefix}/while-away/0`, `${prefix}/while-away/1`, `${prefix}/live`]);
      const ids = sub.events.map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      await sub.stop();
    }
    expect(sub.failure).toBeUndefined();
  });
});

describe('rate limits (429) with the tier limiter', () => {
  const it = limited;
  let server: TestServer;
  let api: Client;

  /** Waits out the rolling window, so the address's (and every user's) budget is whole again. */
  const freshBudget = () => sleep(WINDOW_S * 1000 + 200);

  it.beforeAll(({ server: started, api: itsClient }) => {
    [server, api] = [started, itsClient];
  });

  it('retryOnRateLimit: false throws RateLimitError with the contract body and retryAfterSeconds', async () => {
    await freshBudget();
    const net = recordingFetch();
    const impatient = new LearningClient({ baseUrl: server.url, retryOnRateLimit: false, fetch: net.fetch });
    for (let i = 0; i < 3; i++) await impatient.docs.list();
    const error = await rejection(impatient.docs.list());
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 429, message: 'Rate limit exceeded', requestId: expect.any(String) });
    const { retryAfterSeconds } = error as RateLimitError;
    expect(retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(retryAfterSeconds).toBeLessThanOrEqual(WINDOW_S);
    expect(net.calls.map((c) => c.status)).toEqual([200, 200, 200, 429]);
  });

  it('by default a 429 is waited out (Retry-After) and replayed: the call succeeds, and a POST takes effect once', async () => {
    await freshBudget();
    const net = recordingFetch();
    const patient = new LearningClient({ baseUrl: server.url, fetch: net.fetch });
    for (let i = 0; i < 3; i++) await patient.docs.list();
    const started = Date.now();
    const docs = await patient.docs.list();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(docs.length).toBeGreaterThan(0);
    expect(net.calls.slice(0, 4).map((c) => c.status)).toEqual([200, 200, 200, 429]);
    expect(net.calls.at(-1)!.status).toBe(200);

    // A refused POST had no effect, so replaying it records the page view exactly once.
    await freshBudget();
    net.calls.length = 0;
    const path = unique('client-429');
    for (let i = 0; i < 3; i++) await patient.docs.list();
    await patient.analytics.recordPageView(path);
    expect(net.calls.filter((c) => c.method === 'POST').map((c) => c.status)).toContain(429);
    expect(net.calls.at(-1)).toMatchObject({ method: 'POST', status: 202 });
    await freshBudget();
    expect(await patient.analytics.getPageViews({ path })).toBe(1);
  });

  it('a Retry-After longer than maxRetryDelayMs throws at once instead of sleeping', async () => {
    await freshBudget();
    const net = recordingFetch();
    const hurried = new LearningClient({ baseUrl: server.url, maxRetryDelayMs: 500, fetch: net.fetch });
    for (let i = 0; i < 3; i++) await hurried.docs.list();
    const started = Date.now();
    const error = await rejection(hurried.docs.list());
    expect(Date.now() - started).toBeLessThan(500);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(net.calls.map((c) => c.status)).toEqual([200, 200, 200, 429]);
  });

  it('GraphQL: HTTP 429 is RateLimitError with code RATE_LIMITED, and is waited out by default', async () => {
    await freshBudget();
    const impatient = new LearningClient({ baseUrl: server.url, retryOnRateLimit: false });
    for (let i = 0; i < 3; i++) await impatient.graphql.docs();
    const error = await rejection(impatient.graphql.docs());
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', message: 'Rate limit exceeded' });
    expect((error as RateLimitError).retryAfterSeconds).toBeGreaterThanOrEqual(1);

    const net = recordingFetch();
    const patient = new LearningClient({ baseUrl: server.url, fetch: net.fetch });
    const docs = await patient.graphql.docs();
    expect(docs.length).toBeGreaterThan(0);
    expect(net.calls.map((c) => c.status)).toEqual([429, 200]);
  });

  it('the event stream waits out a 429 on connect, then streams', async () => {
    await freshBudget();
    // Grace is FREE: three requests use up her budget; the stream's first connection is refused.
    const graceClient = new LearningClient({ baseUrl: server.url, token: (await api.loginAs('grace')).token });
    for (let i = 0; i < 3; i++) await graceClient.me().catch(() => undefined);
    const refusals: unknown[] = [];
    const stream = graceClient.events({ types: ['analytics.hit'], onDisconnected: ({ error }) => refusals.push(error) });
    const sub = collect(stream);
    // Alan is ENTERPRISE (unlimited): his page views are the probes.
    const alan = new LearningClient({ baseUrl: server.url, token: (await api.loginAs('alan')).token });
    try {
      await waitFor('the refused first connection', () => refusals.length > 0);
      expect(String((refusals[0] as Error).message)).toContain('429');
      await goLive(sub, (path) => alan.analytics.recordPageView(path), unique('client-429-stream'));
    } finally {
      await sub.stop();
    }
    expect(sub.failure).toBeUndefined();
  });
});

describe('a database outage (503 with Retry-After)', () => {
  const it = outage;
  let server: TestServer;

  /** Lets the service's database accept connections or not (and cuts the ones it has). */
  async function databaseAccepts(allow: boolean): Promise<void> {
    const name = new URL(server.databaseUrl!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS ${allow}`);
      if (!allow) await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
    } finally {
      await admin.end();
    }
  }

  it.beforeAll(({ server: started }) => {
    server = started;
  });
  // Let the server's stop reach its database again, whatever the test left.
  it.afterAll(() => databaseAccepts(true));

  it('replays a GET after its Retry-After once the database is back, and never replays a write', async () => {
    const net = recordingFetch();
    const anonymous = new LearningClient({ baseUrl: server.url, fetch: net.fetch });
    await databaseAccepts(false);

    const write = await rejection(anonymous.analytics.recordPageView('/during-the-outage'));
    expect(write).toBeInstanceOf(LearningApiError);
    expect(write).toMatchObject({ status: 503, code: 503 });
    expect(net.calls.filter((c) => c.method === 'POST').map((c) => c.status)).toEqual([503]);

    // The read waits out Retry-After (5 s); the database comes back in the meantime.
    const read = anonymous.docs.list();
    setTimeout(() => void databaseAccepts(true), 1000);
    const docs = await read;
    expect(docs.length).toBeGreaterThan(0);
    expect(net.calls.filter((c) => c.method === 'GET').map((c) => c.status)).toEqual([503, 200]);
  }, 60_000);
});
