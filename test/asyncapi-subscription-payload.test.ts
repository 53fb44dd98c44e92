// The AsyncAPI document's `events` channel against what a subscriber really receives: the
// subscription its description gives, opened over SSE on /graphql, gets one `next` per event, and
// each message validates (Ajv's 2020 build) against the payload of that event's message on the
// channel, as a client generated from the document would read it. The document used to give the
// webhook body there (`{event, timestamp, lessonId}`, no other property allowed), while every
// message is a GraphQL result `{data: {events: {id, event, timestamp, lessonId, userId, path}}}`:
// no message a subscriber got matched its own document.
import { request, type IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule, { type FormatsPluginOptions } from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS } from './support/limits.js';
import { serverForSuite } from './support/server.js';
import { waitFor } from './support/wait.js';

type AddFormats = (ajv: Ajv2020, options?: FormatsPluginOptions) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a served document, read by pointer

/** The selection the channel's description gives. */
const QUERY = 'subscription { events { id event timestamp lessonId userId path courseId } }';

function open(url: string, token: string): Promise<{ res: IncomingMessage; text(): string }> {
  const body = JSON.stringify({ query: QUERY });
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/graphql`,
      { method: 'POST', headers: { accept: 'text/event-stream', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${token}` } },
      (res) => {
        res.setEncoding('utf8');
        let text = '';
        res.on('data', (chunk: string) => (text += chunk));
        resolve({ res, text: () => text });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The JSON of every `event: next` frame read so far. */
const nexts = (text: string): Json[] =>
  text
    .split('\n\n')
    .filter((block) => block.startsWith('event: next\n'))
    .map((block) => JSON.parse(block.split('\n').find((line) => line.startsWith('data: '))!.slice('data: '.length)) as Json);

/** Follows a local `$ref` of the document. */
const resolve = (doc: Json, node: Json): Json =>
  typeof node.$ref === 'string' ? resolve(doc, (node.$ref as string).slice(2).split('/').reduce((at: Json, key) => at[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc)) : node;

describe('AsyncAPI: the events channel describes what a subscriber receives', () => {
  const suite = serverForSuite({ kind: 'pglite', env: NO_RATE_LIMITS });

  it('every message of a subscription over SSE validates against its message payload on the events channel', async () => {
    const { api } = suite;
    const doc = (await api.get('/api/asyncapi.json')).body as Json;
    const ada = (await api.loginAs('ada')).token;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const channel = doc.channels.events as Json;
    const payloadOf = (name: string) => {
      const message = resolve(doc, channel.messages[name] as Json);
      return ajv.compile(resolve(doc, message.payload as Json));
    };

    const stream = await open(suite.server.url, ada);
    expect(stream.res.statusCode).toBe(200);
    const path = `/asyncapi/${randomBytes(4).toString('hex')}`;
    // A view per try until one arrives (the stream is registered by then).
    await waitFor('the first event on the stream', async () => {
      expect((await api.post('/api/analytics/views', { path })).status).toBe(202);
      return nexts(stream.text()).length > 0;
    });
    const lesson = await api.post('/api/v1/lessons', { title: 'AsyncAPI', body: 'b' }, { token: ada });
    expect(lesson.status, lesson.text).toBe(201);
    expect((await api.patch(`/api/v1/lessons?id=${lesson.body.id}`, { title: 'AsyncAPI, again' }, { token: ada })).status).toBe(200);
    expect((await api.post(`/api/v1/lessons/publish?id=${lesson.body.id}`, undefined, { token: ada })).status).toBe(200);
    expect((await api.patch('/api/v1/user/me', { name: 'Ada Lovelace' }, { token: ada })).status).toBe(200);
    const email = `asyncapi-${randomBytes(4).toString('hex')}@example.com`;
    expect((await api.post('/api/auth/register', { email, password: 'password-123', name: 'Async' })).status).toBe(201);

    const seen = await waitFor('one message of every event type', () => {
      const messages = nexts(stream.text());
      const names = new Set(messages.map((m) => m.data?.events?.event as string));
      return ['analytics.hit', 'lesson.updated', 'lesson.published', 'user.updated', 'user.created'].every((n) => names.has(n)) && messages;
    });
    stream.res.destroy();

    for (const message of seen) {
      const name = message.data.events.event as string;
      const validate = payloadOf(name);
      expect(validate(message), `${name}: ${JSON.stringify(message)} ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });
});
