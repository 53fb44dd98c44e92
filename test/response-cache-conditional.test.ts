// If-None-Match on GraphQL GETs: a 304 says "the copy you hold of this URL is current", so it may
// only answer a request whose own cached result is the version the tag names. The tag of one
// cached query must not earn a 304 for another query, another user's data, `me`, a query the
// caller may not run, or a syntax error; and the bare key of an entry is no tag of any version.
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { NO_RATE_LIMITS } from './support/limits.js';
import { serverForSuite } from './support/server.js';

const USER = 'query ($id: ID!) { user(id: $id) { id name joined } }';
const getUrl = (query: string, variables?: Record<string, unknown>, extensions?: unknown) => {
  const params = new URLSearchParams();
  if (query) params.set('query', query);
  if (variables) params.set('variables', JSON.stringify(variables));
  if (extensions) params.set('extensions', JSON.stringify(extensions));
  return `/graphql?${params}`;
};

const suite = serverForSuite({ env: NO_RATE_LIMITS });

it("answers 304 only to the request whose own cached result the tag names", async () => {
  const { api } = suite;
  const ada = await api.login('ada@example.com', 'lovelace-1815');
  const adaId = ((await api.get('/api/v1/user/me', { token: ada.token })).body as { id: string }).id;
  const grace = await api.login('grace@example.com', 'hopper-1906');
  const graceMe = (await api.get('/api/v1/user/me', { token: grace.token })).body as { id: string; name: string };

  const url = getUrl(USER, { id: graceMe.id });
  const first = await api.get(url);
  const etag = first.headers.get('etag')!;
  expect(etag).toBeTruthy();
  // Its own tag: 304.
  expect((await api.get(url, { headers: { 'if-none-match': etag } })).status).toBe(304);

  const ifNoneMatch = { 'if-none-match': etag };
  // Another user's public data.
  const other = await api.get(getUrl(USER, { id: adaId }), { headers: ifNoneMatch });
  expect(other.status).toBe(200);
  expect(other.body.data.user.id).toBe(adaId);
  // The caller's own private data.
  const me = await api.get(getUrl('{ me { id email } }'), { token: ada.token, headers: ifNoneMatch });
  expect(me.status).toBe(200);
  expect(me.body.data.me.email).toBe('ada@example.com');
  // What an anonymous caller may not see, and a document that is no query at all.
  const webhooks = await api.get(getUrl('{ webhooks { id url } }'), { headers: ifNoneMatch });
  expect(webhooks.status).toBe(200);
  expect(webhooks.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  const syntaxError = await api.get(getUrl('{ user('), { headers: ifNoneMatch });
  expect(syntaxError.status).not.toBe(304);
  expect(syntaxError.body.errors[0].message).toMatch(/Syntax Error/);

  // Its own tag, weak or in a list (RFC 9110 13.1.2): 304 too.
  expect((await api.get(url, { headers: { 'if-none-match': `W/${etag}` } })).status).toBe(304);
  expect((await api.get(url, { headers: { 'if-none-match': `"other", ${etag}` } })).status).toBe(304);

  // The entry's bare key names no version: after a rename it must not confirm the old name.
  const bareKey = etag.slice(1).split('.')[0]!;
  const renamed = `Grace Conditional ${Date.now()}`;
  expect((await api.patch('/api/v1/user/me', { name: renamed }, { token: grace.token })).status).toBe(200);
  expect((await api.get(url)).body.data.user.name).toBe(renamed);
  const bare = await api.get(url, { headers: { 'if-none-match': bareKey } });
  expect(bare.status).toBe(200);
  expect(bare.body.data.user.name).toBe(renamed);
});

it('answers 304 to a persisted query sent by its hash alone, when the tag is its own', async () => {
  const { api } = suite;
  const document = '{ docs { slug title } }';
  const extensions = { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(document).digest('hex') } };
  const first = await api.get(getUrl(document, undefined, extensions));
  expect(first.status).toBe(200);
  const byHash = await api.get(getUrl('', undefined, extensions));
  const etag = byHash.headers.get('etag')!;
  expect(etag).toBeTruthy();
  expect((await api.get(getUrl('', undefined, extensions), { headers: { 'if-none-match': etag } })).status).toBe(304);
  // Another query's tag earns it nothing.
  const other = await api.get(getUrl('{ docs { slug } }'));
  const mismatch = await api.get(getUrl('', undefined, extensions), { headers: { 'if-none-match': other.headers.get('etag')! } });
  expect(mismatch.status).toBe(200);
  expect(mismatch.body.data.docs.length).toBeGreaterThan(0);
});
