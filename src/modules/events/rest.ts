// The event list, the event-type catalogue and the AsyncAPI document over REST.
import { z } from 'zod';
import { isoInstant } from '../../dates.js';
import { defineRoute } from '../../http/route.js';
import { asyncApiDocument } from './asyncapi.js';
import { EVENT_NAMES } from './catalog.js';
import { MAX_EVENT_PAGE, parseEventList, unknownEvent } from './inputs.js';
import { eventListPage, eventTypeList, toEventListItem } from './views.js';

const listQuery = z.object({
  types: z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters').optional()
    .describe(`Comma-separated event names (${EVENT_NAMES.join(', ')}); absent means all`),
  after: z.string().optional()
    .describe('An event id (`evt_…`): only the events after it in commit order (exclusive). Pass `nextCursor` here for the next page'),
  since: isoInstant.optional()
    .describe('An ISO 8601 date or UTC date-time: only events whose timestamp is at or after it. With `after`, both apply (the events after `after` that are also that new), so keep `since` while paging or drop it: the cursor alone continues'),
  limit: z.string().regex(/^\d{1,7}$/, `must be an integer from 1 to ${MAX_EVENT_PAGE}`).transform(Number).optional()
    .describe(`Page size, 1-${MAX_EVENT_PAGE} (default 100)`),
});

/** The list's inputs as the router's own validation names them (`query.limit: …`). */
const QUERY_FIELDS = { types: 'query.types', since: 'query.since', limit: 'query.limit' };

/** Rendered once, on first request: it never changes while the process runs. */
let asyncApi: Record<string, unknown> | undefined;

export const eventRoutes = [
  defineRoute({
    method: 'GET', path: '/api/v1/events', operationId: 'listEvents', tag: 'events', auth: true,
    summary: 'The stored events, oldest first (commit order): the polling twin of Subscription.events',
    query: listQuery,
    success: {
      status: 200,
      description: 'A page of the events the caller may see (an ADMIN: all; anyone else: not those about a draft, nor those about another user but `user.created` and `user.updated`). `nextCursor` is null on the last page; to poll for newer events later, pass the last id you saw as `after`. An `after` naming an event hidden from the caller is refused as an unknown one',
      schema: eventListPage,
    },
    errors: [400, 403],
    handler: async ({ query, ctx, caller }) => {
      const { eventLog } = ctx.services;
      const filter = parseEventList({ types: query.types?.split(','), since: query.since, limit: query.limit }, QUERY_FIELDS);
      const after = query.after === undefined ? undefined : await eventLog.positionOf({ caller, id: query.after });
      if (after === null) throw unknownEvent('query.after');
      const page = await eventLog.list({ caller, ...filter, after });
      return { items: page.items.map(toEventListItem), nextCursor: page.nextCursor };
    },
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/event-types', operationId: 'listEventTypes', tag: 'events', auth: true,
    summary: 'Every event name with the JSON Schema (2020-12) of its payload',
    success: { status: 200, description: 'The event-type catalogue', schema: eventTypeList },
    errors: [403],
    handler: async ({ ctx }) => ctx.services.eventLog.types(),
  }),
  defineRoute({
    method: 'GET', path: '/api/asyncapi.json', operationId: 'getAsyncApiDocument', tag: 'meta', auth: false,
    summary: 'The AsyncAPI 3.0 document of the events: the webhook channel and the GraphQL subscription',
    success: { status: 200, description: 'The AsyncAPI document', schema: z.record(z.string(), z.unknown()) },
    errors: [],
    handler: async () => (asyncApi ??= asyncApiDocument()),
  }),
];
