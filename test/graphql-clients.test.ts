// What GraphQL clients expect of a Yoga server, each checked with a real client library against
// the real server: Apollo Client's automatic persisted queries, and @defer/@stream read by meros
// (multipart/mixed) and over SSE. Hostile inputs (an unknown hash, a hash that does not match its
// document, malformed bodies) get a clear 4xx, never a 500.
import { createHash } from 'node:crypto';
import { ApolloClient, ApolloLink, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { meros } from 'meros/browser';
import { describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS } from './support/limits.js';
import { serverForSuite } from './support/server.js';

const suite = serverForSuite({ env: NO_RATE_LIMITS });

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A fetch that records what Apollo sent: method, and whether the document was in it. */
function recordingFetch() {
  const sent: { method: string; withDocument: boolean; status: number }[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const body = typeof init?.body === 'string' ? init.body : '';
    const withDocument = url.searchParams.has('query') || body.includes('"query"');
    const response = await fetch(input, init);
    sent.push({ method: init?.method ?? 'GET', withDocument, status: response.status });
    return response;
  };
  return { sent, fetchFn };
}

function apolloWithPersistedQueries(fetchFn: typeof fetch, useGETForHashedQueries = false) {
  const link = ApolloLink.from([
    new PersistedQueryLink({ sha256, useGETForHashedQueries }),
    new HttpLink({ uri: `${suite.server.url}/graphql`, fetch: fetchFn }),
  ]);
  return new ApolloClient({ link, cache: new InMemoryCache(), defaultOptions: { query: { fetchPolicy: 'network-only' } } });
}

describe('automatic persisted queries (Apollo protocol)', () => {
  it("Apollo Client's persisted-query link: the first use registers the document, later ones send the hash alone", async () => {
    const { sent, fetchFn } = recordingFetch();
    const apollo = apolloWithPersistedQueries(fetchFn);
    const query = gql`query DocsForApq { docs { slug title } }`;
    const expected = (await suite.api.get('/api/content/docs')).body.map((d: { slug: string; title: string }) => ({ __typename: 'Doc', slug: d.slug, title: d.title }));

    const first = await apollo.query({ query });
    expect(first.data).toEqual({ docs: expected });
    // The hash alone (unknown: PersistedQueryNotFound), then the hash with the document.
    expect(sent.map((s) => s.withDocument)).toEqual([false, true]);

    sent.length = 0;
    const again = await apolloWithPersistedQueries(fetchFn).query({ query });
    expect(again.data).toEqual({ docs: expected });
    expect(sent).toEqual([{ method: 'POST', withDocument: false, status: 200 }]);
  });

  it('works over GET once the document is known (cacheable URLs without the document)', async () => {
    const { sent, fetchFn } = recordingFetch();
    const query = gql`query DocSlugsOverGet { docs { slug } }`;
    const first = await apolloWithPersistedQueries(fetchFn, true).query<{ docs: { slug: string }[] }>({ query });
    expect(first.data?.docs.length).toBeGreaterThan(0);
    sent.length = 0;
    const again = await apolloWithPersistedQueries(fetchFn, true).query({ query });
    expect(again.data).toEqual(first.data);
    expect(sent).toEqual([{ method: 'GET', withDocument: false, status: 200 }]);
  });

  it('an unknown hash is PersistedQueryNotFound; a hash that is not its document is refused and registers nothing', async () => {
    const unknown = await suite.api.request('POST', '/graphql', {
      body: { extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ never sent }') } } },
    });
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.status).toBeLessThan(500);
    expect(unknown.body.errors[0]).toMatchObject({ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } });

    const document = '{ docs { id } }';
    const wrongHash = sha256('{ docs { slug } }');
    const mismatch = await suite.api.request('POST', '/graphql', {
      body: { query: document, extensions: { persistedQuery: { version: 1, sha256Hash: wrongHash } } },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors[0]).toMatchObject({ message: 'PersistedQueryMismatch', extensions: { code: 'PERSISTED_QUERY_MISMATCH' } });
    // The mismatched hash was not stored under the document it came with.
    const later = await suite.api.request('POST', '/graphql', { body: { extensions: { persistedQuery: { version: 1, sha256Hash: wrongHash } } } });
    expect(later.body.errors[0].message).toBe('PersistedQueryNotFound');

    // An extension that is not Apollo's is refused, with or without the document (Yoga's plugin
    // ignored it beside a document, which then ran without ever being persisted).
    const unusable: [unknown, string][] = [
      ['nope', 'version must be 1'], [null, 'version must be 1'], [[1], 'version must be 1'],
      [{ version: 2, sha256Hash: 'x' }, 'version must be 1'], [{ version: '1', sha256Hash: 'x' }, 'version must be 1'],
      [{ version: 1, sha256Hash: 42 }, 'sha256Hash must be a string'], [{ version: 1 }, 'sha256Hash must be a string'],
    ];
    for (const [persistedQuery, problem] of unusable) {
      for (const body of [{ extensions: { persistedQuery } }, { query: document, extensions: { persistedQuery } }]) {
        const reply = await suite.api.request('POST', '/graphql', { body });
        expect(reply.status, JSON.stringify(body)).toBe(400);
        expect(reply.body, JSON.stringify(body)).toEqual({ errors: [{ message: `extensions.persistedQuery.${problem}.`, extensions: { code: 'BAD_REQUEST' } }] });
      }
    }
  });
});

describe('@defer and @stream', () => {
  const DEFERRED = '{ docs { slug } ... @defer(label: "later") { me: docs { title } } }';

  it('delivers a deferred fragment as a later part of multipart/mixed, read by meros', async () => {
    const response = await fetch(`${suite.server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'multipart/mixed' },
      body: JSON.stringify({ query: DEFERRED }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^multipart\/mixed/);
    const parts = await meros<Record<string, unknown>>(response);
    if (!(Symbol.asyncIterator in parts)) throw new Error('expected a multipart response');
    const payloads: Record<string, unknown>[] = [];
    for await (const part of parts) if (part.json) payloads.push(part.body);
    expect(payloads.length).toBeGreaterThanOrEqual(2);
    const [initial, ...rest] = payloads as { data?: { docs?: { slug: string }[] }; hasNext: boolean; incremental?: { data: unknown; label?: string }[] }[];
    expect(initial!.hasNext).toBe(true);
    expect(initial!.data!.docs!.length).toBeGreaterThan(0);
    expect(initial!.data).not.toHaveProperty('me');
    const incremental = rest.flatMap((p) => p.incremental ?? []);
    expect(incremental).toEqual([expect.objectContaining({ label: 'later', data: { me: expect.arrayContaining([expect.objectContaining({ title: expect.any(String) })]) } })]);
    expect(rest[rest.length - 1]!.hasNext).toBe(false);
  });

  it('streams a list item by item with @stream, over SSE', async () => {
    const response = await fetch(`${suite.server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: '{ docs @stream(initialCount: 1) { slug } }' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await response.text();
    const events = text.split('\n\n').filter((block) => block.includes('data: {')).map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 6)));
    const expected = (await suite.api.get('/api/content/docs')).body.map((d: { slug: string }) => d.slug);
    expect(events[0].data.docs).toEqual([{ slug: expected[0] }]);
    const streamed = events.slice(1).flatMap((e: { incremental?: { items: { slug: string }[] }[] }) => (e.incremental ?? []).flatMap((i) => i.items.map((x) => x.slug)));
    expect([expected[0], ...streamed]).toEqual(expected);
    expect(text).toContain('event: complete');
  });
});

describe('malformed requests', () => {
  it("get Yoga's clear 400 in GraphQL's shape, never Unexpected error", async () => {
    const bodies = ['{', '[]', '{"query": 1}', '{"query": "{ docs { slug }", "variables": 3}', '{"query": "{ docs { slug } }", "extensions": 1}', 'null', '"text"', '{"query": "{ docs { slug } }", "operationName": {}}'];
    for (const body of bodies) {
      const reply = await suite.api.request('POST', '/graphql', { body });
      expect(reply.status, body).toBe(400);
      expect(reply.text, body).not.toContain('Unexpected error');
      expect(reply.body.errors[0].message, body).toEqual(expect.any(String));
      expect(reply.body.errors[0].extensions?.code, body).not.toBe('INTERNAL_SERVER_ERROR');
    }
    for (const params of ['variables=notjson', 'extensions=garbage', 'variables=%7B', 'variables=[1]', 'operationName=Nope']) {
      const reply = await suite.api.get(`/graphql?query=${encodeURIComponent('{ docs { slug } }')}&${params}`);
      expect(reply.status, params).toBeGreaterThanOrEqual(400);
      expect(reply.status, params).toBeLessThan(500);
      expect(reply.text, params).not.toContain('Unexpected error');
      expect(reply.body.errors[0].extensions?.code, params).not.toBe('INTERNAL_SERVER_ERROR');
    }
    // Nothing was logged as unexpected.
    expect(suite.server.logs.filter((line) => line.level === 50)).toEqual([]);
  });
});
