// One input rule for every GraphQL encoding and transport (issue 35): a POST that is not JSON is
// 415 in the contract's shape, on /graphql and /graphql/stream (forms were read by Yoga with rules
// of their own: `operations=null` and `variables=notjson` answered "Unexpected error.", a field
// named twice ran its first copy); a bad directive argument (`@stream(initialCount: -1)`, null, a
// negative variable, `@defer(if: null)`) is BAD_USER_INPUT with HTTP 400 over POST and GET, and
// the same error over SSE in both modes and over WebSocket (it was "Unexpected error." and an
// error-level log line); the depth and alias limits are 400 under
// application/graphql-response+json (they were 200). None of them changes anything or logs an error.
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { describe, expect } from 'vitest';
import { serverTest } from './support/fixtures.js';
import { expectError } from './support/assert.js';
import type { Client, Reply } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import type { TestServer } from './support/server.js';

const it = serverTest({ kind: 'pglite', env: NO_RATE_LIMITS });

// For the helpers below: the fixture's server, its client, and ada's token.
let server: TestServer;
let api: Client;
let token: string;
it.beforeAll(({ server: started, api: itsClient, ada }) => {
  [server, api, token] = [started, itsClient, ada];
});

/** Ada's name: what the forms below try to change. */
const myName = async () => (await api.get('/api/v1/user/me', { token })).body.name as string;
/** Error-level log lines (pino's 50 and up) written since `from`. */
const errorLines = (from: number) => server.logs.slice(from).filter((line) => Number(line.level) >= 50);

const RENAME = 'mutation { updateMe(name: "Renamed by a form") { name } }';
const UNSUPPORTED = 'Unsupported Media Type: a GraphQL POST is sent as application/json';

async function postGraphQL(path: string, body: BodyInit | undefined, contentType?: string): Promise<Reply> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (contentType) headers['content-type'] = contentType;
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

describe('GraphQL POST encodings', () => {
  it('refuses multipart/form-data and x-www-form-urlencoded with 415 in the contract\'s shape, on /graphql and /graphql/stream, running nothing', async () => {
    const before = await myName();
    const logged = server.logs.length;
    const form = (fields: [string, string][]) => {
      const data = new FormData();
      for (const [name, value] of fields) data.append(name, value);
      return data;
    };
    const query = encodeURIComponent(RENAME);
    const cases: [string, () => BodyInit, string | undefined][] = [
      // `curl -F 'operations=null'`: "Unexpected error." and an error-level log line.
      ['multipart operations=null', () => form([['operations', 'null']]), undefined],
      ['multipart operations naming a key twice', () => form([['operations', `{"query":"{ __typename }","query":${JSON.stringify(RENAME)}}`], ['map', '{}']]), undefined],
      ['multipart operations', () => form([['operations', JSON.stringify({ query: RENAME })], ['map', '{}']]), undefined],
      // `--data 'query=%7B__typename%7D&variables=notjson'`: the same.
      ['urlencoded variables=notjson', () => 'query=%7B__typename%7D&variables=notjson', 'application/x-www-form-urlencoded'],
      ['urlencoded query named twice', () => `query=${query}&query=%7B__typename%7D`, 'application/x-www-form-urlencoded'],
      ['urlencoded', () => `query=${query}`, 'application/x-www-form-urlencoded; charset=utf-8'],
    ];
    for (const path of ['/graphql', '/graphql/stream']) {
      for (const [name, body, type] of cases) {
        const reply = await postGraphQL(path, body(), type);
        expectError(reply, 415, UNSUPPORTED);
        expect(reply.body.details, `${path} ${name}`).toEqual({ accept: ['application/json'] });
      }
    }
    expect(await myName()).toBe(before);
    expect(errorLines(logged)).toEqual([]);
  });

  it('answers every other type that is not JSON the same way (text/plain, application/graphql, none given), and still runs JSON', async () => {
    const before = await myName();
    const json = JSON.stringify({ query: RENAME });
    for (const [body, type] of [[json, 'text/plain'], [json, 'application/xml'], [json, undefined], [RENAME, 'application/graphql'], [json, 'Application/JSON'], [json, 'text/plain, application/json']] as const) {
      expectError(await postGraphQL('/graphql', body, type), 415, UNSUPPORTED);
    }
    expect(await myName()).toBe(before);
    const typename = JSON.stringify({ query: '{ __typename }' });
    for (const type of ['application/json', 'application/json; charset=utf-8', 'application/graphql+json']) {
      const ok = await postGraphQL('/graphql', typename, type);
      expect({ type, status: ok.status, body: ok.body }).toEqual({ type, status: 200, body: { data: { __typename: 'Query' } } });
    }
  });
});

describe('bad arguments to directives', () => {
  const STREAM_NEGATIVE = '{ docs @stream(initialCount: -1) { slug } }';
  const STREAM_NULL = '{ docs @stream(initialCount: null) { slug } }';
  const STREAM_VARIABLE = 'query ($n: Int) { docs @stream(initialCount: $n) { slug } }';
  const DEFER_NULL = '{ docs { slug } ... @defer(if: null) { more: docs { title } } }';
  const INCLUDE_VARIABLE = 'query ($b: Boolean = true) { docs @include(if: $b) { slug } }';
  /** [what, query, variables, message]. */
  const CASES: [string, string, Record<string, unknown> | undefined, string][] = [
    ['@stream(initialCount: -1)', STREAM_NEGATIVE, undefined, 'initialCount: must be an integer of at least 0'],
    ['@stream(initialCount: null)', STREAM_NULL, undefined, 'initialCount: must be an integer of at least 0'],
    ['@stream(initialCount: $n), $n = -5', STREAM_VARIABLE, { n: -5 }, 'initialCount: must be an integer of at least 0'],
    ['@stream(initialCount: $n), $n = null', STREAM_VARIABLE, { n: null }, 'initialCount: must be an integer of at least 0'],
    ['@defer(if: null)', DEFER_NULL, undefined, 'Expected value of type "Boolean!", found null.'],
    ['@include(if: $b), $b = null', INCLUDE_VARIABLE, { b: null }, 'Argument "if" of non-null type "Boolean!" must not be null.'],
  ];
  const refused = (message: string) => ({ errors: [{ message, locations: [expect.any(Object)], extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', status: 400 }) }] });

  it('refuses them with BAD_USER_INPUT and HTTP 400 over POST, whatever the Accept header, and over GET, logging no error', async () => {
    const logged = server.logs.length;
    for (const [what, query, variables, message] of CASES) {
      for (const accept of ['application/json', 'application/graphql-response+json', 'multipart/mixed']) {
        const reply = await api.graphql(query, variables, { token, headers: { accept } });
        expect({ what, accept, status: reply.status }).toEqual({ what, accept, status: 400 });
        if (accept !== 'multipart/mixed') expect(reply.body, `${what} ${accept}`).toEqual(refused(message));
        else expect(reply.text, what).toContain(JSON.stringify(message));
      }
      const search = new URLSearchParams({ query, ...(variables ? { variables: JSON.stringify(variables) } : {}) });
      const got = await api.get(`/graphql?${search}`, { token });
      expect({ what, status: got.status, body: got.body }).toEqual({ what, status: 400, body: refused(message) });
    }
    expect(errorLines(logged)).toEqual([]);
    // A count of 0 or more streams as before.
    const ok = await api.graphql('query ($n: Int) { docs @stream(initialCount: $n) { slug } }', { n: 1 }, { token, headers: { accept: 'multipart/mixed' } });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('"hasNext":true');
    expect(ok.text).not.toContain('"errors"');
  });

  it('refuses them with the same error over SSE (both graphql-sse modes) and over WebSocket, logging no error', async () => {
    const logged = server.logs.length;
    // Distinct connections on /graphql: a 400, as for a variable that cannot be used, with the error as the stream's one event.
    for (const [what, query, variables, message] of CASES) {
      const res = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query, variables }),
      });
      const events = (await res.text()).split('\n\n').filter((frame) => frame.startsWith('event:'));
      expect({ what, status: res.status, type: res.headers.get('content-type') }).toEqual({ what, status: 400, type: 'text/event-stream' });
      expect(events.map((frame) => frame.split('\n')[0]), what).toEqual(['event: next', 'event: complete']);
      expect(JSON.parse(events[0]!.split('\n')[1]!.slice('data: '.length)), what).toEqual(refused(message));
    }
    /** What a transport's client was given: the results, or the errors it was refused with. */
    const collect = async (iterate: () => AsyncIterable<unknown>): Promise<unknown[]> => {
      const results: unknown[] = [];
      try {
        for await (const result of iterate()) results.push(result);
      } catch (errors) {
        results.push({ errors });
      }
      return results;
    };
    const sseSingle = createSseClient({ url: `${server.url}/graphql/stream`, singleConnection: true, headers: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
    const ws = createWsClient({ url: `${server.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
    try {
      for (const [what, query, variables, message] of CASES) {
        for (const [transport, iterate] of [
          ['SSE single connection', () => sseSingle.iterate({ query, variables })],
          ['WebSocket', () => ws.iterate({ query, variables })],
        ] as const) {
          const results = await collect(iterate);
          expect({ what, transport, results }).toEqual({ what, transport, results: [refused(message)] });
        }
      }
    } finally {
      sseSingle.dispose();
      await ws.dispose();
    }
    expect(errorLines(logged)).toEqual([]);
  });
});

describe('the depth and alias limits', () => {
  const deep = `{ __type(name: "Query") { fields { type { ${'ofType { '.repeat(10)}name${' }'.repeat(10)} } } } }`;
  const aliased = `{ ${Array.from({ length: 51 }, (_, i) => `a${i}: docs { slug }`).join(' ')} }`;

  it('are HTTP 400 under application/graphql-response+json and 200 under application/json (a validation failure, GraphQL over HTTP), BAD_USER_INPUT both ways', async () => {
    for (const [what, query, message] of [['depth', deep, /depth limit of 12 exceeded, found 14/], ['aliases', aliased, /Aliases limit of 50 exceeded, found 51/]] as const) {
      for (const [accept, status] of [['application/graphql-response+json', 400], ['application/json', 200]] as const) {
        const reply = await api.graphql(query, undefined, { token, headers: { accept } });
        expect({ what, accept, status: reply.status, type: reply.headers.get('content-type') }).toEqual({ what, accept, status, type: `${accept}; charset=utf-8` });
        expect(reply.body).toEqual({ errors: [{ message: expect.stringMatching(message), extensions: { code: 'BAD_USER_INPUT', status: 400 } }] });
      }
      // Over WebSocket: refused as an invalid document (an `error` message).
      const ws = createWsClient({ url: `${server.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
      try {
        await expect(ws.iterate({ query }).next()).rejects.toEqual([expect.objectContaining({ message: expect.stringMatching(message), extensions: { code: 'BAD_USER_INPUT', status: 400 } })]);
      } finally {
        await ws.dispose();
      }
    }
  });
});
