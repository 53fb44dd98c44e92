// The GraphQL surface over real HTTP (POST /graphql), against a real server on PostgreSQL:
// every root field of the contract, its errors (same messages as REST), the depth, alias and cost
// limits, no N+1 on lists, GraphiQL, the graphql-http compliance audits and error masking.
import { getIntrospectionQuery } from 'graphql';
import { serverAudits } from 'graphql-http';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import pg from 'pg';
import { describe, expect } from 'vitest';
import { serverTest } from './support/fixtures.js';
import type { Client, Reply } from './support/http.js';
import { passRefreshGrace } from './support/refresh-grace.js';
import type { TestServer } from './support/server.js';
import { NO_RATE_LIMITS } from './support/limits.js';

// Budgets high enough that the ~100 requests of this file never meet a rate limit.
const it = serverTest({ env: NO_RATE_LIMITS });

// The fixture's server, client and tokens, for the helpers below.
let server: TestServer;
let api: Client;
let ada: string; // ADMIN, PRO
let grace: string; // MEMBER, FREE
it.beforeAll(({ server: started, api: itsClient, ada: adaToken, grace: graceToken }) => {
  [server, api, ada, grace] = [started, itsClient, adaToken, graceToken];
});

const gql = (query: string, variables?: Record<string, unknown>, token?: string) =>
  api.graphql(query, variables, token ? { token } : undefined);

interface GraphQLErrorBody {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; status?: number; [key: string]: unknown };
}

/** The one error of a reply, after checking the reply is a GraphQL response with HTTP 200. */
function onlyError(reply: Reply): GraphQLErrorBody {
  expect(reply.status, reply.text).toBe(200);
  expect(reply.body.errors, reply.text).toHaveLength(1);
  return reply.body.errors[0] as GraphQLErrorBody;
}

/** A GraphQL field error and the REST error for the same question carry the same message and code. */
function expectSameError(reply: Reply, rest: Reply, code: string): void {
  const error = onlyError(reply);
  expect(rest.body).toMatchObject({ error: true, code: rest.status });
  // REST may name where a bad input was (`query.to`); a GraphQL argument has no such place.
  const restMessage = code === 'BAD_USER_INPUT' ? String(rest.body.message).replace(/^(query|body|params)\./, '') : rest.body.message;
  expect(error.message).toBe(restMessage);
  expect(error.extensions?.code).toBe(code);
  expect(error.extensions?.status).toBe(rest.status);
}

/** SQL that reads or writes the tables a lessons query touches (the caller's session, lessons, users). */
const dataQueries = () => server.queries.filter((q) => /"(Lesson|Session|User|DocPage)"/.test(q));
/**
 * For a refused operation: nothing of it ran. The one statement allowed is the caller's lookup
 * (session joined with its user), made before anything else to key the rate-limit budget.
 */
const expectNothingRan = () => {
  const ran = dataQueries();
  expect(ran.filter((q) => /"(Lesson|DocPage)"/.test(q))).toEqual([]);
  expect(ran.length).toBeLessThanOrEqual(1);
};

/** Every lesson ADMIN sees over REST (drafts included), newest first: every page of GET /api/v1/lessons. */
async function restLessons(): Promise<{ id: string; authorId: string; status: string }[]> {
  const items: { id: string; authorId: string; status: string }[] = [];
  let cursor: string | null = null;
  do {
    const page = await api.get(`/api/v1/lessons?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { token: ada });
    expect(page.status, page.text).toBe(200);
    items.push(...(page.body.items as typeof items));
    cursor = page.body.nextCursor as string | null;
  } while (cursor);
  return items;
}

describe('queries', () => {
  it('me: the current user; without a token UNAUTHENTICATED with the REST message', async () => {
    const reply = await gql('{ me { id name email joined role tier } }', undefined, ada);
    expect(reply.status).toBe(200);
    expect(reply.body.errors).toBeUndefined();
    expect(reply.body.data.me).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', role: 'ADMIN', tier: 'PRO' });
    expect(reply.body.data.me.joined).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const anonymous = await gql('{ me { id } }');
    expectSameError(anonymous, await api.get('/api/v1/user/me'), 'UNAUTHENTICATED');
    expect(anonymous.body.data).toBeNull();
    expect(onlyError(anonymous).path).toEqual(['me']);

    const badToken = await gql('{ me { id } }', undefined, 'not-a-jwt');
    expectSameError(badToken, await api.get('/api/v1/user/me', { token: 'not-a-jwt' }), 'UNAUTHENTICATED');
  });

  it('user(id): public fields only, and the User type has no email field', async () => {
    const me = (await gql('{ me { id name joined } }', undefined, ada)).body.data.me;
    const reply = await gql('query ($id: ID!) { user(id: $id) { id name joined } }', { id: me.id });
    expect(reply.body).toEqual({ data: { user: { id: me.id, name: 'Ada Lovelace', joined: me.joined } } });

    const type = await gql('{ __type(name: "User") { fields { name } } }');
    const fields = (type.body.data.__type.fields as { name: string }[]).map((f) => f.name).sort();
    // `lessons` is the user's published lessons (see 'lists'), not a private field; `enrollments`
    // answers only the user themself or an ADMIN (FORBIDDEN otherwise: enrollments-graphql).
    expect(fields).toEqual(['enrollments', 'id', 'joined', 'lessons', 'name']);

    const asksEmail = await gql('query ($id: ID!) { user(id: $id) { email } }', { id: me.id });
    expect(asksEmail.body.data).toBeUndefined();
    expect(asksEmail.body.errors[0].message).toBe('Cannot query field "email" on type "User".');
    expect(asksEmail.text).not.toContain('ada@example.com');

    const unknown = await gql('{ user(id: "usr_nobody") { id } }');
    expectSameError(unknown, await api.get('/api/users/usr_nobody'), 'NOT_FOUND');
    expect(unknown.body.data).toEqual({ user: null });
  });

  it('lesson(id): every field; drafts only for ADMIN; unknown is NOT_FOUND', async () => {
    const page = await api.get('/api/v1/lessons?limit=100', { token: ada });
    const draft = (page.body.items as { status: string; id: string }[]).find((l) => l.status === 'DRAFT')!;
    const published = (page.body.items as { status: string; id: string }[]).find((l) => l.status === 'PUBLISHED')!;
    const fields = 'id title summary body status authorId createdAt publishedAt updatedAt';

    const asAdmin = await gql(`query ($id: ID!) { lesson(id: $id) { ${fields} } }`, { id: draft.id }, ada);
    expect(asAdmin.body).toEqual({ data: { lesson: draft } });
    const asMember = await gql(`query ($id: ID!) { lesson(id: $id) { ${fields} } }`, { id: published.id }, grace);
    expect(asMember.body).toEqual({ data: { lesson: published } });

    const hidden = await gql('query ($id: ID!) { lesson(id: $id) { id } }', { id: draft.id }, grace);
    expectSameError(hidden, await api.get(`/api/v1/lessons?id=${draft.id}`, { token: grace }), 'NOT_FOUND');
    const unknown = await gql('{ lesson(id: "les_nope") { id } }', undefined, ada);
    expectSameError(unknown, await api.get('/api/v1/lessons?id=les_nope', { token: ada }), 'NOT_FOUND');
    expect(unknown.body.data).toEqual({ lesson: null });
    expectSameError(await gql('{ lesson(id: "les_nope") { id } }'), await api.get('/api/v1/lessons?id=les_nope'), 'UNAUTHENTICATED');
  });

  it('lessons: a Relay connection; walking every page gives the REST list in order', async () => {
    const rest = await api.get('/api/v1/lessons?limit=100', { token: ada });
    const expected = (rest.body.items as { id: string }[]).map((l) => l.id);
    expect(expected.length).toBeGreaterThanOrEqual(5);

    const query = `query ($first: Int, $after: String) {
      lessons(first: $first, after: $after) {
        edges { cursor node { id } }
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      }
    }`;
    const seen: string[] = [];
    let after: string | null = null;
    for (let pageNo = 0; pageNo < 50; pageNo++) {
      const reply = await gql(query, { first: 2, after }, ada);
      expect(reply.body.errors, reply.text).toBeUndefined();
      const { edges, pageInfo } = reply.body.data.lessons as {
        edges: { cursor: string; node: { id: string } }[];
        pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
      };
      expect(edges.length).toBeGreaterThan(0);
      expect(edges.length).toBeLessThanOrEqual(2);
      expect(pageInfo.startCursor).toBe(edges[0]!.cursor);
      expect(pageInfo.endCursor).toBe(edges[edges.length - 1]!.cursor);
      expect(pageInfo.hasPreviousPage).toBe(after !== null);
      seen.push(...edges.map((e) => e.node.id));
      expect(pageInfo.hasNextPage).toBe(seen.length < expected.length);
      if (!pageInfo.hasNextPage) break;
      after = pageInfo.endCursor;
    }
    expect(seen).toEqual(expected);

    // Without `first`: the default page of 20; a MEMBER sees no drafts.
    const all = await gql('{ lessons { edges { node { id status } } pageInfo { hasNextPage } } }', undefined, grace);
    const statuses = (all.body.data.lessons.edges as { node: { status: string } }[]).map((e) => e.node.status);
    expect(statuses.length).toBe(Math.min(20, expected.length - 1));
    expect(new Set(statuses)).toEqual(new Set(['PUBLISHED']));
  });

  it('lessons: first outside 1-100 and a garbage cursor are BAD_USER_INPUT; no token is UNAUTHENTICATED', async () => {
    for (const first of [0, 101, -1]) {
      const reply = await gql('query ($first: Int) { lessons(first: $first) { edges { cursor } } }', { first }, ada);
      const error = onlyError(reply);
      expect(error).toMatchObject({ message: 'first: must be an integer from 1 to 100', extensions: { code: 'BAD_USER_INPUT', status: 400 } });
      expect(reply.body.data).toBeNull();
      const rest = await api.get(`/api/v1/lessons?limit=${first}`, { token: ada });
      expect(rest.status).toBe(400);
    }
    const garbage = await gql('{ lessons(after: "definitely-not-a-cursor") { edges { cursor } } }', undefined, ada);
    expect(onlyError(garbage)).toMatchObject({ message: 'after: is not a valid cursor', extensions: { code: 'BAD_USER_INPUT', status: 400 } });
    const rest = await api.get('/api/v1/lessons?cursor=definitely-not-a-cursor', { token: ada });
    expect(rest.body.message).toMatch(/^(query\.)?cursor: is not a valid cursor$/);

    const backwards = await gql('{ lessons(last: 2) { edges { cursor } } }', undefined, ada);
    expect(onlyError(backwards).extensions).toMatchObject({ code: 'BAD_USER_INPUT', status: 400 });

    expectSameError(await gql('{ lessons { edges { cursor } } }'), await api.get('/api/v1/lessons'), 'UNAUTHENTICATED');
  });

  it('docs: every documentation page, as REST lists them', async () => {
    const reply = await gql('{ docs { id slug title url updatedAt } }');
    const rest = await api.get('/api/content/docs');
    expect(reply.body).toEqual({ data: { docs: rest.body } });
    expect(reply.body.data.docs.length).toBeGreaterThanOrEqual(5);
  });

  it('pageViews: totals with path, from and to; a bad date is BAD_USER_INPUT', async () => {
    const query = 'query ($path: String, $from: DateTime, $to: DateTime) { pageViews(path: $path, from: $from, to: $to) }';
    const total = (await gql(query)).body.data.pageViews as number;
    expect(total).toBeGreaterThan(0);
    const onePath = (await gql(query, { path: '/docs/getting-started' })).body.data.pageViews as number;
    expect(onePath).toBeGreaterThan(0);
    expect(onePath).toBeLessThan(total);
    expect((await gql(query, { from: '2000-01-01', to: '2000-01-02' })).body.data.pageViews).toBe(0);
    expect((await gql(query, { from: '2000-01-01T00:00:00Z' })).body.data.pageViews).toBe(total);

    const bad = await gql(query, { from: 'yesterday' });
    expect(bad.body.data).toBeUndefined();
    expect(bad.body.errors[0].message).toContain('DateTime');
    const reversed = await gql(query, { from: '2020-01-02', to: '2020-01-01' });
    expectSameError(reversed, await api.get('/api/analytics/views?from=2020-01-02&to=2020-01-01'), 'BAD_USER_INPUT');
  });
});

describe('mutations', () => {
  const pairFields = 'token expiresIn refreshToken refreshExpiresIn';

  it('login: a token pair; a wrong password has the REST message', async () => {
    const reply = await gql(`mutation { login(email: "alan@example.com", password: "turing-1912") { ${pairFields} } }`);
    expect(reply.body.errors).toBeUndefined();
    const pair = reply.body.data.login;
    expect(pair).toMatchObject({ expiresIn: 86400, refreshExpiresIn: 2592000 });
    const me = await gql('{ me { email tier } }', undefined, pair.token);
    expect(me.body.data.me).toEqual({ email: 'alan@example.com', tier: 'ENTERPRISE' });

    const wrong = await gql('mutation { login(email: "alan@example.com", password: "wrong-password") { token } }');
    const rest = await api.post('/api/auth/login', { email: 'alan@example.com', password: 'wrong-password' });
    expectSameError(wrong, rest, 'INVALID_CREDENTIALS');
    expect(wrong.body.data).toBeNull();
  });

  it('register: the new user and a pair; the same e-mail again is a CONFLICT', async () => {
    const mutation = `mutation ($email: String!) {
      register(email: $email, password: "correct-horse", name: "Barbara Liskov") { user { id email name role tier joined } ${pairFields} }
    }`;
    const reply = await gql(mutation, { email: 'Barbara@Example.com' });
    expect(reply.body.errors, reply.text).toBeUndefined();
    const { user, token } = reply.body.data.register;
    expect(user).toMatchObject({ email: 'barbara@example.com', name: 'Barbara Liskov', role: 'MEMBER', tier: 'FREE' });
    expect((await api.get('/api/v1/user/me', { token })).body).toEqual(user);

    const again = await gql(mutation, { email: 'barbara@example.com' });
    const rest = await api.post('/api/auth/register', { email: 'barbara@example.com', password: 'correct-horse', name: 'B' });
    expectSameError(again, rest, 'CONFLICT');

    const short = await gql('mutation { register(email: "x@example.com", password: "short", name: "X") { token } }');
    const restShort = await api.post('/api/auth/register', { email: 'x@example.com', password: 'short', name: 'X' });
    expectSameError(short, restShort, 'BAD_USER_INPUT');
  });

  it('refreshToken rotates; logout ends the session and its access tokens', async () => {
    const login = (await gql(`mutation { login(email: "grace@example.com", password: "hopper-1906") { ${pairFields} } }`)).body.data.login;
    const refresh = 'mutation ($t: String!) { refreshToken(refreshToken: $t) { token refreshToken expiresIn } }';
    const next = (await gql(refresh, { t: login.refreshToken })).body.data.refreshToken;
    expect(next.refreshToken).not.toBe(login.refreshToken);
    expect(next.expiresIn).toBe(86400);

    // Presented again past the reuse grace: reuse.
    await passRefreshGrace(server, login.refreshToken);
    const reused = await gql(refresh, { t: login.refreshToken });
    const rest = await api.post('/api/auth/refresh', { refreshToken: 'rt_unknown' });
    expectSameError(reused, rest, 'INVALID_CREDENTIALS');

    // The reuse revoked the family; a fresh login to test logout.
    const fresh = (await gql(`mutation { login(email: "grace@example.com", password: "hopper-1906") { ${pairFields} } }`)).body.data.login;
    expect((await gql('{ me { email } }', undefined, fresh.token)).body.data.me.email).toBe('grace@example.com');
    const out = await gql('mutation ($t: String!) { logout(refreshToken: $t) }', { t: fresh.refreshToken });
    expect(out.body).toEqual({ data: { logout: true } });
    expectSameError(await gql('{ me { email } }', undefined, fresh.token), await api.get('/api/v1/user/me', { token: fresh.token }), 'UNAUTHENTICATED');
    // Logging out an unknown token is fine too.
    expect((await gql('mutation { logout(refreshToken: "rt_unknown") }')).body).toEqual({ data: { logout: true } });
  });

  it('updateMe: renames the caller; needs a token; the name is validated like REST', async () => {
    const reply = await gql('mutation { updateMe(name: "Alan M. Turing") { name email } }', undefined, (await api.loginAs('alan')).token);
    expect(reply.body).toEqual({ data: { updateMe: { name: 'Alan M. Turing', email: 'alan@example.com' } } });
    const { token } = await api.loginAs('alan');
    expect((await api.get('/api/v1/user/me', { token })).body.name).toBe('Alan M. Turing');

    expectSameError(await gql('mutation { updateMe(name: "x") { name } }'), await api.patch('/api/v1/user/me', { name: 'x' }), 'UNAUTHENTICATED');
    const empty = await gql('mutation { updateMe(name: "  ") { name } }', undefined, token);
    expectSameError(empty, await api.patch('/api/v1/user/me', { name: '  ' }, { token }), 'BAD_USER_INPUT');
  });

  it('createLesson, updateLesson, publishLesson: ADMIN only (FORBIDDEN for a member, UNAUTHENTICATED without a token)', async () => {
    const fields = 'id title summary body status authorId publishedAt';
    const created = await gql(
      `mutation ($input: CreateLessonInput!) { createLesson(input: $input) { ${fields} } }`,
      { input: { title: 'Recursion', summary: 'Functions that call themselves.', body: 'To understand recursion...' } },
      ada,
    );
    expect(created.body.errors, created.text).toBeUndefined();
    const lesson = created.body.data.createLesson;
    expect(lesson).toMatchObject({ title: 'Recursion', status: 'DRAFT', publishedAt: null });

    const updated = await gql(
      `mutation ($id: ID!) { updateLesson(id: $id, input: { title: "Recursion, again", summary: null }) { ${fields} } }`,
      { id: lesson.id },
      ada,
    );
    expect(updated.body.data.updateLesson).toMatchObject({ id: lesson.id, title: 'Recursion, again', summary: null, body: lesson.body });

    const published = await gql(`mutation ($id: ID!) { publishLesson(id: $id) { ${fields} } }`, { id: lesson.id }, ada);
    expect(published.body.data.publishLesson).toMatchObject({ id: lesson.id, status: 'PUBLISHED' });
    expect(Date.parse(published.body.data.publishLesson.publishedAt)).not.toBeNaN();
    const twice = await gql('mutation ($id: ID!) { publishLesson(id: $id) { id } }', { id: lesson.id }, ada);
    expectSameError(twice, await api.post(`/api/v1/lessons/publish?id=${lesson.id}`, undefined, { token: ada }), 'CONFLICT');

    const unknown = await gql('mutation { updateLesson(id: "les_nope", input: { title: "x" }) { id } }', undefined, ada);
    expectSameError(unknown, await api.patch('/api/v1/lessons?id=les_nope', { title: 'x' }, { token: ada }), 'NOT_FOUND');
    const emptyTitle = await gql('mutation { createLesson(input: { title: "", body: "b" }) { id } }', undefined, ada);
    expectSameError(emptyTitle, await api.post('/api/v1/lessons', { title: '', body: 'b' }, { token: ada }), 'BAD_USER_INPUT');

    const asMember = {
      create: 'mutation { createLesson(input: { title: "t", body: "b" }) { id } }',
      update: `mutation { updateLesson(id: "${lesson.id}", input: { title: "t" }) { id } }`,
      publish: `mutation { publishLesson(id: "${lesson.id}") { id } }`,
    };
    const restForbidden = await api.post('/api/v1/lessons', { title: 't', body: 'b' }, { token: grace });
    const restAnonymous = await api.post('/api/v1/lessons', { title: 't', body: 'b' });
    for (const mutation of Object.values(asMember)) {
      expectSameError(await gql(mutation, undefined, grace), restForbidden, 'FORBIDDEN');
      expectSameError(await gql(mutation), restAnonymous, 'UNAUTHENTICATED');
    }
    // Nothing the refused calls asked for happened.
    const after = await gql(`query ($id: ID!) { lesson(id: $id) { title } }`, { id: lesson.id }, ada);
    expect(after.body.data.lesson.title).toBe('Recursion, again');
  });

  it('recordPageView: counts one view (no token needed); a bad path is BAD_USER_INPUT', async () => {
    const count = 'query { pageViews(path: "/graphql-test") }';
    expect((await gql(count)).body.data.pageViews).toBe(0);
    expect((await gql('mutation { recordPageView(path: "/graphql-test") }')).body).toEqual({ data: { recordPageView: true } });
    expect((await gql(count)).body.data.pageViews).toBe(1);
    expect((await api.get('/api/analytics/views?path=/graphql-test')).body).toEqual({ total: 1 });

    const bad = await gql('mutation { recordPageView(path: "no-slash") }');
    expectSameError(bad, await api.post('/api/analytics/views', { path: 'no-slash' }), 'BAD_USER_INPUT');
  });
});

describe('limits', () => {
  /** `__type(name: "Query") { fields { type { ofType { … { name } } } } }`: depth 4 + ofTypes. */
  const typeChain = (ofTypes: number) => `__type(name: "Query") { fields { type { ${'ofType { '.repeat(ofTypes)}name${' }'.repeat(ofTypes)} } } }`;
  /** An operation `depth` levels deep that reads lessons (SQL) if it runs at all. */
  const deepQuery = (depth: number) => `{ lessons(first: 1) { edges { node { id } } } ${typeChain(depth - 4)} }`;

  it('a query deeper than 12 levels is refused before execution; 12 runs', async () => {
    server.queries.length = 0;
    const ok = await gql(deepQuery(12), undefined, ada);
    expect(ok.body.errors, ok.text).toBeUndefined();
    expect(ok.body.data.lessons.edges).toHaveLength(1);
    expect(dataQueries().some((q) => q.includes('"Lesson"'))).toBe(true);

    server.queries.length = 0;
    const refused = await gql(deepQuery(13), undefined, ada);
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors).toHaveLength(1);
    expect(refused.body.errors[0].message).toMatch(/depth limit of 12 exceeded, found 13/);
    expectNothingRan();

    // Fragments do not hide depth.
    server.queries.length = 0;
    const viaFragments = await gql(
      `query { ...L __type(name: "Query") { ...F } }
       fragment L on Query { lessons(first: 1) { edges { node { id } } } }
       fragment F on __Type { fields { type { ${'ofType { '.repeat(9)}name${' }'.repeat(9)} } } }`,
      undefined,
      ada,
    );
    expect(viaFragments.body.errors?.[0]?.message).toMatch(/depth limit of 12 exceeded/);
    expectNothingRan();
  });

  it('the standard introspection query is allowed', async () => {
    const reply = await gql(getIntrospectionQuery());
    expect(reply.status).toBe(200);
    expect(reply.body.errors).toBeUndefined();
    const names = (reply.body.data.__schema.types as { name: string }[]).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['Query', 'Mutation', 'Lesson', 'User', 'CurrentUser', 'DateTime']));
  });

  it('51 aliases are refused before execution; 50 run', async () => {
    const aliased = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: docs { id }`).join(' ')} }`;
    server.queries.length = 0;
    const ok = await gql(aliased(50));
    expect(ok.body.errors, ok.text.slice(0, 500)).toBeUndefined();
    expect(Object.keys(ok.body.data)).toHaveLength(50);
    expect(dataQueries().length).toBeGreaterThan(0);

    server.queries.length = 0;
    const refused = await gql(aliased(51), undefined, ada);
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors).toHaveLength(1);
    expect(refused.body.errors[0].message).toMatch(/Aliases limit of 50 exceeded, found 51/);
    expectNothingRan();

    // __typename counts too, though graphql-armor exempts it by default: each alias of it is a field
    // executed. (3,000 of them are refused earlier, as a document of more than 1,000 tokens.)
    const typenames = await gql(`{ ${Array.from({ length: 300 }, (_, i) => `t${i}: __typename`).join(' ')} }`);
    expect(typenames.body.data).toBeUndefined();
    expect(typenames.body.errors[0].message).toMatch(/Aliases limit of 50 exceeded, found 300/);
    const thousands = await gql(`{ ${Array.from({ length: 3_000 }, (_, i) => `t${i}: __typename`).join(' ')} }`);
    expect(thousands.body.data).toBeUndefined();
    expect(thousands.body.errors[0].message).toBe('Syntax Error: Document contains more that 1000 tokens. Parsing aborted.');
    const fifty = await gql(`{ ${Array.from({ length: 50 }, (_, i) => `t${i}: __typename`).join(' ')} }`);
    expect(Object.keys(fifty.body.data)).toHaveLength(50);
  });

  it('an operation that would fetch too much is refused by its cost before execution; the same walk one level shallower runs', async () => {
    // Depth 12 and 50 aliases let this ask for 100 × 100 × 100 lessons: a million nodes, 31 MB in 4.5 s
    // (eight aliases of it took 82 s and 4.3 GB of memory).
    const walk = (levels: number, first: string) =>
      `${'lessons(first: FIRST) { edges { node { author { '.repeat(levels - 1)}lessons(first: FIRST) { edges { node { title } } pageInfo { hasNextPage } }${' } } } }'.repeat(levels - 1)}`.replaceAll('FIRST', first);
    const twoLevels = await gql(`{ ${walk(2, '100')} }`, undefined, ada);
    expect(twoLevels.body.errors, twoLevels.text.slice(0, 300)).toBeUndefined();
    expect(twoLevels.body.data.lessons.edges.length).toBeGreaterThan(0);

    for (const [query, variables] of [
      [`{ ${walk(3, '100')} }`, undefined],
      // The cost follows the variables.
      [`query ($n: Int) { ${walk(3, '$n')} }`, { n: 100 }],
    ] as const) {
      server.queries.length = 0;
      const refused = await gql(query, variables, ada);
      expect(refused.body.data).toBeUndefined();
      expect(refused.body.errors).toHaveLength(1);
      expect(refused.body.errors[0]).toMatchObject({
        message: expect.stringMatching(/^Query cost 5040401 exceeds the limit of 100000: ask for fewer nodes \(first\) or fewer fields/),
        extensions: { code: 'BAD_USER_INPUT', status: 400, details: { cost: 5_040_401, limit: 100_000 } },
      });
      expectNothingRan();
    }
    // Asking for fewer nodes fits: 10 × 10 × 10.
    const fewer = await gql(`query ($n: Int) { ${walk(3, '$n')} }`, { n: 10 }, ada);
    expect(fewer.body.errors, fewer.text.slice(0, 300)).toBeUndefined();

    // Over a WebSocket too (graphql-ws runs the operation through the same plugins).
    // Connected first: connection_init checks the credential once, before the operation's own check.
    let connected!: () => void;
    const ready = new Promise<void>((resolve) => (connected = resolve));
    const ws = createWsClient({ url: `${server.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${ada}` }, lazy: false, on: { connected } });
    try {
      await ready;
      server.queries.length = 0;
      const overWs = await new Promise<unknown>((resolve) => {
        ws.subscribe({ query: `{ ${walk(3, '100')} }` }, { next: resolve, error: resolve, complete: () => undefined });
      });
      expect(overWs).toMatchObject({ errors: [{ message: expect.stringMatching(/^Query cost 5040401 exceeds the limit of 100000/), extensions: { code: 'BAD_USER_INPUT' } }] });
      expectNothingRan();
    } finally {
      await ws.dispose();
    }
  });
});

describe('lists', () => {
  it('lessons with their authors take the same few SQL statements for 2 lessons as for 20 (no N+1)', async () => {
    // A second author: ADMIN accounts are not made through the API, so straight into the database.
    const db = new pg.Client({ connectionString: server.databaseUrl });
    await db.connect();
    try {
      await db.query(
        `INSERT INTO "User" (id, email, name, "passwordHash", role, tier, "createdAt", "updatedAt")
         VALUES ('usr_test_hedy', 'hedy@example.com', 'Hedy Lamarr', 'x', 'ADMIN', 'PRO', now(), now())`,
      );
      for (let i = 0; i < 8; i++) {
        await db.query(
          `INSERT INTO "Lesson" (id, title, body, status, "authorId", "createdAt", "publishedAt", "updatedAt")
           VALUES ($1, $2, 'Frequency hopping.', 'PUBLISHED', 'usr_test_hedy', now() + ($3 || ' seconds')::interval, now(), now())`,
          [`les_test_hedy_${i}`, `Spread spectrum ${i}`, String(i * 2)],
        );
      }
    } finally {
      await db.end();
    }
    for (let i = 0; i < 8; i++) {
      const created = await gql(`mutation { createLesson(input: { title: "Ada's notes ${i}", body: "Note G" }) { id } }`, undefined, ada);
      expect(created.body.errors).toBeUndefined();
    }

    const query = 'query ($first: Int) { lessons(first: $first) { edges { node { id authorId author { id name } } } } }';
    const statementsFor = async (first: number) => {
      server.queries.length = 0;
      const reply = await gql(query, { first }, ada);
      expect(reply.body.errors, reply.text).toBeUndefined();
      const nodes = (reply.body.data.lessons.edges as { node: { authorId: string; author: { id: string; name: string } } }[]).map((e) => e.node);
      for (const node of nodes) expect(node.author.id).toBe(node.authorId);
      // Only what touches the data (the event relay polls in the background).
      return { nodes, statements: dataQueries() };
    };

    const two = await statementsFor(2);
    const twenty = await statementsFor(20);
    expect(two.nodes).toHaveLength(2);
    expect(twenty.nodes).toHaveLength(20);
    expect(new Set(twenty.nodes.map((n) => n.author.name))).toEqual(new Set(['Ada Lovelace', 'Hedy Lamarr']));
    // Token check, the page, the authors: a handful, and the same number however long the page.
    expect(twenty.statements.length).toBe(two.statements.length);
    expect(twenty.statements.length).toBeLessThanOrEqual(4);
    // Every author of the page in one statement (the token check reads the caller's account in its own).
    const authorReads = twenty.statements.filter((q) => /"User"\."name"/.test(q));
    expect(authorReads).toHaveLength(1);
    expect(authorReads[0]).toMatch(/WHERE "public"\."User"\."id" IN \(\$1,\$2\)/);
  });

  it("user lessons: each author's published lessons newest first (never drafts, even for ADMIN), one statement for every author, paged with after", async () => {
    // Runs after the test above: Hedy has 8 published lessons, Ada published ones and drafts. Publish
    // some of Ada's drafts so that her published and draft lessons interleave.
    const adaId = (await gql('{ me { id } }', undefined, ada)).body.data.me.id as string;
    const adaDrafts = (await restLessons()).filter((l) => l.authorId === adaId && l.status === 'DRAFT');
    for (const draft of adaDrafts.filter((_, i) => i % 2 === 0)) {
      const published = await gql('mutation ($id: ID!) { publishLesson(id: $id) { id } }', { id: draft.id }, ada);
      expect(published.body.errors, published.text).toBeUndefined();
    }
    const everything = await restLessons();
    const publishedBy = (authorId: string) => everything.filter((l) => l.authorId === authorId && l.status === 'PUBLISHED').map((l) => l.id);
    expect(everything.some((l) => l.authorId === adaId && l.status === 'DRAFT')).toBe(true);
    expect(publishedBy(adaId).length).toBeGreaterThan(3);
    expect(publishedBy('usr_test_hedy')).toHaveLength(8);

    const query = `query ($first: Int) {
      lessons(first: $first) { edges { node { id author { id lessons(first: 3) {
        edges { cursor node { id title status author { id } } }
        pageInfo { hasNextPage endCursor }
      } } } } }
    }`;
    interface AuthorLessons {
      edges: { cursor: string; node: { id: string; title: string; status: string; author: { id: string } } }[];
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
    }
    const statementsFor = async (first: number, token: string) => {
      server.queries.length = 0;
      const reply = await gql(query, { first }, token);
      expect(reply.body.errors, reply.text).toBeUndefined();
      const authors = (reply.body.data.lessons.edges as { node: { author: { id: string; lessons: AuthorLessons } } }[]).map((e) => e.node.author);
      for (const author of authors) {
        const expected = publishedBy(author.id);
        expect(author.lessons.edges.map((e) => e.node.id)).toEqual(expected.slice(0, 3));
        for (const { node } of author.lessons.edges) expect(node).toMatchObject({ status: 'PUBLISHED', author: { id: author.id } });
        expect(author.lessons.pageInfo.hasNextPage).toBe(expected.length > 3);
        expect(author.lessons.pageInfo.endCursor).toBe(author.lessons.edges.at(-1)?.cursor ?? null);
      }
      return { authors, statements: dataQueries() };
    };
    const two = await statementsFor(2, ada);
    const twenty = await statementsFor(20, ada);
    expect(new Set(twenty.authors.map((a) => a.id))).toEqual(new Set([adaId, 'usr_test_hedy']));
    expect(twenty.statements.length).toBe(two.statements.length);
    // Token check, the page, the authors, and every author's lessons in one more.
    expect(twenty.statements.length).toBeLessThanOrEqual(4);
    const lessonsOfAuthors = twenty.statements.filter((q) => /"authorId" = ANY/.test(q));
    expect(lessonsOfAuthors).toHaveLength(1);
    // A MEMBER gets the same lists (statementsFor checks them): drafts are never in them, whoever asks.
    const asMember = await statementsFor(20, grace);
    expect(asMember.statements.length).toBe(twenty.statements.length);

    // One statement per distinct (first, after), however many users ask for it.
    server.queries.length = 0;
    const aliased = await gql(
      `{ lessons(first: 20) { edges { node { author { id
        two: lessons(first: 2) { edges { node { id } } }
        three: lessons(first: 3) { edges { node { id } } }
        twoAgain: lessons(first: 2) { edges { node { id } } }
      } } } } }`,
      undefined,
      ada,
    );
    expect(aliased.body.errors, aliased.text).toBeUndefined();
    type Ids = { edges: { node: { id: string } }[] };
    const ids = (connection: Ids) => connection.edges.map((e) => e.node.id);
    const aliasedAuthors = (aliased.body.data.lessons.edges as { node: { author: { id: string; two: Ids; three: Ids; twoAgain: Ids } } }[]).map((e) => e.node.author);
    expect(new Set(aliasedAuthors.map((a) => a.id))).toEqual(new Set([adaId, 'usr_test_hedy']));
    for (const author of aliasedAuthors) {
      expect(ids(author.two)).toEqual(publishedBy(author.id).slice(0, 2));
      expect(ids(author.three)).toEqual(publishedBy(author.id).slice(0, 3));
      expect(ids(author.twoAgain)).toEqual(ids(author.two));
    }
    expect(dataQueries().filter((q) => /"authorId" = ANY/.test(q))).toHaveLength(2);

    // Paging with `after` walks every published lesson once, in order.
    const pageQuery = `query ($id: ID!, $after: String) {
      user(id: $id) { lessons(first: 2, after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } } }
    }`;
    const seen: string[] = [];
    let after: string | null = null;
    for (let pageNo = 0; pageNo < 50; pageNo++) {
      const reply = await gql(pageQuery, { id: adaId, after }, ada);
      expect(reply.body.errors, reply.text).toBeUndefined();
      const { edges, pageInfo } = reply.body.data.user.lessons as { edges: { node: { id: string } }[]; pageInfo: { hasNextPage: boolean; endCursor: string } };
      seen.push(...edges.map((e) => e.node.id));
      if (!pageInfo.hasNextPage) break;
      after = pageInfo.endCursor;
    }
    expect(seen).toEqual(publishedBy(adaId));
    // A user who wrote nothing has an empty connection.
    const graceId = (await gql('{ me { id } }', undefined, grace)).body.data.me.id as string;
    const none = await gql(pageQuery, { id: graceId, after: null }, grace);
    expect(none.body).toEqual({ data: { user: { lessons: { edges: [], pageInfo: { hasNextPage: false, endCursor: null } } } } });

    // The page arguments are checked as Query.lessons checks them.
    const badPage = async (variables: { first?: number; after?: string }) => {
      const reply = await gql('query ($id: ID!, $first: Int, $after: String) { user(id: $id) { lessons(first: $first, after: $after) { edges { cursor } } } }', { id: adaId, ...variables }, ada);
      expect(reply.body.data).toEqual({ user: null });
      return onlyError(reply);
    };
    for (const first of [0, 101]) {
      expect(await badPage({ first })).toMatchObject({
        message: 'first: must be an integer from 1 to 100', path: ['user', 'lessons'], extensions: { code: 'BAD_USER_INPUT', status: 400 },
      });
    }
    expect(await badPage({ after: 'garbage' })).toMatchObject({ message: 'after: is not a valid cursor', extensions: { code: 'BAD_USER_INPUT', status: 400 } });
    // A user's public fields need no token; the lessons do, as everywhere else.
    const anonymous = await gql('query ($id: ID!) { user(id: $id) { lessons { edges { cursor } } } }', { id: adaId });
    expect(onlyError(anonymous).extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('HTTP', () => {
  it('field errors keep HTTP 200 (GraphQL over HTTP), with data alongside', async () => {
    const reply = await gql('{ docs { id } lesson(id: "les_nope") { id } }', undefined, ada);
    expect(reply.status).toBe(200);
    expect(reply.body.data.docs.length).toBeGreaterThan(0);
    expect(reply.body.data.lesson).toBeNull();
    expect(reply.body.errors[0]).toMatchObject({ path: ['lesson'], extensions: { code: 'NOT_FOUND', status: 404 } });
  });

  it('serves GraphiQL on GET /graphql to a browser outside production', async () => {
    const reply = await api.get('/graphql', { headers: { accept: 'text/html' } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/html/);
    expect(reply.text.toLowerCase()).toContain('graphiql');
  });

  it('passes every MUST audit of graphql-http (GraphQL over HTTP)', async () => {
    const audits = serverAudits({ url: `${server.url}/graphql` });
    const must = audits.filter((a) => a.name.startsWith('MUST'));
    expect(must.length).toBeGreaterThanOrEqual(10);
    const failures: string[] = [];
    for (const audit of must) {
      const result = await audit.fn();
      if (result.status !== 'ok') failures.push(`${audit.id} ${audit.name}: ${result.reason}`);
    }
    expect(failures).toEqual([]);
  });

  it('also passes the SHOULD and MAY audits (4xx for unparsable bodies and documents, 405 for a mutation over GET)', async () => {
    const others = serverAudits({ url: `${server.url}/graphql` }).filter((a) => !a.name.startsWith('MUST'));
    const failures: string[] = [];
    for (const audit of others) {
      const result = await audit.fn();
      if (result.status !== 'ok') failures.push(`${audit.id} ${audit.name}: ${result.reason}`);
    }
    expect(failures).toEqual([]);
  });

  it('answers OPTIONS with 204 and Allow, and a method GraphQL does not use with 405 and Allow, as a REST path does; preflights keep CORS', async () => {
    const rest = await api.request('OPTIONS', '/api/content/docs');
    expect(rest.status).toBe(204);
    const options = await api.request('OPTIONS', '/graphql');
    expect(options.status, options.text).toBe(204);
    expect(options.text).toBe('');
    expect(options.headers.get('allow')!.split(/,\s*/).sort()).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST']);
    // Every method Allow names is answered by the path (HEAD and GET of a query, POST of one).
    expect((await api.request('HEAD', '/graphql?query=%7B__typename%7D')).status).toBe(200);
    expect((await api.get('/graphql?query=%7B__typename%7D')).body).toEqual({ data: { __typename: 'Query' } });
    for (const method of ['DELETE', 'PUT', 'PATCH']) {
      const refused = await api.request(method, '/graphql', { body: { query: 'mutation { updateMe(name: "Nobody") { name } }' }, token: ada });
      expect(refused.status, method).toBe(405);
      expect(refused.headers.get('allow'), method).toBe(options.headers.get('allow'));
      expect(refused.body).toEqual({
        errors: [{
          message: `Method ${method} is not allowed on /graphql`,
          extensions: { code: 'METHOD_NOT_ALLOWED', status: 405, details: { allow: ['GET', 'HEAD', 'POST', 'OPTIONS'] } },
        }],
      });
    }
    expect((await gql('{ me { name } }', undefined, ada)).body.data.me.name).toBe('Ada Lovelace');
    // A CORS preflight is still the preflight answer, not Allow's.
    const preflight = await api.request('OPTIONS', '/graphql', {
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('content-type');
    expect(preflight.headers.get('access-control-max-age')).toBe('600');
  });
});

// Last: it breaks the database.
describe('masking', () => {
  it('an unexpected error is "Unexpected error." to the client, with the detail only in the log', async () => {
    const db = new pg.Client({ connectionString: server.databaseUrl });
    await db.connect();
    try {
      await db.query('DROP TABLE "DocPage"');
    } finally {
      await db.end();
    }
    const logsBefore = server.logs.length;
    const reply = await gql('{ docs { id } }');
    expect(reply.status).toBe(200);
    expect(reply.body.data).toBeNull();
    expect(reply.body.errors).toEqual([
      { message: 'Unexpected error.', locations: [{ line: 1, column: 3 }], path: ['docs'], extensions: { code: 'INTERNAL_SERVER_ERROR' } },
    ]);
    expect(reply.text).not.toMatch(/DocPage|relation|does not exist|prisma|select/i);
    const logged = JSON.stringify(server.logs.slice(logsBefore));
    expect(logged).toContain('DocPage');
    expect(logged).toContain('unexpected error in GraphQL');
  });
});
