// /api/openapi.json says what the dates in its responses are, as clients generate code from it:
// every date-time a real response carries (createdAt, updatedAt, publishedAt, lastUsedAt, at,
// nextAttemptAt, lastSuccessAt, failingSince…) is described with `format: date-time`, and `joined`
// (`YYYY-MM-DD`) with `format: date`, and each value satisfies its format (Ajv's 2020 build with
// ajv-formats). They used to be plain strings: a generator made them strings, and a validator
// took any text there. The event timestamps had their format already.
import { randomBytes } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule, { type FormatsPluginOptions } from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { Reply } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { startReceiver } from './support/receiver.js';
import { serverForSuite } from './support/server.js';
import { waitFor } from './support/wait.js';

type AddFormats = (ajv: Ajv2020, options?: FormatsPluginOptions) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a served document, walked by hand

const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const DATE = /^\d{4}-\d\d-\d\d$/;
const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

describe('openapi.json: the formats of the dates in responses', () => {
  const suite = serverForSuite({ kind: 'pglite', env: { ...NO_RATE_LIMITS, WEBHOOK_RETRY_SCHEDULE: '1h' } });

  it('describes every date-time and date a response carries with its format, and the values satisfy it', async () => {
    const { api } = suite;
    const doc = (await api.get('/api/openapi.json')).body as Json;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(doc, 'openapi.json');

    /** Each string of `value` against its schema in `schema`, following anyOf/oneOf to the branch that matches. */
    const problems: string[] = [];
    const walk = (schema: Json, value: unknown, where: string) => {
      for (const key of ['anyOf', 'oneOf'] as const) {
        if (Array.isArray(schema[key])) {
          const branch = (schema[key] as Json[]).find((s) => ajv.validate(s, value));
          if (branch) walk(branch, value, where);
          else problems.push(`${where}: no branch of ${key} matches`);
          return;
        }
      }
      if (typeof value === 'string') {
        if (DATE_TIME.test(value) && schema.format !== 'date-time') problems.push(`${where} = ${value}: format ${schema.format ?? 'none'}, not date-time`);
        if (DATE.test(value) && schema.format !== 'date') problems.push(`${where} = ${value}: format ${schema.format ?? 'none'}, not date`);
      } else if (Array.isArray(value)) value.forEach((v, i) => walk((schema.items ?? {}) as Json, v, `${where}[${i}]`));
      else if (value && typeof value === 'object')
        for (const [k, v] of Object.entries(value)) walk(((schema.properties ?? {}) as Json)[k] ?? {}, v, `${where}.${k}`);
    };
    const check = (method: string, template: string, reply: Reply) => {
      const status = String(reply.status);
      const ref = `openapi.json#/paths/${pointer(template)}/${method}/responses/${status}/content/application~1json/schema`;
      const validate = ajv.getSchema(ref);
      expect(validate, `${method} ${template} ${status}: ${reply.text}`).toBeDefined();
      expect(validate!(reply.body), `${method} ${template} ${status}: ${JSON.stringify(validate!.errors)}`).toBe(true);
      walk(resolveRef(doc, ajv.getSchema(ref)!.schema as Json), reply.body, `${method.toUpperCase()} ${template}`);
    };

    const ada = (await api.loginAs('ada')).token;
    const email = `formats-${randomBytes(4).toString('hex')}@example.com`;
    check('post', '/api/auth/register', await api.post('/api/auth/register', { email, password: 'password-123', name: 'Formats' }));
    check('get', '/api/v1/user/me', await api.get('/api/v1/user/me', { token: ada }));
    const me = (await api.get('/api/v1/user/me', { token: ada })).body as Json;
    check('get', '/api/users/{id}', await api.get(`/api/users/${me.id}`));
    check('get', '/api/v1/sessions', await api.get('/api/v1/sessions', { token: ada }));
    const lesson = await api.post('/api/v1/lessons', { title: 'Formats', body: 'b' }, { token: ada });
    check('post', '/api/v1/lessons', lesson);
    check('post', '/api/v1/lessons/publish', await api.post(`/api/v1/lessons/publish?id=${lesson.body.id}`, undefined, { token: ada }));
    check('get', '/api/v1/lessons', await api.get('/api/v1/lessons?limit=3', { token: ada }));
    check('get', '/api/v1/lessons', await api.get(`/api/v1/lessons?id=${lesson.body.id}`, { token: ada }));
    check('get', '/api/content/docs', await api.get('/api/content/docs'));
    check('post', '/api/v1/api-keys', await api.post('/api/v1/api-keys', { name: 'formats' }, { token: ada }));
    const key = (await api.post('/api/v1/api-keys', { name: 'formats, used' }, { token: ada })).body as Json;
    expect((await api.get('/api/v1/user/me', { headers: { 'x-api-key': key.key as string } })).status).toBe(200);
    check('get', '/api/v1/api-keys', await api.get('/api/v1/api-keys', { token: ada }));

    const receiver = await startReceiver(() => 204);
    try {
      const hook = await api.post('/api/v1/webhooks', { url: receiver.url, events: ['lesson.published'] }, { token: ada });
      check('post', '/api/v1/webhooks', hook);
      check('post', '/api/v1/webhooks/{id}/test', await api.post(`/api/v1/webhooks/${hook.body.id}/test`, undefined, { token: ada }));
      await waitFor('the test delivery to succeed', async () => {
        const reply = await api.get(`/api/v1/webhooks/${hook.body.id}/deliveries`, { token: ada });
        return reply.body.items[0]?.status === 'SUCCEEDED' && reply;
      }).then((reply) => check('get', '/api/v1/webhooks/{id}/deliveries', reply));
      check('get', '/api/v1/webhooks/{id}', await api.get(`/api/v1/webhooks/${hook.body.id}`, { token: ada }));
      check('get', '/api/v1/webhooks', await api.get('/api/v1/webhooks', { token: ada }));
    } finally {
      await receiver.close();
    }
    expect(problems).toEqual([]);
  });
});

/** A schema with its `$ref` to the document's components resolved (the responses' own schemas have none but Error). */
function resolveRef(doc: Json, schema: Json): Json {
  if (typeof schema.$ref !== 'string') return schema;
  return (schema.$ref as string).slice(2).split('/').reduce((at: Json, k) => at[k], doc);
}
