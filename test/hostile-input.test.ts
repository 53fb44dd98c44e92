// Hostile input over real HTTP, one case per rule: NUL, control characters and lone surrogates
// (src/input.ts), bodies, encodings and repeated query parameters the REST adapter refuses, node's
// parser errors, cursors, GraphQL literals, the DateTime scalar and oversized WebSocket messages:
// each is refused in the contract's shape and changes nothing.
import { connect } from 'node:net';
import { deflateSync, gzipSync } from 'node:zlib';
import WebSocket from 'ws';
import { createClient as createWsClient } from 'graphql-ws';
import { createClient as createSseClient } from 'graphql-sse';
import { describe, expect, vi } from 'vitest';
import { duplicateKey } from '../src/http/body.js';
import { getIntrospectionQuery, Lexer, parse, Source, TokenKind } from 'graphql';
import { parserCaches, persistedQueryStore } from '../src/graphql/document-caches.js';
import { documentNesting, MAX_DOCUMENT_NESTING } from '../src/graphql/use-no-nul.js';
import { inputProblem } from '../src/input.js';
import { expectError } from './support/assert.js';
import { serverTest } from './support/fixtures.js';
import type { Client, Reply } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import type { TestServer } from './support/server.js';

const it = serverTest({ kind: 'postgres', env: NO_RATE_LIMITS });

// The fixture's server, client and ada's token, for the helpers below.
let server: TestServer;
let api: Client;
let token: string;
it.beforeAll(({ server: started, api: itsClient, ada }) => {
  [server, api, token] = [started, itsClient, ada];
});

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

describe('NUL in REST', () => {
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

describe('NUL in GraphQL', () => {
  const gql = (query: string, variables?: Record<string, unknown>) => api.graphql(query, variables, { token });

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

describe('the input rule', () => {
  it('refuses control characters (but TAB, LF, CR) and lone surrogates where it refuses NUL, naming the field', async () => {
    const before = await state();
    expectError(await api.patch('/api/v1/user/me', { name: 'a\u0001b' }, { token }), 400, 'name: must not contain control characters', 'name');
    expectError(await api.patch('/api/v1/user/me', { name: 'a\u007f' }, { token }), 400, 'name: must not contain control characters', 'name');
    expectError(await api.patch('/api/v1/user/me', { name: 'x\ud800' }, { token }), 400, 'name: must not contain lone surrogates (not valid Unicode)', 'name');
    expectError(await api.post('/api/v1/api-keys', { name: '\udc00k' }, { token }), 400, 'name: must not contain lone surrogates (not valid Unicode)', 'name');
    expectError(await api.post('/api/v1/lessons', { title: 'T', body: 'esc\u001b[31m' }, { token }), 400, 'body: must not contain control characters', 'body');
    expectError(await api.get('/api/v1/lessons?cursor=%1b', { token }), 400, 'query.cursor: must not contain control characters', 'query.cursor');
    // The document served before routing is under the rule too.
    expectError(await api.get('/api/openapi.json?x=%00'), 400, 'query.x: must not contain NUL characters', 'query.x');
    expect(await state()).toBe(before);
    // Text keeps its tabs and line breaks, and a surrogate pair is a character.
    const lesson = await api.post('/api/v1/lessons', { title: 'Tabs\tand 🦆', body: 'line\r\nline\n\tindented' }, { token });
    expect(lesson.status).toBe(201);
    expect(lesson.body).toMatchObject({ title: 'Tabs\tand 🦆', body: 'line\r\nline\n\tindented' });
  });

  it('refuses input nested more than 32 levels, and walks 100 000 levels in linear time', async () => {
    const before = await state();
    const nested = (depth: number) => '['.repeat(depth) + '"x"' + ']'.repeat(depth);
    expectError(await api.patch('/api/v1/user/me', `{"name":${nested(40)}}`, { token }), 400, /^name(\.0)+: must not be nested more than 32 levels deep$/);
    // 100 000 levels (about 200 kB): the walk copied the path at every level, quadratic, and
    // held the event loop for minutes; now it stops at level 32.
    const deep = await api.patch('/api/v1/user/me', `{"name":${nested(100_000)}}`, { token });
    expect(deep.status).toBe(400);
    expect(inputProblem(JSON.parse(nested(100_000)))?.problem).toBe('must not be nested more than 32 levels deep');
    const query = JSON.stringify('mutation ($n: String!) { updateMe(name: $n) { name } }');
    const gql = await api.request('POST', '/graphql', { token, body: `{"query":${query},"variables":{"n":${nested(100_000)}}}` });
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(await state()).toBe(before);
  });
});

describe('the REST body parser', () => {
  it('refuses a body declared as something else than JSON', async () => {
    const before = await state();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const reply = await api.patch('/api/v1/user/me', '{"name":"Changed by a form"}', { token, headers: { 'content-type': type } });
      expectError(reply, 400, 'body: must be sent as application/json', 'body');
    }
    expect(await state()).toBe(before);
    // JSON under its own name, with parameters, or as a +json type is JSON.
    const ok = await api.patch('/api/v1/user/me', '{"name":"Ada Lovelace"}', { token, headers: { 'content-type': 'application/merge-patch+json; charset=utf-8' } });
    expect(ok.status).toBe(200);
  });

  it('refuses an object that names a key twice, whichever value comes last', async () => {
    const before = await state();
    for (const body of ['{"name":"\\u0000","name":"Evil"}', '{"name":"Evil","name":"Ada"}', '{"title":"t","body":"b","summary":{"a":1,"a":2}}']) {
      const reply = await api.request(body.includes('title') ? 'POST' : 'PATCH', body.includes('title') ? '/api/v1/lessons' : '/api/v1/user/me', { token, body });
      expectError(reply, 400, /^body: names the key "(name|a)" twice in one object$/, 'body');
    }
    expect(await state()).toBe(before);
    expect(duplicateKey('{"a":{"b":1},"c":[{"b":2},{"b":3}],"d":"\\"a\\":1,\\"a\\""}')).toBeUndefined();
    expect(duplicateKey('{"a\\u0062":1,"ab":2}')).toBe('ab');
    // Strings end at the first quote after an even run of backslashes (none, or escaped ones).
    expect(duplicateKey('{"k":"\\\\","k2":"\\\\\\"","k":0}')).toBe('k');
    expect(duplicateKey('{"a\\\\":1,"a\\\\":2}')).toBe('a\\');
    const long = 'x'.repeat(100_000);
    expect(duplicateKey(`{"body":"${long}\\",\\"body\\":1","title":"t"}`)).toBeUndefined();
    expect(duplicateKey(`{"body":"${long}","body":1}`)).toBe('body');
  });
});

describe('bodies and query strings that are not UTF-8', () => {
  it('refuses them with a 400 naming the body, in REST\'s shape and GraphQL\'s', async () => {
    const before = await state();
    const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
    const send = (path: string, method: string, body: Buffer) =>
      fetch(`${server.url}${path}`, { method, body: new Uint8Array(body), headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } });
    // A lone continuation byte, a truncated sequence, an overlong encoding of "/", an encoded surrogate.
    for (const bad of [[0xff], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80]]) {
      const rest = await send('/api/v1/user/me', 'PATCH', bytes('{"name":"Ada ', bad, '"}'));
      expect(rest.status).toBe(400);
      expect(await rest.json()).toEqual({ error: true, code: 400, message: 'body: must be valid UTF-8', details: { field: 'body' } });
      const graphql = await send('/graphql', 'POST', bytes('{"query":"mutation { updateMe(name: \\"Ada ', bad, '\\") { name } }"}'));
      expect(graphql.status).toBe(400);
      expect(await graphql.json()).toEqual({
        errors: [{ message: 'body: must be valid UTF-8', extensions: { code: 'BAD_USER_INPUT', status: 400, details: { field: 'body' } } }],
      });
    }
    expect(await state()).toBe(before);
    // Valid UTF-8 beyond ASCII is what it was.
    const ok = await send('/api/v1/user/me', 'PATCH', bytes('{"name":"Ada Lovelace ', [0xc3, 0xa9], '"}'));
    expect(((await ok.json()) as { name: string }).name).toBe('Ada Lovelace é');
    await api.patch('/api/v1/user/me', { name: 'Ada Lovelace' }, { token });
  });

  it('refuses a query string whose escapes are not UTF-8, in REST\'s shape and GraphQL\'s (URLSearchParams made them U+FFFD)', async () => {
    for (const bad of ['%FF', '%C3', '%E0%A4%A', '%ED%A0%80', '%C3x%A9']) {
      const rest = await api.get(`/api/analytics/views?path=/a${bad}`);
      expectError(rest, 400, 'query: must be valid UTF-8 once percent-decoded', 'query');
      const graphql = await api.get(`/graphql?query=${encodeURIComponent('{ docs { slug } }')}&operationName=x${bad}`);
      expect(graphql.status).toBe(400);
      expect(graphql.body).toEqual({
        errors: [{ message: 'query: must be valid UTF-8 once percent-decoded', extensions: { code: 'BAD_USER_INPUT', status: 400, details: { field: 'query' } } }],
      });
    }
    // Escapes of UTF-8, and a % that starts no escape (a literal, as URLSearchParams reads it), are fine.
    for (const good of ['%C3%A9', '100%', '%2']) expect((await api.get(`/api/analytics/views?path=/a${good}`)).status, good).toBe(200);
  });
});

describe('compressed bodies', () => {
  it('refuses a body sent with a content coding, in REST\'s shape and GraphQL\'s, with Accept-Encoding: identity', async () => {
    const total = async () => ((await api.get('/api/analytics/views?path=/compressed')).body as { total: number }).total;
    const before = await total();
    const send = async (path: string, body: Buffer, coding: string): Promise<Reply> => {
      const res = await fetch(`${server.url}${path}`, { method: 'POST', body: new Uint8Array(body), headers: { 'content-type': 'application/json', 'content-encoding': coding } });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, text };
    };
    const view = Buffer.from('{"path":"/compressed"}');
    for (const [coding, body] of [['gzip', gzipSync(view)], ['br', view], ['deflate, identity', deflateSync(view)]] as const) {
      const rest = await send('/api/analytics/views', body, coding);
      expectError(rest, 400, 'body: must be sent uncompressed (no Content-Encoding but identity)', 'body');
      expect(rest.headers.get('accept-encoding')).toBe('identity');
      const graphql = await send('/graphql', gzipSync('{"query":"mutation { recordPageView(path: \\"/compressed\\") }"}'), coding);
      expect(graphql.status).toBe(400);
      expect(graphql.body).toEqual({
        errors: [{ message: 'body: must be sent uncompressed (no Content-Encoding but identity)', extensions: { code: 'BAD_USER_INPUT', status: 400, details: { field: 'body' } } }],
      });
    }
    expect(await total()).toBe(before);
    // identity is no coding, and a body-less request may name one.
    expect((await send('/api/analytics/views', view, 'Identity')).status).toBe(202);
    expect((await api.get('/api/analytics/views?path=/compressed', { headers: { 'content-encoding': 'gzip' } })).status).toBe(200);
    expect(await total()).toBe(before + 1);
  });
});

describe('query parameters named twice', () => {
  it('refuses a parameter named twice with a 400 naming it, in REST\'s shape and GraphQL\'s, changing nothing (the REST routes read the last copy, Yoga the first)', async () => {
    const before = await state();
    const [a, b] = ((await api.get('/api/v1/lessons?limit=2', { token })).body as { items: { id: string }[] }).items.map((lesson) => lesson.id);
    // The last copy was changed, though a proxy or a log reading the first would see another lesson.
    expectError(await api.patch(`/api/v1/lessons?id=${a}&id=${b}`, { title: 'Which one?' }, { token }), 400, 'query.id: must not be repeated', 'query.id');
    // A name is compared decoded (%6C is "l"); an unknown parameter is ignored only when given once.
    expectError(await api.get('/api/v1/lessons?limit=1&%6Cimit=2', { token }), 400, 'query.limit: must not be repeated', 'query.limit');
    expectError(await api.get('/api/analytics/views?path=/a&x=1&x=2'), 400, 'query.x: must not be repeated', 'query.x');
    expect(await state()).toBe(before);

    // GraphQL over GET, also when the first copy's result is in the response cache.
    const docs = `/graphql?query=${encodeURIComponent('{ docs { slug } }')}`;
    const stored = await api.get(docs);
    expect(stored.status).toBe(200);
    expect((await api.get(docs)).headers.get('etag')).toBe(stored.headers.get('etag'));
    const twice = await api.get(`${docs}&query=${encodeURIComponent('{ docs { title } }')}`);
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual({
      errors: [{ message: 'query.query: must not be repeated', extensions: { code: 'BAD_USER_INPUT', status: 400, details: { field: 'query.query' } } }],
    });
    // Different names, each once, are what they were.
    expect((await api.get(`/api/v1/lessons?limit=1&x=1&y=2`, { token })).status).toBe(200);
    expect((await api.get(`${docs}&operationName=&x=1`)).status).toBe(200);
  });
});

describe('cursors', () => {
  /** A cursor as the service writes them: base64url of JSON. */
  const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  it('refuses a cursor that is not one the service wrote, on every paged list, REST and GraphQL (a NUL in its id reached PostgreSQL: a 500)', async () => {
    const me = (await api.get('/api/v1/user/me', { token })).body.id as string;
    const hook = (await api.post('/api/v1/webhooks', { url: 'http://127.0.0.1:9/cursors', events: ['lesson.published'] }, { token })).body.id as string;
    const page = await api.get('/api/v1/lessons?limit=1', { token });
    const real = page.body.nextCursor as string;
    const [at, id] = JSON.parse(Buffer.from(real, 'base64url').toString('utf8')) as [string, string];
    const before = await state();
    const forged = {
      'a NUL in its id': cursorOf([at, `${id}\u0000`]),
      'an id no row can have': cursorOf([at, 'x']),
      'a third element': cursorOf([at, id, 'x']),
      'a date written otherwise': cursorOf([at.slice(0, 10), id]),
      // Base64url decoding forgives these; the service never writes them.
      'padding': `${real}==`,
      'a character base64url has not': `${real}~`,
    };
    for (const [what, cursor] of Object.entries(forged)) {
      expectError(await api.get(`/api/v1/lessons?limit=1&cursor=${cursor}`, { token }), 400, 'query.cursor: is not a valid cursor', 'query.cursor');
      expectError(await api.get(`/api/v1/webhooks/${hook}/deliveries?cursor=${cursor}`, { token }), 400, 'query.cursor: is not a valid cursor', 'query.cursor');
      for (const query of [
        'query ($after: String) { lessons(first: 1, after: $after) { edges { cursor } } }',
        'query ($me: ID!, $after: String) { user(id: $me) { lessons(first: 1, after: $after) { edges { cursor } } } }',
        'query ($hook: ID!, $after: String) { webhookDeliveries(webhookId: $hook, first: 1, after: $after) { edges { cursor } } }',
      ]) {
        const reply = await api.graphql(query, { after: cursor, me, hook }, { token });
        expect(reply.body.errors?.[0], `${what}: ${query}`).toMatchObject({ message: 'after: is not a valid cursor', extensions: { code: 'BAD_USER_INPUT' } });
      }
    }
    // The cursor the service wrote still pages.
    expect((await api.get(`/api/v1/lessons?limit=1&cursor=${real}`, { token })).body.items).toHaveLength(1);
    expect((await api.graphql('query ($after: String) { lessons(first: 1, after: $after) { edges { cursor } } }', { after: real }, { token })).body.errors).toBeUndefined();
    expect(await state()).toBe(before);
  });
});

describe('requests node refuses before the service sees them', () => {
  it('answers a URL over 16 KiB in the contract shape (431), not a bare status line', async () => {
    const reply = await api.get(`/api/analytics/views?path=/${'x'.repeat(100_000)}`);
    expectError(reply, 431, 'The request line and headers must not be larger than 16 KiB');
  });

  it('answers bytes that are not HTTP with a 400 in the contract shape', async () => {
    const { port } = new URL(server.url);
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('GET /api/v1/user/me HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'));
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    const [head, body] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(head).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(body!)).toEqual({ error: true, code: 400, message: 'The request is not valid HTTP' });
  });
});

describe('GraphQL', () => {
  const gql = (query: string, variables?: Record<string, unknown>) => api.graphql(query, variables, { token });

  it('refuses control characters written as \\b or \\f escapes, or a raw DEL, in a literal', async () => {
    const before = await state();
    for (const literal of ['"k\\b"', '"k\\f"', '"k\\u0001"', '"k\u007f"']) {
      const reply = await gql(`mutation { createApiKey(name: ${literal}) { id } }`);
      expect(reply.body.errors).toEqual([
        expect.objectContaining({ message: 'name: must not contain control characters', extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) }),
      ]);
    }
    const surrogate = await gql('mutation ($n: String!) { updateMe(name: $n) { name } }', { n: '\ud800' });
    expect(surrogate.body.errors?.[0]?.message).toBe('n: must not contain lone surrogates (not valid Unicode)');
    expect(await state()).toBe(before);
  });

  it('gives variables that cannot be used BAD_USER_INPUT over POST, GET, WebSocket and SSE, running nothing (graphql-js gave them no code)', async () => {
    const before = await state();
    const coded = (message: string) => [{ message, locations: [expect.any(Object)], extensions: { code: 'BAD_USER_INPUT', status: 400 } }];
    const rename = 'mutation ($name: String!) { updateMe(name: $name) { name } }';
    const posted = await gql(rename, { name: { a: 1 } });
    expect(posted.status).toBe(400);
    expect(posted.body).toEqual({ errors: coded('Variable "$name" got invalid value { a: 1 }; String cannot represent a non string value: { a: 1 }') });
    expect((await gql(rename)).body).toEqual({ errors: coded('Variable "$name" of required type "String!" was not provided.') });
    const got = await api.get(`/graphql?query=${encodeURIComponent('query ($n: Int) { lessons(first: $n) { edges { cursor } } }')}&variables=${encodeURIComponent('{"n":1e20}')}`, { token });
    expect(got.status).toBe(400);
    expect(got.body).toEqual({ errors: coded('Variable "$n" got invalid value 100000000000000000000; Int cannot represent non 32-bit signed integer value: 100000000000000000000') });
    expect(await state()).toBe(before);

    const subscription = 'subscription ($types: [String!]) { events(types: $types) { id } }';
    const missing = coded('Variable "$types" got invalid value 7 at "types[0]"; String cannot represent a non string value: 7');
    const ws = createWsClient({ url: `${server.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` } });
    try {
      const results: unknown[] = [];
      for await (const result of ws.iterate({ query: subscription, variables: { types: [7] } })) results.push(result);
      expect(results).toEqual([{ errors: missing }]);
    } finally {
      await ws.dispose();
    }
    const sse = createSseClient({ url: `${server.url}/graphql`, headers: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
    try {
      const results: unknown[] = [];
      for await (const result of sse.iterate({ query: subscription, variables: { types: [7] } })) results.push(result);
      expect(results).toEqual([{ errors: missing }]);
    } finally {
      sse.dispose();
    }
  });

  it('answers a POST in a media type it does not read with a 415 in the contract\'s shape, running nothing (Yoga sent no body)', async () => {
    const before = await state();
    const rename = new TextEncoder().encode(JSON.stringify({ query: 'mutation { updateMe(name: "Evil") { name } }' }));
    for (const type of ['text/plain', 'application/xml', undefined]) {
      const res = await fetch(`${server.url}/graphql`, { method: 'POST', body: rename, headers: { authorization: `Bearer ${token}`, ...(type ? { 'content-type': type } : {}) } });
      expect(res.status, type).toBe(415);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await res.json()).toEqual({
        error: true, code: 415, message: 'Unsupported Media Type: a GraphQL POST is sent as application/json', details: { accept: ['application/json'] },
      });
    }
    expect(await state()).toBe(before);
  });

  it('answers graphql-sse\'s refusals on /graphql/stream with GraphQL errors that have a code (they had none, or no body)', async () => {
    const stream = (init: RequestInit) => fetch(`${server.url}/graphql/stream`, init).then(async (res) => ({ status: res.status, type: res.headers.get('content-type'), body: await res.json() }));
    const refused = (status: number, code: string, message: string) => ({ status, type: 'application/json; charset=utf-8', body: { errors: [{ message, extensions: { code, status } }] } });
    expect(await stream({ method: 'PATCH' })).toEqual(refused(405, 'BAD_REQUEST', 'Method Not Allowed'));
    const operation = JSON.stringify({ query: '{ docs { slug } }', extensions: { operationId: '1' } });
    expect(await stream({ method: 'POST', body: operation, headers: { 'content-type': 'application/json', 'x-graphql-event-stream-token': 'no-such-stream' } })).toEqual(
      refused(404, 'NOT_FOUND', 'Stream not found'),
    );
    expect(await stream({ headers: { accept: 'text/event-stream' } })).toEqual(refused(400, 'BAD_REQUEST', 'Missing query'));
    // A refusal of ours keeps its code: a body that is not UTF-8.
    expect(await stream({ method: 'POST', body: new Uint8Array([0xff]), headers: { 'content-type': 'application/json' } })).toEqual(
      { status: 400, type: 'application/json; charset=utf-8', body: { errors: [{ message: 'body: must be valid UTF-8', extensions: { code: 'BAD_USER_INPUT', status: 400, details: { field: 'body' } } }] } },
    );
  });

  it('answers an operation /graphql/stream cannot run as /graphql does over SSE: one error event, then complete', async () => {
    /** The events of a distinct-connections stream, as [event, data] pairs, and the response's status and type. */
    const events = async (path: string, query: string, authorization?: string) => {
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        body: JSON.stringify({ query }),
        headers: { accept: 'text/event-stream', 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      });
      const text = await res.text();
      const frames = text.split('\n\n').filter((frame) => frame.startsWith('event:'));
      return {
        status: res.status,
        type: res.headers.get('content-type')?.split(';')[0],
        events: frames.map((frame) => {
          const [event, data] = frame.split('\n').map((line) => line.replace(/^(event|data): ?/, ''));
          return [event, data ? (JSON.parse(data) as unknown) : null];
        }),
      };
    };
    const cases: [string, string, string | undefined, string][] = [
      ['a syntax error', '{', undefined, 'GRAPHQL_PARSE_FAILED'],
      ['a field no type has', 'subscription { nope }', `Bearer ${token}`, 'GRAPHQL_VALIDATION_FAILED'],
      ['two operations and no name', 'query A { __typename } query B { __typename }', undefined, 'OPERATION_RESOLUTION_FAILURE'],
      ['a subscription without a token', 'subscription { events { id } }', undefined, 'UNAUTHENTICATED'],
      ['a subscription with a token that is none', 'subscription { events { id } }', 'Bearer nonsense', 'UNAUTHENTICATED'],
    ];
    for (const [name, query, authorization, code] of cases) {
      const reference = await events('/graphql', query, authorization);
      const reply = await events('/graphql/stream', query, authorization);
      expect(reply, name).toEqual({ status: 200, type: 'text/event-stream', events: [['next', { errors: [expect.objectContaining({ extensions: expect.objectContaining({ code }) })] }], ['complete', null]] });
      // The same error as on /graphql, and nothing Yoga keeps for itself (`http`) or a stack.
      expect(reply.events, name).toEqual(reference.events);
      expect(JSON.stringify(reply.events), name).not.toMatch(/"http"|\bat .*\.js:\d+/);
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it('refuses a body that names a key twice, whichever comes last (JSON.parse ran the last one)', async () => {
    const before = await state();
    const rename = JSON.stringify('mutation { updateMe(name: "Evil") { name } }');
    for (const body of [`{"query":"{ me { name } }","query":${rename}}`, `{"query":${rename},"variables":{},"variables":{}}`, `{"query":${rename},"extensions":{"a":1,"a":2}}`]) {
      const reply = await api.request('POST', '/graphql', { token, body });
      expect(reply.status, body).toBe(400);
      expect(reply.body, body).toEqual({
        errors: [{ message: expect.stringMatching(/^The request body names the key "(query|variables|a)" twice in one object\.$/), extensions: { code: 'BAD_REQUEST' } }],
      });
    }
    expect(await state()).toBe(before);
  });

  it('closes a WebSocket whose message names a key twice with 4400, running nothing (graphql-ws ran the last one)', async () => {
    const before = await state();
    const rename = JSON.stringify('mutation { updateMe(name: "Evil") { name } }');
    const init = JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } });
    const named = (key: string) => `Invalid message received: it names the key "${key}" twice in one object`;
    const long = 'k'.repeat(200);
    const cases: [string[], string][] = [
      // Two credentials in one connection_init: which one is the caller?
      [[`{"type":"connection_init","payload":{"authorization":"Bearer ${token}","authorization":"Bearer other"}}`], named('authorization')],
      [[init, `{"id":"1","type":"subscribe","payload":{"query":"{ me { name } }","query":${rename}}}`], named('query')],
      [[init, `{"id":"2","type":"subscribe","payload":{"query":${rename},"variables":{"a":1,"a":2}}}`], named('a')],
      // A close reason holds 123 bytes: a long key is not named.
      [[init, `{"id":"3","type":"subscribe","payload":{"query":${rename},"extensions":{"${long}":1,"${long}":2}}}`], 'Invalid message received: it names a key twice in one object'],
    ];
    for (const [messages, reason] of cases) expect(await webSocketExchange(messages), messages.at(-1)).toEqual({ code: 4400, reason });
    expect(await state()).toBe(before);
  });

  it('closes a WebSocket whose message is over the body limit with 1009 (Message Too Big), running nothing (ws took 100 MiB, parsed and ran it)', async () => {
    const before = await state();
    const init = JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } });
    const rename = (pad: number) => JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'mutation ($name: String!) { updateMe(name: $name) { name } }', variables: { name: 'Evil', pad: 'x'.repeat(pad) } } });
    // BODY_LIMIT_BYTES (1 MiB), as a POST's body: a message one KiB over it.
    const printed = vi.spyOn(console, 'error');
    try {
      expect(await webSocketExchange([init, rename(1024 * 1024 + 1024)])).toMatchObject({ code: 1009 });
      // One line in the service's log, not a stack trace on the console (graphql-ws printed one).
      await expect.poll(() => server.logs.some((l) => l.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' && l.msg === 'websocket closed: the client broke the protocol')).toBe(true);
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
    expect(await state()).toBe(before);
  });

  it('refuses a document nested thousands of levels deep as a syntax error (the parser overflowed its stack: "Unexpected error.")', async () => {
    for (const query of ['{ me '.repeat(5_000), `${'{ me '.repeat(5_000)}${'}'.repeat(5_000)}`, `{ lessons(after: ${'['.repeat(10_000)}) { pageInfo { hasNextPage } } }`]) {
      const reply = await gql(query);
      expect(reply.status).toBeLessThan(500);
      expect(reply.body.errors).toEqual([
        expect.objectContaining({ message: 'Syntax Error: the document is nested more than 64 levels deep.', extensions: expect.objectContaining({ code: 'GRAPHQL_PARSE_FAILED' }) }),
      ]);
    }
    // Braces in strings and comments are not nesting.
    const quoted = await gql(`{ user(id: "${'{'.repeat(100)}") { id } } # ${'{'.repeat(100)}`);
    expect(quoted.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(documentNesting(getIntrospectionQuery())).toBeLessThan(MAX_DOCUMENT_NESTING);
  });

  it('refuses a document of more than 1000 tokens as a syntax error, over POST and GET (twenty distinct 1 MB documents kept 1.9 GB of parsed AST)', async () => {
    // A list of event names as a default value: a token each ("user.created" twice is allowed).
    const tokens = (n: number) => `query ($t: [String!] = [${' "user.created"'.repeat(n - 31)}]) { events(types: $t, first: 1) { edges { cursor } } }`;
    expect(tokenCount(tokens(1_000))).toBe(1_000);
    const tooMany = await gql(tokens(1_001));
    expect(tooMany.status).toBeLessThan(500);
    expect(tooMany.body.errors).toEqual([
      expect.objectContaining({ message: 'Syntax Error: Document contains more that 1000 tokens. Parsing aborted.', extensions: expect.objectContaining({ code: 'GRAPHQL_PARSE_FAILED' }) }),
    ]);
    const overGet = await api.get(`/graphql?query=${encodeURIComponent(`{${' a'.repeat(1_000)} }`)}`);
    expect(overGet.body.errors?.[0]?.message).toBe('Syntax Error: Document contains more that 1000 tokens. Parsing aborted.');
    // 1000 run (the standard introspection query has fewer than 200).
    const fits = await gql(tokens(1_000));
    expect(fits.body.errors, fits.text.slice(0, 300)).toBeUndefined();
    expect(tokenCount(getIntrospectionQuery())).toBeLessThan(200);
  });

  it('keeps parsed documents, parse errors and persisted queries within a size, not only a count', () => {
    const { documentCache, errorCache } = parserCaches();
    const persisted = persistedQueryStore();
    const padded = (i: number) => `{ docs { id } } # ${i} ${'x'.repeat(1_000_000)}`;
    const document = parse('{ docs { id } }');
    for (let i = 0; i < 100; i++) {
      documentCache.set(padded(i), document);
      errorCache.set(padded(i), new Error('Syntax Error'));
      persisted.set(String(i), padded(i));
    }
    // Each holds what its budget allows (50, 10 and 10 MB), the newest first: not a hundred.
    expect(documentCache.size).toBe(49);
    expect(errorCache.size).toBe(9);
    expect(persisted.size).toBe(9);
    expect(documentCache.has(padded(99))).toBe(true);
    expect(documentCache.has(padded(0))).toBe(false);
  });

  it('refuses a subscription whose `after` id no event can have with BAD_USER_INPUT (NUL reached PostgreSQL: "Unexpected error.")', async () => {
    for (const after of ['evt_\\u0000', 'x'.repeat(100)]) {
      const res = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query: `subscription { events(after: "${after}") { id } }` }),
      });
      const text = await res.text();
      expect(text, after).toContain('"message":"after: unknown or expired event id"');
      expect(text, after).toContain('"code":"BAD_USER_INPUT"');
    }
  });

  it('refuses DateTime values that are no date (2020-02-30), and offsets, as REST does', async () => {
    for (const from of ['2020-02-30', '2021-02-29', '2020-01-01T24:00:00Z', '2020-01-01T00:00Z', '2020-01-01T00:00:00.123+01:00']) {
      const reply = await gql('query ($from: DateTime) { pageViews(from: $from) }', { from });
      expect(reply.body.errors?.[0]?.message, from).toMatch(/DateTime: must be an ISO 8601 date or date-time/);
    }
    for (const from of ['2020-02-29', '2020-01-01T00:00:00Z', '2020-01-01T00:00:00.123Z']) {
      expect((await gql('query ($from: DateTime) { pageViews(from: $from) }', { from })).body.data, from).toEqual({ pageViews: expect.any(Number) });
    }
  });
});

/** The tokens of a GraphQL document, as graphql-js's maxTokens counts them. */
function tokenCount(text: string): number {
  const lexer = new Lexer(new Source(text));
  let count = 0;
  while (lexer.advance().kind !== TokenKind.EOF) count++;
  return count;
}

/** Opens a graphql-ws connection, sends `messages` (each after the previous one's answer, if any), and resolves how it closed. */
function webSocketExchange(messages: string[]): Promise<{ code: number; reason: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
    const queue = [...messages];
    const sendNext = () => {
      const next = queue.shift();
      if (next !== undefined) socket.send(next);
    };
    socket.on('open', sendNext);
    socket.on('message', sendNext);
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    socket.on('error', reject);
    setTimeout(() => socket.close(1000, 'the server did not close'), 5_000).unref();
  });
}
