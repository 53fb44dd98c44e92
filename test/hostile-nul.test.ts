// The one rule for NUL (U+0000, which PostgreSQL text cannot hold): REST query and body values and
// keys, and GraphQL variables and literal arguments, are refused with a 400 naming the field
// before anything reads or writes them; an id in a path that holds one is the route's 404. Each
// case below answered 500 before, and must change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './support/assert.js';
import { client, type Client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
let api: Client;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ kind: 'postgres', env: NO_RATE_LIMITS });
  api = client(server.url);
  token = (await api.post('/api/auth/login', { email: 'ada@example.com', password: 'lovelace-1815' })).body.token as string;
});
afterAll(() => server?.stop());

/** What these requests could have changed: the user, the lessons, the API keys, the webhooks. */
async function state(): Promise<string> {
  const [me, lessons, keys, hooks] = await Promise.all([
    api.get('/api/v1/user/me', { token }),
    api.get('/api/v1/lessons?limit=100', { token }),
    api.get('/api/v1/api-keys', { token }),
    api.get('/api/v1/webhooks', { token }),
  ]);
  return JSON.stringify([me.body, lessons.body, keys.body, hooks.body]);
}

describe('REST', () => {
  it('refuses NUL in body values, body keys, nested values and query values, naming the field, changing nothing', async () => {
    const before = await state();
    const cases: [Promise<Parameters<typeof expectError>[0]>, string][] = [
      [api.patch('/api/v1/user/me', { name: 'nul\u0000byte' }, { token }), 'name'],
      [api.post('/api/v1/lessons', { title: 'a\u0000', body: 'b' }, { token }), 'title'],
      [api.post('/api/v1/lessons', { title: 'ok', summary: 's', body: 'b\u0000' }, { token }), 'body'],
      [api.post('/api/v1/api-keys', { name: 'k\u0000' }, { token }), 'name'],
      [api.post('/api/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['lesson.published\u0000'] }, { token }), 'events.0'],
      [api.get('/api/v1/lessons?id=%00', { token }), 'query.id'],
      [api.post('/api/v1/lessons/publish?id=les_%00', {}, { token }), 'query.id'],
      [api.get('/api/analytics/views?path=/a%00', {}), 'query.path'],
    ];
    for (const [reply, field] of cases) expectError(await reply, 400, `${field}: must not contain NUL characters`, field);
    // A key with NUL is refused too (strict bodies would call it unknown; it never gets that far).
    const key = await api.post('/api/v1/api-keys', JSON.parse('{"na\\u0000me":"x"}') as object, { token });
    expectError(key, 400, 'na\u0000me: must not contain NUL characters', 'na\u0000me');
    // Deeply nested, the rule walks without recursion.
    let nested: unknown = 'deep\u0000';
    for (let i = 0; i < 2_000; i++) nested = [nested];
    expect((await api.patch('/api/v1/user/me', { name: nested }, { token })).status).toBe(400);
    expect(await state()).toBe(before);
  });

  it('answers 404 for ids in a path that hold NUL (no row can have one), echoing nothing', async () => {
    const before = await state();
    expectError(await api.get('/api/users/%00'), 404, 'User not found');
    expectError(await api.delete('/api/v1/api-keys/%00', { token }), 404, 'API key not found');
    expectError(await api.get('/api/v1/webhooks/%00', { token }), 404, 'Webhook not found');
    expectError(await api.delete('/api/v1/sessions/%00', { token }), 404, 'Session not found');
    expect(await state()).toBe(before);
  });
});

describe('GraphQL', () => {
  const gql = (query: string, variables?: Record<string, unknown>) => api.post('/graphql', { query, variables }, { token });

  it('refuses NUL in a variable or a literal argument before any resolver runs, naming it', async () => {
    const before = await state();
    const byVariable = await gql('mutation ($name: String!) { updateMe(name: $name) { name } }', { name: 'a\u0000b' });
    expect(byVariable.body.data ?? null).toBeNull();
    expect(byVariable.body.errors).toEqual([
      expect.objectContaining({ message: 'name: must not contain NUL characters', extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) }),
    ]);
    const byLiteral = await gql('mutation { createApiKey(name: "k\\u0000") { id } }');
    expect(byLiteral.body.errors).toEqual([
      expect.objectContaining({ message: 'name: must not contain NUL characters', extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) }),
    ]);
    // An ID is a lookup: no lesson has one with NUL, so it is the service's NOT_FOUND, as in REST paths.
    const byId = await gql('query ($id: ID!) { lesson(id: $id) { id } }', { id: 'les_\u0000' });
    expect(byId.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const byIdLiteral = await gql('{ lesson(id: "les_\\u0000") { id } }');
    expect(byIdLiteral.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(await state()).toBe(before);
    // And a clean request on the same connection still works.
    expect((await gql('{ me { name } }')).body).toEqual({ data: { me: { name: 'Ada Lovelace' } } });
  });
});
