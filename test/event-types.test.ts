// GET /api/v1/event-types, the event-type catalogue, against real payloads: events caused through
// the REST API (register, update me, create + publish + update a lesson, record a page view, create
// + publish + rename a course of that lesson, the new user enrols and completes it) are
// read back from GET /api/v1/events and from a real webhook receiver (node:http on 127.0.0.1),
// and each validates against its event's JSON Schema (2020-12) as served; payloads that break
// the contract do not.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule, { type FormatsPluginOptions } from 'ajv-formats';
import { afterAll, describe, expect } from 'vitest';
import { serverTest } from './support/fixtures.js';
import { expectError } from './support/assert.js';
import type { Client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { startReceiver, type Receiver } from './support/receiver.js';
import { waitFor } from './support/wait.js';

// ajv-formats is CommonJS: depending on the interop, the plugin is the default import or its `default`.
type AddFormats = (ajv: Ajv2020, options?: FormatsPluginOptions) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

const NAMES = [
  'user.created', 'user.updated', 'lesson.published', 'lesson.updated', 'analytics.hit',
  'course.published', 'course.updated', 'enrollment.created', 'lesson.completed', 'course.completed',
];

interface EventType {
  name: string;
  description: string;
  schema: Record<string, unknown>;
}
interface Listed {
  id: string;
  event: string;
  [field: string]: unknown;
}

/** Every stored event after `after`, paging with nextCursor. */
async function eventsAfter(api: Client, token: string, after?: string): Promise<Listed[]> {
  const all: Listed[] = [];
  let cursor = after;
  for (;;) {
    const reply = await api.get(`/api/v1/events?limit=1000${cursor ? `&after=${cursor}` : ''}`, { token });
    expect(reply.status, reply.text).toBe(200);
    all.push(...(reply.body.items as Listed[]));
    if (!reply.body.nextCursor) return all;
    cursor = reply.body.nextCursor as string;
  }
}

// PGlite: the schemas do not depend on the database (the list is tested on both in events-list.test.ts).
const it = serverTest({ kind: 'pglite', env: { ...NO_RATE_LIMITS, WEBHOOK_RETRY_SCHEDULE: '1h' } });

describe('GET /api/v1/event-types', () => {
  let api: Client;
  let ada: string;
  let types: EventType[];
  let ajv: Ajv2020;
  const validators = new Map<string, ValidateFunction>();
  let receiver: Receiver;

  /** The served schema of `name`, compiled. */
  const schemaOf = (name: string): ValidateFunction => {
    const validate = validators.get(name);
    if (!validate) throw new Error(`no schema for ${name}`);
    return validate;
  };
  const expectValid = (name: string, payload: unknown) => {
    const validate = schemaOf(name);
    expect(validate(payload), `${name} ${JSON.stringify(payload)}: ${JSON.stringify(validate.errors)}`).toBe(true);
  };

  it.beforeAll(async ({ api: itsClient, ada: token }) => {
    [api, ada] = [itsClient, token];
    receiver = await startReceiver(() => 204);
    const reply = await api.get('/api/v1/event-types', { token: ada });
    expect(reply.status, reply.text).toBe(200);
    types = reply.body.items as EventType[];
    ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    for (const t of types) validators.set(t.name, ajv.compile(t.schema));
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('lists every event name with a description and a JSON Schema 2020-12 of its payload', async () => {
    expect(types.map((t) => t.name)).toEqual(NAMES);
    for (const t of types) {
      expect(Object.keys(t).sort()).toEqual(['description', 'name', 'schema']);
      expect(t.description.length).toBeGreaterThan(10);
      expect(t.schema).toMatchObject({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        additionalProperties: false,
        properties: { event: { const: t.name }, timestamp: { type: 'string', format: 'date-time' } },
      });
      expect((t.schema.required as string[]).slice(0, 2)).toEqual(['event', 'timestamp']);
    }
    // A token is needed, as on every /api/v1 route.
    expectError(await api.get('/api/v1/event-types'), 403, 'Missing or invalid token');
  });

  it('real payloads from the event list and from a webhook receiver validate against their schema', async () => {
    const hook = await api.post(
      '/api/v1/webhooks',
      { url: receiver.url, events: NAMES },
      { token: ada },
    );
    expect(hook.status, hook.text).toBe(201);
    const before = await eventsAfter(api, ada);
    const start = before[before.length - 1]?.id;

    // One of each, caused as a user would.
    const email = `types-${randomBytes(4).toString('hex')}@example.com`;
    const registered = await api.post('/api/auth/register', { email, password: 'correct horse', name: 'Types' });
    expect(registered.status, registered.text).toBe(201);
    const userId = registered.body.user.id as string;
    expect((await api.patch('/api/v1/user/me', { name: 'Renamed' }, { token: registered.body.token as string })).status).toBe(200);
    const lesson = await api.post('/api/v1/lessons', { title: 'Schemas', body: 'B' }, { token: ada });
    expect(lesson.status).toBe(201);
    const lessonId = lesson.body.id as string;
    expect((await api.post(`/api/v1/lessons/publish?id=${lessonId}`, undefined, { token: ada })).status).toBe(200);
    expect((await api.patch(`/api/v1/lessons?id=${lessonId}`, { summary: 'S' }, { token: ada })).status).toBe(200);
    const path = `/types/${randomBytes(4).toString('hex')}`;
    expect((await api.post('/api/analytics/views', { path })).status).toBe(202);
    // A course of that one lesson, published and renamed; the new user enrols and completes the
    // lesson, which completes the course.
    const course = await api.post('/api/v1/courses', { title: 'Schemas course' }, { token: ada });
    expect(course.status, course.text).toBe(201);
    const courseId = course.body.id as string;
    const learner = registered.body.token as string;
    const steps = [
      await api.request('PUT', `/api/v1/courses/${courseId}/lessons`, { token: ada, body: { lessonIds: [lessonId] } }),
      await api.post(`/api/v1/courses/${courseId}/publish`, undefined, { token: ada }),
      await api.patch(`/api/v1/courses/${courseId}`, { title: 'Schemas course, renamed' }, { token: ada }),
      await api.request('PUT', `/api/v1/courses/${courseId}/enrollment`, { token: learner }),
      await api.post(`/api/v1/lessons/complete?id=${lessonId}`, undefined, { token: learner }),
    ];
    expect(steps.map((r) => r.status), steps.map((r) => r.text).join('\n')).toEqual([200, 200, 200, 201, 200]);

    const listed = await waitFor('the ten events in the list', async () => {
      const events = await eventsAfter(api, ada, start);
      return events.some((e) => e.event === 'course.completed' && e.courseId === courseId) && events;
    });
    expect(listed.map((e) => e.event)).toEqual(NAMES);
    // Each names its subjects, and only the fields its event carries.
    expect(listed.map(({ id: _id, timestamp: _at, ...subject }) => subject)).toEqual([
      { event: 'user.created', userId }, { event: 'user.updated', userId }, { event: 'lesson.published', lessonId }, { event: 'lesson.updated', lessonId },
      { event: 'analytics.hit', path }, { event: 'course.published', courseId }, { event: 'course.updated', courseId },
      { event: 'enrollment.created', courseId, userId }, { event: 'lesson.completed', lessonId, userId }, { event: 'course.completed', courseId, userId },
    ]);
    for (const { id, ...payload } of listed) {
      expect(id).toMatch(/^evt_/);
      expectValid(payload.event, payload);
    }

    // The same events, as the receiver got them: the body is the payload, `webhook-id` the listed id.
    const secret = hook.body.secret as string;
    const delivered = await waitFor('the ten deliveries', () => listed.every((e) => receiver.hits.some((h) => h.headers['webhook-id'] === e.id)) && receiver.hits);
    for (const event of listed) {
      const hit = delivered.find((h) => h.headers['webhook-id'] === event.id)!;
      const body = new Webhook(secret).verify(hit.body, hit.headers) as Record<string, unknown>;
      const { id: _id, ...payload } = event;
      expect(body).toEqual(payload);
      expectValid(event.event, body);
    }

    // The test ping, which only webhooks get: its schema is in openapi.json's `webhooks`.
    const openapi = (await api.get('/api/openapi.json')).body as { webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: object }> } } }> };
    const ping = ajv.compile(openapi.webhooks['webhook.test']!.post.requestBody.content['application/json']!.schema);
    expect((await api.post(`/api/v1/webhooks/${hook.body.id as string}/test`, undefined, { token: ada })).status).toBe(202);
    const pinged = await waitFor('the ping', () => receiver.hits.find((h) => h.body.includes('"webhook.test"')));
    const pingBody = new Webhook(secret).verify(pinged.body, pinged.headers);
    expect(ping(pingBody), JSON.stringify(ping.errors)).toBe(true);
    expect(ping({ ...(pingBody as object), lessonId: listed[2]!.lessonId })).toBe(false);
    // Not an event of the list.
    expect((await eventsAfter(api, ada, listed[listed.length - 1]!.id)).map((e) => e.id)).not.toContain(pinged.headers['webhook-id']);
  });

  it('the schemas refuse payloads that break the contract', () => {
    const good = {
      'lesson.published': { event: 'lesson.published', timestamp: '2026-11-23T07:00:00.123Z', lessonId: 'les_01kakxqz1v0000000000000000' },
      'user.created': { event: 'user.created', timestamp: '2026-11-23T07:00:00.123Z', userId: 'usr_01kakxqz1v0000000000000000' },
      'analytics.hit': { event: 'analytics.hit', timestamp: '2026-11-23T07:00:00.123Z', path: '/docs' },
      'course.completed': { event: 'course.completed', timestamp: '2026-11-23T07:00:00.123Z', courseId: 'crs_01kakxqz1v0000000000000000', userId: 'usr_01kakxqz1v0000000000000000' },
    };
    for (const [name, payload] of Object.entries(good)) expectValid(name, payload);
    const bad: [string, unknown][] = [
      ['lesson.published', { ...good['lesson.published'], lessonId: undefined }],
      ['lesson.published', { ...good['lesson.published'], extra: 1 }],
      ['lesson.published', { ...good['lesson.published'], event: 'lesson.updated' }],
      ['lesson.published', { ...good['lesson.published'], timestamp: '2026-11-23T07:00:00Z' }],
      ['lesson.published', { ...good['lesson.published'], timestamp: '2026-11-23T07:00:00.123+01:00' }],
      ['lesson.published', { ...good['lesson.published'], lessonId: good['user.created'].userId }],
      ['user.created', { event: 'user.created', timestamp: good['user.created'].timestamp, lessonId: good['lesson.published'].lessonId }],
      ['analytics.hit', { ...good['analytics.hit'], path: 'docs' }],
      ['analytics.hit', { ...good['analytics.hit'], path: 42 }],
      ['analytics.hit', 'not an object'],
      ['course.completed', { ...good['course.completed'], userId: undefined }],
      ['course.completed', { ...good['course.completed'], courseId: good['lesson.published'].lessonId }],
      ['course.published', { ...good['course.completed'], event: 'course.published' }],
      ['enrollment.created', { ...good['course.completed'], event: 'enrollment.created', lessonId: good['lesson.published'].lessonId }],
    ];
    for (const [name, payload] of bad) {
      expect(schemaOf(name)(JSON.parse(JSON.stringify(payload)) as unknown), `${name} ${JSON.stringify(payload)}`).toBe(false);
    }
  });
});
