// GET /api/asyncapi.json: an AsyncAPI 3.0 document @asyncapi/parser accepts without errors, with the
// webhook channel (a signed HTTP POST) and Subscription.events (graphql-ws and SSE on /graphql), one
// message per event type whose payload is the catalogue's schema (GET /api/v1/event-types). Served
// like /api/openapi.json: without a token, rate limited, other methods 405.
import { DiagnosticSeverity, Parser, type Diagnostic } from '@asyncapi/parser';
import { describe, expect } from 'vitest';
import { expectError } from './support/assert.js';
import { serverTest } from './support/fixtures.js';
import type { Client } from './support/http.js';

const NAMES = [
  'user.created', 'user.updated', 'lesson.published', 'lesson.updated', 'analytics.hit',
  'course.published', 'course.updated', 'enrollment.created', 'lesson.completed', 'course.completed',
];
const HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a served document, asserted field by field

const errorsOf = (diagnostics: Diagnostic[]) => diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error);
const withoutDialect = ({ $schema: _dialect, ...schema }: Json) => schema;
/** A parsed schema as written: without the ids the parser adds to every schema. */
const asWritten = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(asWritten)
    : value && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'x-parser-schema-id').map(([k, v]) => [k, asWritten(v)]))
      : value;

// The real default limits: the document is an API route like any other.
const it = serverTest({ kind: 'pglite' });

describe('GET /api/asyncapi.json', () => {
  let api: Client;
  let doc: Json;
  let catalogue: { name: string; schema: Json }[];
  /** The parser is slow (a Spectral ruleset): the served document is parsed once. */
  let parsed: Awaited<ReturnType<Parser['parse']>>;

  it.beforeAll(async ({ api: itsClient, ada }) => {
    api = itsClient;
    const reply = await api.get('/api/asyncapi.json');
    expect(reply.status, reply.text).toBe(200);
    doc = reply.body as Json;
    catalogue = (await api.get('/api/v1/event-types', { token: ada })).body.items as { name: string; schema: Json }[];
    parsed = await new Parser().parse(JSON.stringify(doc));
  }, 120_000);

  it('is served as JSON without a token, rate limited, and refuses other methods', async () => {
    const reply = await api.get('/api/asyncapi.json');
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.headers.get('ratelimit-policy')).toBe('"free";q=100;w=60');
    expect(reply.headers.get('ratelimit')).toMatch(/^"free";r=\d+;t=\d+$/);
    const post = await api.post('/api/asyncapi.json', {});
    expectError(post, 405);
    expect(post.headers.get('allow')).toContain('GET');
    // Listed in the OpenAPI document, as /api/openapi.json is.
    const openapi = (await api.get('/api/openapi.json')).body as Json;
    expect(openapi.paths['/api/asyncapi.json'].get.operationId).toBe('getAsyncApiDocument');
  });

  it('is a valid AsyncAPI 3.0 document for @asyncapi/parser, and the parser does look', { timeout: 120_000 }, async () => {
    expect(doc.asyncapi).toBe('3.0.0');
    const { document, diagnostics } = parsed;
    expect(errorsOf(diagnostics)).toEqual([]);
    // Not even a warning (the one hint left is that AsyncAPI 3.1 exists).
    expect(diagnostics.filter((d) => d.severity === DiagnosticSeverity.Warning)).toEqual([]);
    expect(document).toBeDefined();
    expect(document!.channels().all().map((c) => c.id()).sort()).toEqual(['events', 'webhook']);
    expect(document!.operations().all().map((o) => o.id()).sort()).toEqual(['sendWebhook', 'streamEvents']);

    // A broken copy is refused: a message whose payload is not a schema, an operation on no channel.
    const badPayload = structuredClone(doc);
    badPayload.components.schemas['lesson.published'] = { type: 'lesson' };
    const refused = await new Parser().parse(JSON.stringify(badPayload));
    expect(refused.document).toBeUndefined();
    expect(errorsOf(refused.diagnostics).length).toBeGreaterThan(0);
    const noChannel = structuredClone(doc);
    noChannel.operations.sendWebhook.channel = { $ref: '#/channels/nowhere' };
    expect(errorsOf((await new Parser().parse(JSON.stringify(noChannel))).diagnostics).length).toBeGreaterThan(0);
  });

  it('has one message per event type on each channel, each payload the catalogue schema', async () => {
    const { document } = parsed;
    const webhook = document!.channels().get('webhook')!;
    const events = document!.channels().get('events')!;
    expect(webhook.messages().all().map((m) => m.name())).toEqual([...NAMES, 'webhook.test']);
    expect(events.messages().all().map((m) => m.name())).toEqual(NAMES);
    expect(catalogue.map((e) => e.name)).toEqual(NAMES);
    for (const { name, schema } of catalogue) {
      // A webhook's body is the payload itself.
      const hook = webhook.messages().all().find((m) => m.name() === name)!;
      expect(asWritten(hook.payload()!.json()), `webhook ${name}`).toEqual(withoutDialect(schema));
      // A subscriber gets it inside a GraphQL result, `data.events`, with the event's id and null
      // for the other event types' fields (test/asyncapi-subscription-payload.test.ts checks real
      // messages against it): the catalogue's properties, as they are.
      const live = asWritten(events.messages().all().find((m) => m.name() === name)!.payload()!.json()) as Json;
      const fields = live.properties.data.properties.events as Json;
      expect(fields.required, `events ${name}`).toEqual(['id', 'event', 'timestamp', 'lessonId', 'userId', 'path', 'courseId']);
      for (const [field, fieldSchema] of Object.entries(schema.properties as Json)) expect(fields.properties[field], `events ${name} ${field}`).toEqual(fieldSchema);
    }
    // The ping is documented for webhooks only.
    expect(asWritten(webhook.messages().all().find((m) => m.name() === 'webhook.test')!.payload()!.json())).toMatchObject({
      properties: { event: { const: 'webhook.test' } },
      required: ['event', 'timestamp'],
      additionalProperties: false,
    });
  });

  it('describes the webhook as a signed HTTP POST, and the subscription over WebSocket and SSE on /graphql', async () => {
    const { document } = parsed;
    const send = document!.operations().get('sendWebhook')!;
    expect(send.action()).toBe('send');
    expect(send.bindings().get('http')!.value()).toMatchObject({ method: 'POST' });
    for (const message of document!.channels().get('webhook')!.messages().all()) {
      const headers = message.headers()!.json() as Json;
      expect(headers.required).toEqual(HEADERS);
      expect(Object.keys(headers.properties as Json)).toEqual(HEADERS);
      expect(message.correlationId()!.location()).toBe('$message.header#/webhook-id');
    }
    const events = document!.channels().get('events')!;
    expect(events.address()).toBe('/graphql');
    expect(events.servers().all().map((s) => s.protocol()).sort()).toEqual(['http', 'ws']);
    expect(events.description()).toContain('subscription { events(types: [String!], after: ID)');
    expect(document!.channels().get('webhook')!.servers().all().map((s) => s.id())).toEqual(['webhookReceiver']);
  });
});
