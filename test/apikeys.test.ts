// API keys over real HTTP: create (the key shown once), list, revoke; a key acts as its owner
// wherever a token is accepted, as `Authorization: Bearer lp_…` or `X-API-Key: lp_…`, and stops
// working at once when revoked. Keys are per user and stored only as their hash.
import { describe, expect } from 'vitest';
import { expectError } from './support/assert.js';
import { serverTest, serverTestOn } from './support/fixtures.js';
import type { Client } from './support/http.js';
import { DATABASES, sql, type TestServer } from './support/server.js';
import { NO_RATE_LIMITS } from './support/limits.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const KEY = /^lp_[A-Za-z0-9_-]{43}$/;
const MISSING = 'Missing or invalid token';

interface Created { id: string; name: string; key: string; createdAt: string }

const overRest = serverTestOn({ env: NO_RATE_LIMITS });
const overGraphQL = serverTest({ env: NO_RATE_LIMITS });

describe.each(DATABASES)('API keys over REST on %s', (kind) => {
  const it = overRest[kind];
  // The fixture's server, client and tokens, for the helper and tests below.
  let server: TestServer;
  let api: Client;
  let grace: string;
  let alan: string;
  it.beforeAll(({ server: started, api: itsClient, grace: graceToken, alan: alanToken }) => {
    [server, api, grace, alan] = [started, itsClient, graceToken, alanToken];
  });

  async function create(name: string, token = grace): Promise<Created> {
    const reply = await api.post('/api/v1/api-keys', { name }, { token });
    expect(reply.status, reply.text).toBe(201);
    return reply.body as Created;
  }

  it('creates a key: 201 {id, name, key, createdAt}, the key shown once (never listed)', async () => {
    const reply = await api.post('/api/v1/api-keys', { name: 'CI' }, { token: grace });
    expect(reply.status, reply.text).toBe(201);
    expect(Object.keys(reply.body).sort()).toEqual(['createdAt', 'id', 'key', 'name']);
    const created = reply.body as Created;
    expect(created.id).toMatch(/^key_/);
    expect(created.name).toBe('CI');
    expect(created.key).toMatch(KEY);
    expect(created.createdAt).toMatch(ISO_MS);

    const list = await api.get('/api/v1/api-keys', { token: grace });
    expect(list.status).toBe(200);
    expect(Object.keys(list.body)).toEqual(['items']);
    const item = (list.body.items as Record<string, unknown>[]).find((k) => k.id === created.id)!;
    expect(item).toEqual({ id: created.id, name: 'CI', prefix: created.key.slice(3, 11), createdAt: created.createdAt, lastUsedAt: null });
    expect(list.text).not.toContain(created.key);
  });

  it('lists the caller\'s keys that are not revoked, newest first', async () => {
    const a = await create('first');
    const b = await create('second');
    const ids = ((await api.get('/api/v1/api-keys', { token: grace })).body.items as { id: string }[]).map((k) => k.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    expect((await api.delete(`/api/v1/api-keys/${a.id}`, { token: grace })).status).toBe(204);
    const after = ((await api.get('/api/v1/api-keys', { token: grace })).body.items as { id: string }[]).map((k) => k.id);
    expect(after).toContain(b.id);
    expect(after).not.toContain(a.id);
  });

  it('a key acts as its owner, as a Bearer token and as X-API-Key', async () => {
    const { key } = await create('client library');
    const me = await api.get('/api/v1/user/me', { token: grace });
    expect(me.status).toBe(200);
    const asBearer = await api.get('/api/v1/user/me', { token: key });
    expect(asBearer.status, asBearer.text).toBe(200);
    expect(asBearer.body).toEqual(me.body);
    const asHeader = await api.get('/api/v1/user/me', { headers: { 'x-api-key': key } });
    expect(asHeader.status, asHeader.text).toBe(200);
    expect(asHeader.body).toEqual(me.body);
    // GraphQL too, both ways.
    for (const o of [{ token: key }, { headers: { 'x-api-key': key } }]) {
      const gql = await api.graphql('{ me { id name email joined role tier } }', undefined, o);
      expect(gql.status).toBe(200);
      expect(gql.body.errors, gql.text).toBeUndefined();
      expect(gql.body.data.me).toEqual(me.body);
    }
    // A key can manage keys (it is its owner) and its use is recorded.
    const listed = await api.get('/api/v1/api-keys', { token: key });
    expect(listed.status).toBe(200);
    const own = (listed.body.items as { prefix: string; lastUsedAt: string | null }[]).find((k) => k.prefix === key.slice(3, 11))!;
    expect(own.lastUsedAt).toMatch(ISO_MS);
  });

  it('revoke: 204, then the key gets 403 at once, in both header forms', async () => {
    const { id, key } = await create('to revoke');
    expect((await api.get('/api/v1/user/me', { token: key })).status).toBe(200);
    const revoked = await api.delete(`/api/v1/api-keys/${id}`, { token: grace });
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe('');
    expectError(await api.get('/api/v1/user/me', { token: key }), 403, MISSING);
    expectError(await api.get('/api/v1/user/me', { headers: { 'x-api-key': key } }), 403, MISSING);
    // Revoking it again: it is gone.
    expectError(await api.delete(`/api/v1/api-keys/${id}`, { token: grace }), 404, `API key ${id} not found`);
  });

  it('unknown and malformed keys get 403', async () => {
    const { key } = await create('real');
    const forged = `lp_${'A'.repeat(43)}`;
    expectError(await api.get('/api/v1/user/me', { token: forged }), 403, MISSING);
    expectError(await api.get('/api/v1/user/me', { headers: { 'x-api-key': forged } }), 403, MISSING);
    expectError(await api.get('/api/v1/user/me', { headers: { 'x-api-key': key.slice(3) } }), 403, MISSING);
    expectError(await api.get('/api/v1/user/me', { headers: { 'x-api-key': `${key}x` } }), 403, MISSING);
    expectError(await api.get('/api/v1/user/me', { headers: { 'x-api-key': '' } }), 403, MISSING);
  });

  it('another user can neither list nor revoke a key (404)', async () => {
    const { id, key } = await create('mine');
    const theirs = await api.get('/api/v1/api-keys', { token: alan });
    expect(theirs.status).toBe(200);
    expect((theirs.body.items as { id: string }[]).map((k) => k.id)).not.toContain(id);
    expectError(await api.delete(`/api/v1/api-keys/${id}`, { token: alan }), 404, `API key ${id} not found`);
    expect((await api.get('/api/v1/user/me', { token: key })).status).toBe(200);
    expectError(await api.delete('/api/v1/api-keys/key_nope', { token: grace }), 404, 'API key key_nope not found');
  });

  it('bad inputs get 400 naming the field', async () => {
    expectError(await api.post('/api/v1/api-keys', {}, { token: grace }), 400, undefined, 'name');
    expectError(await api.post('/api/v1/api-keys', { name: '' }, { token: grace }), 400, undefined, 'name');
    expectError(await api.post('/api/v1/api-keys', { name: '   ' }, { token: grace }), 400, undefined, 'name');
    expectError(await api.post('/api/v1/api-keys', { name: 'x'.repeat(101) }, { token: grace }), 400, undefined, 'name');
    expectError(await api.post('/api/v1/api-keys', { name: 5 }, { token: grace }), 400, undefined, 'name');
    expectError(await api.post('/api/v1/api-keys', { name: 'ok', scope: 'all' }, { token: grace }), 400, /unknown field/, 'scope');
    expectError(await api.post('/api/v1/api-keys', '{', { token: grace }), 400);
    expect((await api.post('/api/v1/api-keys', { name: 'x'.repeat(100) }, { token: grace })).status).toBe(201);
  });

  it('at most 100 live keys a user: the next is 409 naming the limit, also when created at once, and revoking one makes room', async () => {
    const reg = await api.post('/api/auth/register', { email: `many-keys-${kind}-${Date.now()}@example.com`, password: 'password123', name: 'Many Keys' });
    expect(reg.status, reg.text).toBe(201);
    const owner = reg.body.token as string;
    const made: Created[] = [];
    for (let i = 0; i < 95; i++) made.push(await create(`key ${i}`, owner));
    // Ten at once for the last five places: exactly five get one.
    const racing = await Promise.all(Array.from({ length: 10 }, (_, i) => api.post('/api/v1/api-keys', { name: `racing ${i}` }, { token: owner })));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 201, 201, 201, 201, 409, 409, 409, 409, 409]);
    const refused = racing.find((r) => r.status === 409)!;
    expectError(refused, 409, 'At most 100 API keys can be live at once: revoke one first');
    expect(refused.body.details).toEqual({ limit: 100 });
    expect(((await api.get('/api/v1/api-keys', { token: owner })).body.items as unknown[]).length).toBe(100);
    // Every key made still works; the refusals made none.
    expect((await api.get('/api/v1/user/me', { token: made[0]!.key })).status).toBe(200);
    expect((await api.delete(`/api/v1/api-keys/${made[0]!.id}`, { token: owner })).status).toBe(204);
    expect((await api.post('/api/v1/api-keys', { name: 'in its place' }, { token: owner })).status).toBe(201);
    expectError(await api.post('/api/v1/api-keys', { name: 'one too many' }, { token: owner }), 409);
  });

  it('needs a token (403)', async () => {
    expectError(await api.post('/api/v1/api-keys', { name: 'n' }), 403, MISSING);
    expectError(await api.get('/api/v1/api-keys'), 403, MISSING);
    expectError(await api.delete('/api/v1/api-keys/key_x'), 403, MISSING);
  });

  if (kind === 'postgres') it('stores only the hash of the key', async () => {
    const { id, key } = await create('hashed');
    const rows = await sql<Record<string, unknown>>(server, `SELECT * FROM "ApiKey"`);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(JSON.stringify(row)).not.toContain(key.slice(3));
    const [row] = await sql<{ keyHash: string; prefix: string }>(server, `SELECT "keyHash", prefix FROM "ApiKey" WHERE id = $1`, [id]);
    const { createHash } = await import('node:crypto');
    expect(row!.keyHash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(row!.prefix).toBe(key.slice(3, 11));
  });

  if (kind === 'postgres') it('records use at most once a minute, with one query to authenticate', async () => {
    const { id, key } = await create('busy');
    expect((await api.get('/api/v1/user/me', { token: key })).status).toBe(200);
    const [first] = await sql<{ lastUsedAt: Date }>(server, `SELECT "lastUsedAt" FROM "ApiKey" WHERE id = $1`, [id]);
    expect(first!.lastUsedAt).toBeInstanceOf(Date);
    server.queries.length = 0;
    for (let i = 0; i < 5; i++) expect((await api.get('/api/v1/user/me', { headers: { 'x-api-key': key } })).status).toBe(200);
    // One query per request (the key joined with its owner), and no write: it was used a moment ago.
    const keyQueries = server.queries.filter((q) => /"ApiKey"/.test(q));
    expect(keyQueries).toHaveLength(5);
    for (const q of keyQueries) expect(q).toMatch(/^SELECT [\s\S]*JOIN "User"/);
    const [second] = await sql<{ lastUsedAt: Date }>(server, `SELECT "lastUsedAt" FROM "ApiKey" WHERE id = $1`, [id]);
    expect(second!.lastUsedAt.getTime()).toBe(first!.lastUsedAt.getTime());
  });

  if (kind === 'postgres') it('a deleted owner\'s key stops working', async () => {
    const reg = await api.post('/api/auth/register', { email: `keys-${Date.now()}@example.com`, password: 'password123', name: 'Temp' });
    expect(reg.status, reg.text).toBe(201);
    const { id, key } = await create('temp', reg.body.token as string);
    expect((await api.get('/api/v1/user/me', { token: key })).status).toBe(200);
    await sql(server, `DELETE FROM "User" WHERE id = $1`, [reg.body.user.id]);
    expectError(await api.get('/api/v1/user/me', { token: key }), 403, MISSING);
    expect(await sql(server, `SELECT id FROM "ApiKey" WHERE id = $1`, [id])).toEqual([]);
  });
});

describe('API keys over GraphQL', () => {
  const it = overGraphQL;
  // The fixture's client and tokens, for the helpers and tests below.
  let api: Client;
  let grace: string;
  let alan: string;
  it.beforeAll(({ api: itsClient, grace: graceToken, alan: alanToken }) => {
    [api, grace, alan] = [itsClient, graceToken, alanToken];
  });

  const CREATE = 'mutation ($name: String!) { createApiKey(name: $name) { id name key createdAt } }';
  const LIST = '{ apiKeys { id name prefix createdAt lastUsedAt } }';
  const REVOKE = 'mutation ($id: ID!) { revokeApiKey(id: $id) }';

  async function data(query: string, variables: Record<string, unknown> | undefined, token: string) {
    const reply = await api.graphql(query, variables, { token });
    expect(reply.status).toBe(200);
    expect(reply.body.errors, reply.text).toBeUndefined();
    return reply.body.data;
  }
  async function error(query: string, variables: Record<string, unknown> | undefined, token?: string) {
    const reply = await api.graphql(query, variables, token ? { token } : undefined);
    expect(reply.body.errors, reply.text).toHaveLength(1);
    return reply.body.errors[0] as { message: string; extensions: { code: string } };
  }

  it('createApiKey, apiKeys and revokeApiKey match REST', async () => {
    const { createApiKey: created } = await data(CREATE, { name: 'gql' }, grace);
    expect(created.id).toMatch(/^key_/);
    expect(created.name).toBe('gql');
    expect(created.key).toMatch(KEY);
    expect(created.createdAt).toMatch(ISO_MS);

    const { apiKeys } = await data(LIST, undefined, grace);
    const rest = await api.get('/api/v1/api-keys', { token: grace });
    expect(apiKeys).toEqual(rest.body.items);
    expect(apiKeys[0]).toEqual({ id: created.id, name: 'gql', prefix: created.key.slice(3, 11), createdAt: created.createdAt, lastUsedAt: null });

    const me = await data('{ me { id email } }', undefined, created.key as string);
    expect(me.me.email).toMatch(/^grace/);

    const notFound = await error(REVOKE, { id: created.id }, alan);
    expect(notFound.extensions.code).toBe('NOT_FOUND');
    expect(notFound.message).toBe(`API key ${created.id} not found`);

    expect(await data(REVOKE, { id: created.id }, grace)).toEqual({ revokeApiKey: true });
    expect((await data(LIST, undefined, grace)).apiKeys.map((k: { id: string }) => k.id)).not.toContain(created.id);
    const revoked = await error('{ me { id } }', undefined, created.key as string);
    expect(revoked.extensions.code).toBe('UNAUTHENTICATED');
    expect(revoked.message).toBe(MISSING);
  });

  it('rejects bad names and missing tokens', async () => {
    const bad = await error(CREATE, { name: '' }, grace);
    expect(bad.extensions.code).toBe('BAD_USER_INPUT');
    expect(bad.message).toMatch(/^name: /);
    expect((await error(CREATE, { name: 'x'.repeat(101) }, grace)).extensions.code).toBe('BAD_USER_INPUT');
    expect((await error(LIST, undefined)).extensions.code).toBe('UNAUTHENTICATED');
    expect((await error(CREATE, { name: 'n' })).extensions.code).toBe('UNAUTHENTICATED');
  });
});
