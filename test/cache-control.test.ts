// What a browser or a shared cache in front of the service (a CDN, Varnish) may keep. A response
// that says nothing may be kept for a while of the cache's own choosing, and a shared cache serves
// it to every client: one carrying the caller's data (`me` over an `X-API-Key`, which such caches
// do not take for a credential) would reach other callers. Only a GraphQL GET result that is the
// same for every caller (it has an ETag) may be kept, and then only to be asked about again.
import { expect, it } from 'vitest';
import { NO_RATE_LIMITS } from './support/limits.js';
import { serverForSuite } from './support/server.js';

const suite = serverForSuite({ env: NO_RATE_LIMITS });
const gql = (query: string, variables?: Record<string, unknown>) =>
  `/graphql?${new URLSearchParams({ query, ...(variables ? { variables: JSON.stringify(variables) } : {}) })}`;

it("a response with the caller's data is never stored: REST and GraphQL, by token or API key", async () => {
  const { api } = suite;
  const { token } = await api.loginAs('grace');
  const key = await api.post('/api/v1/api-keys', { name: 'cache-control' }, { token });
  expect(key.status, key.text).toBe(201);
  const byKey = { headers: { 'x-api-key': key.body.key as string } };

  for (const reply of [
    await api.get('/api/v1/user/me', byKey),
    await api.get('/api/v1/user/me', { token }),
    await api.get(gql('{ me { email } }'), byKey),
    await api.get(gql('{ me { email } }'), { token }),
    await api.post('/graphql', { query: '{ me { email } }' }, byKey),
    await api.get('/api/v1/api-keys', { token }),
  ]) {
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('no-store');
  }
  // Nor is an error, or a public answer without a tag.
  expect((await api.get('/api/v1/user/me')).headers.get('cache-control')).toBe('no-store');
  expect((await api.get('/api/content/docs')).headers.get('cache-control')).toBe('no-store');
});

it('a GraphQL GET result the same for every caller may be kept, asked about each time, by media type', async () => {
  const { api } = suite;
  const { token } = await api.loginAs('grace');
  const me = (await api.get('/api/v1/user/me', { token })).body as { id: string };
  const url = gql('query ($id: ID!) { user(id: $id) { id name } }', { id: me.id });

  const first = await api.get(url);
  const cached = await api.get(url);
  for (const reply of [first, cached]) {
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get('etag')).toBeTruthy();
    expect(reply.headers.get('cache-control')).toBe('no-cache');
    expect(reply.headers.get('vary')).toMatch(/\bAccept\b/i);
  }
  const notModified = await api.get(url, { headers: { 'if-none-match': cached.headers.get('etag')! } });
  expect(notModified.status).toBe(304);
  expect(notModified.headers.get('cache-control')).toBe('no-cache');
});

it('the pages keep their own', async () => {
  const { api } = suite;
  const reference = await api.get('/reference', { headers: { accept: 'text/html' } });
  expect(reference.status).toBe(200);
  expect(reference.headers.get('cache-control')).not.toBe('no-store');
  expect(reference.headers.get('cache-control')).toBeTruthy();
});
