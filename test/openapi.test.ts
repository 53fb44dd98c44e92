// The OpenAPI document served at /api/openapi.json: a valid OpenAPI 3.1 document that lists every
// route of src/http/routes.ts with its errors, and whose schemas describe what the service
// actually answers (checked by validating real responses with a JSON Schema 2020-12 validator).
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule, { type FormatsPluginOptions } from 'ajv-formats';
import { describe, expect } from 'vitest';
import { apiRoutes } from '../src/http/routes.js';
import { serverTest } from './support/fixtures.js';
import type { Client, Reply } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { waitFor } from './support/wait.js';

const DOC_ID = 'https://learnstream.test/openapi.json';
const ERROR_REF = { $ref: '#/components/schemas/Error' };
// ajv-formats is CommonJS: depending on the interop, the plugin is the default import or its `default`.
type AddFormats = (ajv: Ajv2020, options?: FormatsPluginOptions) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

interface Operation {
  operationId: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { required: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Record<string, unknown> }> }>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: Operation & { description: string } }>;
  components: { schemas: Record<string, Record<string, unknown>>; securitySchemes: Record<string, unknown> };
}

/** A JSON pointer segment (RFC 6901). */
const pointer = (...segments: string[]) => segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

const it = serverTest({ env: NO_RATE_LIMITS });

describe('GET /api/openapi.json', () => {
  let api: Client;
  let doc: Document;
  let ajv: Ajv2020;
  let ada: string;

  /** The validator of one schema of the served document, with its `$ref`s resolved in the document. */
  const schemaAt = (...segments: string[]): ValidateFunction => {
    const ref = `${DOC_ID}#/${pointer(...segments)}`;
    return ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  };
  const responseSchema = (path: string, method: string, status: number) =>
    schemaAt('paths', path, method, 'responses', String(status), 'content', 'application/json', 'schema');
  const requestSchema = (path: string, method: string) =>
    schemaAt('paths', path, method, 'requestBody', 'content', 'application/json', 'schema');

  /** Asserts that a real reply is documented: its status is listed and its body matches the schema. */
  const expectDocumented = (reply: Reply, path: string, method: string) => {
    const operation = doc.paths[path]![method]!;
    expect(Object.keys(operation.responses), `${method} ${path} documents ${reply.status}`).toContain(String(reply.status));
    const validate = responseSchema(path, method, reply.status);
    const ok = validate(reply.body);
    expect(ok, `${method} ${path} ${reply.status}: ${JSON.stringify(validate.errors)}`).toBe(true);
  };

  it.beforeAll(async ({ api: itsClient, ada: token }) => {
    [api, ada] = [itsClient, token];
    const reply = await api.get('/api/openapi.json');
    expect(reply.status).toBe(200);
    doc = reply.body as Document;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(doc, DOC_ID);
  });

  it('is served as JSON without a token and validates as OpenAPI 3.1', async () => {
    const reply = await api.get('/api/openapi.json');
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // The validator does look: a broken copy fails.
    const broken = structuredClone(doc) as unknown as { paths: Record<string, unknown> };
    broken.paths['/api/broken'] = { get: { responses: { 200: { content: 'none' } } } };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('lists every route of src/http/routes.ts with its method, and nothing else', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    const routes = apiRoutes.map((r) => `${r.method} ${r.path}`);
    expect(documented.sort()).toEqual([...routes].sort());
    for (const route of apiRoutes) {
      const operation = doc.paths[route.path]![route.method.toLowerCase()]!;
      expect(operation.operationId).toBe(route.operationId);
      expect(operation.tags).toEqual([route.tag]);
      expect(operation.security).toEqual(route.auth ? [{ bearerAuth: [] }, { apiKeyHeader: [] }] : []);
      if (route.roles) expect((operation as Operation & { description?: string }).description).toMatch(/ADMIN/);
    }
    // The contract's routes, spelled out (so a route dropped from routes.ts is noticed too).
    for (const route of [
      'POST /api/auth/login', 'GET /api/v1/user/me', 'PATCH /api/v1/user/me', 'GET /api/users/{id}',
      'GET /api/v1/lessons', 'POST /api/v1/lessons', 'PATCH /api/v1/lessons', 'POST /api/v1/lessons/publish',
      'GET /api/content/docs', 'GET /api/analytics/views', 'POST /api/analytics/views', 'GET /api/openapi.json',
      'GET /api/v1/events', 'GET /api/v1/event-types', 'GET /api/asyncapi.json',
    ]) {
      expect(documented).toContain(route);
    }
    const ids = apiRoutes.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('documents, for every operation, its error responses with the Error schema', () => {
    expect(doc.components.schemas.Error).toMatchObject({
      type: 'object',
      required: ['error', 'code', 'message'],
      properties: { error: { const: true }, code: { type: 'integer' }, message: { type: 'string' }, details: { type: 'object' } },
    });
    for (const route of apiRoutes) {
      const responses = doc.paths[route.path]![route.method.toLowerCase()]!.responses;
      const errorCodes = Object.keys(responses).map(Number).filter((s) => s >= 400);
      const expected = new Set([...route.errors, 429, 500, 503]);
      if (route.auth || route.roles) expected.add(403);
      if (route.body || route.query || route.params) expected.add(400);
      if (route.body || route.method !== 'GET') expected.add(413);
      for (const code of expected) expect(errorCodes, `${route.method} ${route.path} lists ${code}`).toContain(code);
      for (const code of errorCodes) {
        expect(responses[code]!.description.length).toBeGreaterThan(0);
        expect(responses[code]!.content).toEqual({ 'application/json': { schema: ERROR_REF } });
      }
      const success = Object.keys(responses).map(Number).filter((s) => s < 400);
      // Every read with a body (it has an ETag) also answers a conditional GET (If-None-Match) with 304.
      const conditional = route.cached || (route.method === 'GET' && route.success.schema);
      // A route with a second success status (PUT enrollment: 201 enrolled now, 200 already enrolled) documents both.
      const statuses = [route.success.status, ...(route.success.also ? [route.success.also.status] : [])].sort();
      expect(success).toEqual(conditional ? [...statuses, 304] : statuses);
      if (route.success.schema) expect(responses[route.success.status]!.content!['application/json']!.schema).toBeDefined();
    }
  });

  it('documents the 400 every operation can answer, for its query string, whether or not it reads one', async () => {
    const fill = (path: string) => path.replace(/\{\w+\}/g, 'x');
    for (const route of apiRoutes) {
      const method = route.method.toLowerCase();
      expect(Object.keys(doc.paths[route.path]![method]!.responses), `${route.method} ${route.path} lists 400`).toContain('400');
      // A parameter named twice is refused before routing, on every route.
      const repeated = await api.request(route.method, `${fill(route.path)}?x=1&x=2`, { token: ada });
      expect(repeated.body, `${route.method} ${route.path}`).toMatchObject({ code: 400, message: 'query.x: must not be repeated' });
      expectDocumented(repeated, route.path, method);
    }
    // And NUL in a parameter no route reads, on the routes that read no input at all (they listed no 400).
    for (const path of ['/api/content/docs', '/api/v1/sessions', '/api/v1/api-keys', '/api/v1/event-types', '/api/openapi.json', '/api/asyncapi.json', '/api/v1/user/me', '/api/v1/webhooks']) {
      const reply = await api.get(`${path}?x=%00`, { token: ada });
      expect(reply.body, path).toMatchObject({ code: 400, message: 'query.x: must not contain NUL characters' });
      expectDocumented(reply, path, 'get');
    }
  });

  it('documents parameters and request bodies from the validation schemas', () => {
    const getUser = doc.paths['/api/users/{id}']!.get!;
    expect(getUser.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: expect.objectContaining({ type: 'string' }) as object },
      // A cached read: its conditional GET.
      { name: 'If-None-Match', in: 'header', required: false, description: expect.any(String) as string, schema: { type: 'string' } },
    ]);
    const lessons = doc.paths['/api/v1/lessons']!.get!;
    expect(lessons.parameters.map((p) => [p.name, p.in, p.required])).toEqual([
      ['id', 'query', false], ['limit', 'query', false], ['cursor', 'query', false], ['If-None-Match', 'header', false],
    ]);
    expect(doc.paths['/api/v1/lessons']!.patch!.parameters.map((p) => [p.name, p.in, p.required])).toEqual([
      ['id', 'query', true], ['If-Match', 'header', false], ['Idempotency-Key', 'header', false],
    ]);
    expect(doc.paths['/api/analytics/views']!.get!.parameters.map((p) => p.name)).toEqual(['path', 'from', 'to', 'If-None-Match']);
    for (const route of apiRoutes) {
      const operation = doc.paths[route.path]![route.method.toLowerCase()]!;
      if (route.body) {
        expect(operation.requestBody?.required).toBe(true);
        // Unknown fields are refused, and the document says so.
        expect(operation.requestBody!.content['application/json']!.schema.additionalProperties).toBe(false);
      } else {
        expect(operation.requestBody).toBeUndefined();
      }
    }
    expect(requestSchema('/api/v1/lessons', 'post')({ title: 'T', body: 'B' })).toBe(true);
    expect(requestSchema('/api/v1/lessons', 'post')({ title: 'T', body: 'B', status: 'PUBLISHED' })).toBe(false);
    expect(requestSchema('/api/v1/lessons', 'post')({ body: 'B' })).toBe(false);
    expect(requestSchema('/api/v1/user/me', 'patch')({ name: 'N' })).toBe(true);
    expect(requestSchema('/api/v1/user/me', 'patch')({ name: 'N', email: 'e@example.com' })).toBe(false);
    expect(requestSchema('/api/analytics/views', 'post')({ path: '/x' })).toBe(true);
    expect(requestSchema('/api/analytics/views', 'post')({ path: 'x' })).toBe(false);
  });

  it('describes the real successful responses', async () => {
    const me = await api.get('/api/v1/user/me', { token: ada });
    expectDocumented(me, '/api/v1/user/me', 'get');
    expectDocumented(await api.patch('/api/v1/user/me', { name: 'Ada' }, { token: ada }), '/api/v1/user/me', 'patch');
    expectDocumented(await api.get(`/api/users/${me.body.id as string}`), '/api/users/{id}', 'get');

    const page = await api.get('/api/v1/lessons?limit=2', { token: ada });
    expectDocumented(page, '/api/v1/lessons', 'get');
    const last = await api.get('/api/v1/lessons?limit=100', { token: ada });
    expect(last.body.nextCursor).toBeNull();
    expectDocumented(last, '/api/v1/lessons', 'get');
    const created = await api.post('/api/v1/lessons', { title: 'Documented', body: 'B' }, { token: ada });
    expectDocumented(created, '/api/v1/lessons', 'post');
    expectDocumented(await api.get(`/api/v1/lessons?id=${created.body.id as string}`, { token: ada }), '/api/v1/lessons', 'get');
    expectDocumented(await api.patch(`/api/v1/lessons?id=${created.body.id as string}`, { summary: 'S' }, { token: ada }), '/api/v1/lessons', 'patch');
    expectDocumented(await api.post(`/api/v1/lessons/publish?id=${created.body.id as string}`, undefined, { token: ada }), '/api/v1/lessons/publish', 'post');

    expectDocumented(await api.get('/api/content/docs'), '/api/content/docs', 'get');
    expectDocumented(await api.get('/api/analytics/views?path=/docs/lessons'), '/api/analytics/views', 'get');
    const recorded = await api.post('/api/analytics/views', { path: '/x' });
    expect(recorded.status).toBe(202);
    expect(doc.paths['/api/analytics/views']!.post!.responses['202']!.content).toBeUndefined();
    expectDocumented(await api.get('/api/openapi.json'), '/api/openapi.json', 'get');
    expectDocumented(await api.get('/api/asyncapi.json'), '/api/asyncapi.json', 'get');
    expectDocumented(await api.get('/api/v1/event-types', { token: ada }), '/api/v1/event-types', 'get');
    // The events the calls above caused, once the relay has positioned them.
    const events = await waitFor('the events of the calls above', async () => {
      const reply = await api.get('/api/v1/events?limit=1000', { token: ada });
      const names = new Set((reply.body.items as { event: string }[]).map((e) => e.event));
      return ['user.updated', 'lesson.updated', 'lesson.published', 'analytics.hit'].every((name) => names.has(name)) && reply;
    });
    expectDocumented(events, '/api/v1/events', 'get');
    // Each listed event is one of the payloads plus its id, nothing else.
    const item = (events.body.items as Record<string, unknown>[])[0]!;
    const eventPage = responseSchema('/api/v1/events', 'get', 200);
    expect(eventPage({ items: [{ ...item, extra: 1 }], nextCursor: null })).toBe(false);
    expect(eventPage({ items: [{ ...item, id: undefined }], nextCursor: null })).toBe(false);
    expect(eventPage({ items: [{ ...item, event: 'webhook.test' }], nextCursor: null })).toBe(false);

    // The schemas are not vacuous: a body with an extra or a missing field does not validate.
    expect(responseSchema('/api/users/{id}', 'get', 200)({ ...me.body })).toBe(false);
    expect(responseSchema('/api/content/docs', 'get', 200)([{ id: 'x' }])).toBe(false);
  });

  it('describes the real error responses with the Error schema', async () => {
    const grace = (await api.loginAs('grace')).token;
    const cases: [Reply, string, string][] = [
      [await api.get('/api/v1/user/me'), '/api/v1/user/me', 'get'],
      [await api.patch('/api/v1/user/me', { name: '' }, { token: ada }), '/api/v1/user/me', 'patch'],
      [await api.get('/api/users/nobody'), '/api/users/{id}', 'get'],
      [await api.get('/api/v1/lessons?limit=0', { token: ada }), '/api/v1/lessons', 'get'],
      [await api.get('/api/v1/lessons?id=les_none', { token: ada }), '/api/v1/lessons', 'get'],
      [await api.post('/api/v1/lessons', { title: 'T', body: 'B' }, { token: grace }), '/api/v1/lessons', 'post'],
      [await api.post('/api/v1/lessons', '{', { token: ada }), '/api/v1/lessons', 'post'],
      [await api.post('/api/v1/lessons/publish?id=les_none', undefined, { token: ada }), '/api/v1/lessons/publish', 'post'],
      [await api.get('/api/analytics/views?from=bad'), '/api/analytics/views', 'get'],
      [await api.post('/api/analytics/views', {}), '/api/analytics/views', 'post'],
      [await api.get('/api/v1/events?limit=0', { token: ada }), '/api/v1/events', 'get'],
      [await api.get('/api/v1/events?after=evt_nope', { token: ada }), '/api/v1/events', 'get'],
      [await api.get('/api/v1/events'), '/api/v1/events', 'get'],
      [await api.get('/api/v1/event-types'), '/api/v1/event-types', 'get'],
    ];
    const seen = new Set<number>();
    for (const [reply, path, method] of cases) {
      expect(reply.status).toBeGreaterThanOrEqual(400);
      seen.add(reply.status);
      expectDocumented(reply, path, method);
    }
    expect([...seen].sort()).toEqual([400, 403, 404]);
    // A 409, documented on publish.
    const published = (await api.get('/api/v1/lessons?limit=1', { token: ada })).body.items[0].id as string;
    expectDocumented(await api.post(`/api/v1/lessons/publish?id=${published}`, undefined, { token: ada }), '/api/v1/lessons/publish', 'post');
    // The Error schema rejects what is not an error body.
    const errorSchema = schemaAt('components', 'schemas', 'Error');
    expect(errorSchema({ error: true, code: 404, message: 'x', details: { field: 'a' } })).toBe(true);
    expect(errorSchema({ error: false, code: 404, message: 'x' })).toBe(false);
    expect(errorSchema({ error: true, code: 404 })).toBe(false);
    expect(errorSchema({ error: true, code: 404, message: 'x', details: 'no' })).toBe(false);
    expect(errorSchema({ error: true, code: 404, message: 'x', field: 'outside details' })).toBe(false);
  });

  it('documents under `webhooks` what endpoints receive: per event type, the catalogue schema and the signature headers', async () => {
    const catalogue = (await api.get('/api/v1/event-types', { token: ada })).body.items as { name: string; schema: Record<string, unknown> }[];
    expect(Object.keys(doc.webhooks)).toEqual([...catalogue.map((t) => t.name), 'webhook.test']);
    for (const [name, { post }] of Object.entries(doc.webhooks)) {
      expect(post.requestBody?.required).toBe(true);
      const schema = post.requestBody!.content['application/json']!.schema;
      const served = catalogue.find((t) => t.name === name);
      // The very schema GET /api/v1/event-types serves (webhook.test is for webhooks only).
      if (served) expect(schema).toEqual(served.schema);
      else expect(schema).toMatchObject({ properties: { event: { const: 'webhook.test' } }, required: ['event', 'timestamp'], additionalProperties: false });
      expect(post.parameters.map((p) => [p.name, p.in, p.required])).toEqual([
        ['webhook-id', 'header', true], ['webhook-timestamp', 'header', true], ['webhook-signature', 'header', true],
      ]);
      expect(Object.keys(post.responses)).toContain('2XX');
    }
    // The served schemas validate in the document too, and refuse a payload of another event.
    const published = schemaAt('webhooks', 'lesson.published', 'post', 'requestBody', 'content', 'application/json', 'schema');
    const payload = { event: 'lesson.published', timestamp: '2026-11-23T07:00:00.000Z', lessonId: 'les_01kakxqz1v0000000000000000' };
    expect(published(payload)).toBe(true);
    expect(published({ ...payload, event: 'lesson.updated' })).toBe(false);
    const signature = schemaAt('webhooks', 'lesson.published', 'post', 'parameters', '2', 'schema');
    expect(signature('v1,c2lnbmF0dXJl v1,b2xk')).toBe(true);
    expect(signature('v2,c2lnbmF0dXJl')).toBe(false);
  });
});
