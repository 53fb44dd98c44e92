// The OpenAPI 3.1 document, generated from the same zod schemas the router validates with.
import { z } from 'zod';
import { errorStatus } from '../errors.js';
import { WEBHOOK_CATALOG, WEBHOOK_HEADERS } from '../modules/events/catalog.js';
import { takesIdempotencyKey, type RouteDefinition } from './route.js';

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

const errorDescriptions: Record<number, string> = {
  400: 'Invalid input: the message names the field',
  401: 'Invalid credentials',
  403: 'Missing or invalid token, or not allowed',
  404: 'Not found',
  405: 'Method not allowed (see the Allow header)',
  409: 'Conflict',
  412: 'Precondition failed: the If-Match named no current version of the resource; nothing was changed',
  413: 'Request body too large',
  422: 'The Idempotency-Key was used for another request (another method, path or body)',
  429: 'Rate limit exceeded (see Retry-After)',
  500: 'Unexpected error',
  503: 'Database unavailable',
};

const errorSchema: JsonSchema = {
  type: 'object',
  required: ['error', 'code', 'message'],
  properties: {
    error: { const: true },
    code: { type: 'integer', enum: [...new Set(Object.values(errorStatus))] },
    message: { type: 'string' },
    details: { type: 'object', additionalProperties: true },
  },
  // The contract: extra fields only under `details`.
  additionalProperties: false,
};

/** The rate-limit headers on every limited response (none for Enterprise callers). */
const rateLimitHeaders: Record<string, JsonSchema> = {
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
  RateLimit: { $ref: '#/components/headers/RateLimit' },
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};
/** A cached read's answers (RouteDefinition.cached): the limit headers and its ETag. */
const cachedReadHeaders: Record<string, JsonSchema> = { ...rateLimitHeaders, ETag: { $ref: '#/components/headers/ETag' } };
const headerComponents: Record<string, JsonSchema> = {
  'RateLimit-Policy': {
    description: 'The caller\'s quota, `"<policy>";q=<limit>;w=<window seconds>` (draft-ietf-httpapi-ratelimit-headers-11), e.g. `"free";q=100;w=60`',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: '`"<policy>";r=<remaining>;t=<seconds until a slot frees>` (draft-ietf-httpapi-ratelimit-headers-11), e.g. `"free";r=97;t=58`',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': { description: 'Requests allowed per rolling window', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When the next slot frees (unix seconds)', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
  ETag: {
    description: 'The strong entity tag of this answer (a digest of its JSON): send it as If-None-Match to get a 304 while it is current, or as If-Match to change the resource only if it still is',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored response of an earlier request with the same Idempotency-Key, replayed byte for byte: nothing was changed again',
    schema: { type: 'string', enum: ['true'] },
  },
};
const etagHeader = { ETag: { $ref: '#/components/headers/ETag' } };
const replayedHeader = { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } };
const IF_NONE_MATCH = { name: 'If-None-Match', in: 'header', required: false, description: 'An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current', schema: { type: 'string' } };
const IF_MATCH = {
  name: 'If-Match', in: 'header', required: false,
  description: 'The ETag of the resource as last read (its GET), or `*`: the change is made only if it is still current, otherwise 412 and nothing changes',
  schema: { type: 'string' },
};
const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key', in: 'header', required: false,
  description:
    '1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again ' +
    '(`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = toSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, prop]) => {
    const { description, ...propSchema } = prop;
    return {
      name,
      in: where,
      required: where === 'path' || (json.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: propSchema,
    };
  });
}

/**
 * What the service POSTs to webhook endpoints (OpenAPI 3.1 `webhooks`): one entry per event type,
 * its body the catalogue's JSON Schema (the one GET /api/v1/event-types serves), with the
 * Standard Webhooks signature headers.
 */
function webhooks(): Record<string, JsonSchema> {
  const headers = Object.entries(WEBHOOK_HEADERS).map(([name, { description, schema }]) => ({ name, in: 'header', required: true, description, schema }));
  return Object.fromEntries(
    WEBHOOK_CATALOG.map(({ name, description, schema }) => [
      name,
      {
        post: {
          summary: `${name}`,
          description:
            `${description} Sent as an HTTP POST to every enabled endpoint registered for \`${name}\`` +
            (name === 'webhook.test' ? ' (only by POST /api/v1/webhooks/{id}/test).' : '.') +
            ' At least once, possibly out of order: de-duplicate with `webhook-id`.',
          tags: ['webhooks'],
          parameters: headers,
          requestBody: { required: true, content: { 'application/json': { schema } } },
          responses: {
            '2XX': { description: 'Received. Answer within WEBHOOK_TIMEOUT_MS (default 10 s); any other answer is retried' },
            '410': { description: 'Gone: the endpoint is disabled and gets no more deliveries' },
            default: { description: 'Retried on WEBHOOK_RETRY_SCHEDULE (a Retry-After is honoured)' },
          },
        },
      },
    ]),
  );
}

export function openApiDocument(routes: readonly RouteDefinition[]): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    // Beyond what the route declares, what the router itself answers: 400 for invalid input, on
    // every route since any query string is checked (a parameter named twice, NUL and the other
    // characters the input rule refuses, percent-encoding that is not UTF-8), whether or not the
    // route reads one; 413 for an oversized body on every method but GET, as the server reads (and
    // limits) the body of any other request before routing it, whether or not the route reads one
    // (src/server.ts); 403 without a valid token; and 429/500/503 anywhere.
    // Idempotency-Key: 409 while its first request runs, 422 for another request; If-Match: 412.
    const keyed = takesIdempotencyKey(route);
    const implied = [
      400,
      ...(route.body || route.method !== 'GET' ? [413] : []),
      ...(route.auth || route.roles ? [403] : []),
      ...(keyed ? [409, 422] : []),
      ...(route.ifMatch ? [412] : []),
    ];
    // A GET's answer, and a write's that declares ifMatch, carry the ETag of their JSON (src/http/router.ts).
    const tagged = Boolean(route.success.schema) && (route.method === 'GET' || route.ifMatch);
    const errors = [...new Set([...route.errors, ...implied, 429, 500, 503])].sort((a, b) => a - b);
    const responses: Record<string, JsonSchema> = {
      [route.success.status]: {
        description: route.success.description,
        headers: { ...(route.cached ? cachedReadHeaders : rateLimitHeaders), ...(tagged ? etagHeader : {}), ...(keyed ? replayedHeader : {}) },
        ...(route.success.schema ? { content: { 'application/json': { schema: toSchema(route.success.schema, 'output') } } } : {}),
      },
    };
    if (route.success.also) responses[route.success.also.status] = { ...responses[route.success.status], description: route.success.also.description };
    // A cached read's conditional GET (see RouteDefinition.cached).
    if (route.cached || (tagged && route.method === 'GET')) {
      responses[304] = { description: 'Not modified: the If-None-Match named the current ETag (costs no rate-limit budget)', headers: cachedReadHeaders };
    }
    for (const code of errors) {
      responses[code] = {
        description: errorDescriptions[code] ?? 'Error',
        ...(code === 429 ? { headers: { ...rateLimitHeaders, 'Retry-After': { $ref: '#/components/headers/Retry-After' } } } : {}),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.roles ? { description: `Only for ${route.roles.join(', ')} (403 \`Forbidden\` for other users).` } : {}),
      tags: [route.tag],
      ...(route.auth ? { security: [{ bearerAuth: [] }, { apiKeyHeader: [] }] } : { security: [] }),
      parameters: [
        ...parameters(route.params, 'path'),
        ...parameters(route.query, 'query'),
        ...(route.cached || (tagged && route.method === 'GET') ? [IF_NONE_MATCH] : []),
        ...(route.ifMatch ? [IF_MATCH] : []),
        ...(keyed ? [IDEMPOTENCY_KEY] : []),
      ],
      ...(route.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: toSchema(route.body, 'input') } } } }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Learnstream API',
      version: '1.0.0',
      description:
        'REST surface of Learnstream. Every error is `{error: true, code, message}` with HTTP status equal to `code`. ' +
        'Every route except /healthz and /readyz draws on the caller\'s rolling rate-limit budget (see the RateLimit headers). ' +
        'What the service POSTs to webhook endpoints is described under `webhooks`; the events\' channels (webhooks and the GraphQL subscription) ' +
        'are described by the AsyncAPI 3.0 document at /api/asyncapi.json.',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    webhooks: webhooks(),
    components: {
      schemas: { Error: errorSchema },
      headers: headerComponents,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An access token (JWT) or an API key (`lp_…`)' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key (`lp_…`), acting as its owner' },
      },
    },
  };
}
