// The AsyncAPI 3.0 document of the events (GET /api/asyncapi.json): webhooks (signed per Standard
// Webhooks) and Subscription.events (graphql-ws or SSE on /graphql), one message per event type. On
// the webhook channel its payload is the catalogue's schema; on the events channel, the GraphQL
// result that carries it (subscriptionPayload).
import { EVENT_CATALOG, WEBHOOK_CATALOG, WEBHOOK_HEADERS, type EventTypeEntry, type JsonSchema } from './catalog.js';

/**
 * A catalogue schema as an AsyncAPI payload: the same schema without its 2020-12 `$schema`, and no
 * `schemaFormat`: @asyncapi/parser knows JSON Schema draft-07, not 2020-12, and the catalogue uses
 * only keywords that mean the same in both (test/asyncapi.test.ts checks they are the catalogue's).
 */
export function asyncApiPayload(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

const webhookHeaders: JsonSchema = {
  type: 'object',
  required: Object.keys(WEBHOOK_HEADERS),
  properties: Object.fromEntries(Object.entries(WEBHOOK_HEADERS).map(([name, h]) => [name, { ...h.schema, description: h.description }])),
};

const ref = ($ref: string) => ({ $ref });

/** The fields of `Event` the channel's documented selection asks for, beside the payload's. */
const EVENT_FIELDS = ['id', 'event', 'timestamp', 'lessonId', 'userId', 'path', 'courseId'] as const;

/**
 * What a subscriber receives for one event: not the webhook body but a GraphQL execution result,
 * `{data: {events: {...}}}`, whose `events` holds the event's `id` (its `webhook-id`) and the fields
 * of its payload (the catalogue's schemas, as they are), and null for the fields of other event
 * types. Written for the selection the channel's description gives
 * (`{ id event timestamp lessonId userId path courseId }`); a client that selects fewer gets fewer.
 */
export function subscriptionPayload(e: EventTypeEntry): JsonSchema {
  const payload = asyncApiPayload(e.schema) as { properties: Record<string, JsonSchema>; required?: string[] };
  const properties: Record<string, JsonSchema> = {
    id: { ...WEBHOOK_HEADERS['webhook-id'].schema, description: 'The event id (`evt_…`): the `webhook-id` of its webhooks; pass it as `after` to resume' },
  };
  for (const field of EVENT_FIELDS) {
    if (field === 'id') continue;
    properties[field] = payload.properties[field] ?? { type: 'null', description: `Not a field of ${e.name}: null when selected` };
  }
  return {
    type: 'object',
    description: `A GraphQL result of Subscription.events carrying one ${e.name} event (one SSE \`next\` event, or the payload of a graphql-ws \`next\` message).`,
    required: ['data'],
    properties: {
      data: {
        type: 'object',
        required: ['events'],
        properties: {
          events: {
            type: 'object',
            description: e.description,
            required: [...EVENT_FIELDS],
            properties,
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  };
}
/** A JSON pointer segment (RFC 6901): event names have no `/` or `~`, but say so once. */
const segment = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

export function asyncApiDocument(): JsonSchema {
  const schemas = {
    ...Object.fromEntries(WEBHOOK_CATALOG.map((e) => [e.name, asyncApiPayload(e.schema)])),
    ...Object.fromEntries(EVENT_CATALOG.map((e) => [`${e.name}.subscription`, subscriptionPayload(e)])),
  };
  const message = (e: EventTypeEntry, webhook: boolean): JsonSchema => ({
    name: e.name,
    title: e.name,
    summary: e.description,
    contentType: 'application/json',
    // A webhook's body is the payload itself; a subscriber gets it inside a GraphQL result.
    payload: ref(`#/components/schemas/${segment(webhook ? e.name : `${e.name}.subscription`)}`),
    ...(webhook
      ? {
          headers: webhookHeaders,
          correlationId: { description: 'The event id', location: '$message.header#/webhook-id' },
          bindings: { http: { headers: webhookHeaders, bindingVersion: '0.3.0' } },
        }
      : {}),
  });
  const messages = {
    ...Object.fromEntries(EVENT_CATALOG.map((e) => [`${e.name}`, message(e, false)])),
    ...Object.fromEntries(WEBHOOK_CATALOG.map((e) => [`${e.name}.webhook`, message(e, true)])),
  };
  const channelMessages = (entries: readonly EventTypeEntry[], suffix: string) =>
    Object.fromEntries(entries.map((e) => [e.name, ref(`#/components/messages/${segment(e.name + suffix)}`)]));
  const operationMessages = (channel: string, entries: readonly EventTypeEntry[]) =>
    entries.map((e) => ref(`#/channels/${channel}/messages/${segment(e.name)}`));

  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Learnstream events',
      version: '1.0.0',
      description:
        'The domain events of Learnstream, in commit order, each with an `evt_` id. They reach a client three ways: ' +
        'webhooks (an HTTP POST to every endpoint registered for the event, signed per Standard Webhooks), ' +
        'the GraphQL subscription `events(types, after)` on /graphql (graphql-ws over WebSocket, or Server-Sent Events), ' +
        'and the polling list GET /api/v1/events (see /api/openapi.json). The payload schemas are also served, as JSON Schema 2020-12, at GET /api/v1/event-types.',
    },
    defaultContentType: 'application/json',
    servers: {
      graphqlWs: {
        host: '{host}',
        protocol: 'ws',
        description: 'graphql-ws over WebSocket. Authenticate with `connectionParams: {authorization: "Bearer <token or lp_ API key>"}` (or an Authorization header on the upgrade request).',
        variables: { host: { default: '127.0.0.1:4000', description: 'Where the service listens (HOST:PORT)' } },
        security: [ref('#/components/securitySchemes/bearer')],
      },
      graphqlSse: {
        host: '{host}',
        protocol: 'http',
        description: 'GraphQL over Server-Sent Events (graphql-sse: distinct connections on /graphql, single connection on /graphql/stream), with `Authorization: Bearer <token or lp_ API key>`.',
        variables: { host: { default: '127.0.0.1:4000', description: 'Where the service listens (HOST:PORT)' } },
        security: [ref('#/components/securitySchemes/bearer')],
      },
      webhookReceiver: {
        host: '{receiver}',
        protocol: 'https',
        description: "A subscriber's webhook endpoint: the URL registered with POST /api/v1/webhooks (ADMIN). Plain http is allowed for loopback and private addresses outside production.",
        variables: { receiver: { default: 'receiver.example.com', description: 'The host of the registered URL' } },
      },
    },
    channels: {
      webhook: {
        // The URL is each endpoint's own: not known to this document.
        address: null,
        title: 'Webhook endpoint',
        description:
          'Each event goes, as an HTTP POST with the payload as its JSON body, to every enabled endpoint registered for it. ' +
          'A 2xx within the timeout (default 10 s) is success; anything else is retried on WEBHOOK_RETRY_SCHEDULE, honouring Retry-After; 410 Gone disables the endpoint. ' +
          'At least once and possibly out of order: de-duplicate with `webhook-id`. Verify `webhook-signature` with any Standard Webhooks library. ' +
          '`webhook.test` is sent only by POST /api/v1/webhooks/{id}/test.',
        servers: [ref('#/servers/webhookReceiver')],
        messages: channelMessages(WEBHOOK_CATALOG, '.webhook'),
      },
      events: {
        address: '/graphql',
        title: 'Subscription.events',
        description:
          'subscription { events(types: [String!], after: ID) { id event timestamp lessonId userId path courseId } } for any authenticated caller. ' +
          'Each event arrives as `data.events` of a GraphQL result: its `id` (the `webhook-id` of its webhooks) and the fields of its payload ' +
          '(the fields of other event types, if selected, are null). `after` replays the stored events newer than that id before going live. ' +
          'A subscriber more than SUBSCRIPTION_BUFFER events behind is ended with an error of code SUBSCRIBER_TOO_SLOW naming the last id it was sent.',
        servers: [ref('#/servers/graphqlWs'), ref('#/servers/graphqlSse')],
        messages: channelMessages(EVENT_CATALOG, ''),
      },
    },
    operations: {
      sendWebhook: {
        action: 'send',
        channel: ref('#/channels/webhook'),
        title: 'Deliver an event to a webhook endpoint',
        summary: 'POST the payload to the endpoint URL, signed',
        bindings: { http: { method: 'POST', bindingVersion: '0.3.0' } },
        messages: operationMessages('webhook', WEBHOOK_CATALOG),
      },
      streamEvents: {
        action: 'send',
        channel: ref('#/channels/events'),
        title: 'Stream events to a subscriber',
        summary: 'Subscription.events: live events in commit order, optionally replayed from `after`',
        messages: operationMessages('events', EVENT_CATALOG),
      },
    },
    components: {
      schemas,
      messages,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An access token (JWT) or an API key (`lp_…`)' },
      },
    },
  };
}
