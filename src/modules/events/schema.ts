// The events over GraphQL: the live Subscription.events and the stored Query.events.
import { builder } from '../../graphql/builder.js';
import { forwardConnection, pageCost } from '../../graphql/connection.js';
import type { PositionedEvent } from './bus.js';
import { DEFAULT_EVENT_PAGE, MAX_EVENT_PAGE, parseEventList, unknownEvent } from './inputs.js';

const field = (e: PositionedEvent, key: 'lessonId' | 'userId' | 'path' | 'courseId') =>
  key in e.payload ? (e.payload as Record<string, string>)[key]! : null;

const Event = builder.objectRef<PositionedEvent>('Event').implement({
  description: 'A domain event. `id` is the same `evt_` id webhooks send as `webhook-id`; pass it as `after` to resume.',
  fields: (t) => ({
    id: t.exposeID('id'),
    event: t.string({ description: 'The event name, e.g. lesson.published.', resolve: (e) => e.payload.event }),
    timestamp: t.string({ description: 'ISO 8601 UTC with milliseconds.', resolve: (e) => e.payload.timestamp }),
    lessonId: t.id({ nullable: true, resolve: (e) => field(e, 'lessonId') }),
    userId: t.id({ nullable: true, resolve: (e) => field(e, 'userId') }),
    path: t.string({ nullable: true, resolve: (e) => field(e, 'path') }),
    courseId: t.id({ nullable: true, resolve: (e) => field(e, 'courseId') }),
  }),
});

builder.subscriptionType({});

builder.subscriptionFields((t) => ({
  events: t.withAuth({ authenticated: true }).field({
    type: Event,
    cache: 'never',
    description:
      'Live events in commit order, those the caller may see (an ADMIN: all; anyone else: not those about a draft, nor those about another user but user.created and user.updated). `types` narrows by event name (none: all). `after` first replays the stored events newer than that id, so a client that reconnects misses nothing; an unknown or expired id, or one hidden from the caller, is BAD_USER_INPUT.',
    args: { types: t.arg.stringList(), after: t.arg.id() },
    subscribe: (_, { types, after }, ctx) => ctx.services.events.stream({ caller: ctx.viewer(), types, after }),
    resolve: (e) => e,
  }),
}));

builder.queryFields((t) => ({
  events: t.withAuth({ authenticated: true }).connection({
    type: Event,
    cache: 'never',
    description:
      `The stored events, oldest first (commit order): the polling twin of Subscription.events and of GET /api/v1/events, with the same ids, and the same events hidden from a caller who is not an ADMIN. ` +
      `\`types\` narrows by event name (none: all); \`after\` (an event id, or an edge cursor, which is the same) starts after that event; ` +
      `\`since\` keeps the events whose timestamp is at or after it (with \`after\`, both apply); \`first\` is 1-${MAX_EVENT_PAGE} (default ${DEFAULT_EVENT_PAGE}). ` +
      'An unknown or expired `after` is BAD_USER_INPUT.',
    args: { types: t.arg.stringList(), since: t.arg({ type: 'DateTime' }) },
    complexity: pageCost(DEFAULT_EVENT_PAGE, MAX_EVENT_PAGE),
    resolve: (_, args, ctx) => {
      const caller = ctx.viewer();
      const { eventLog } = ctx.services;
      return forwardConnection(
        args,
        async ({ first, after }) => {
          // `since` as the client wrote it (the DateTime scalar keeps the text), read as REST reads it.
          const filter = parseEventList({ types: args.types, since: args.since?.text, limit: first }, { types: 'types', since: 'since', limit: 'first' });
          const from = after === undefined ? undefined : await eventLog.positionOf({ caller, id: after });
          if (from === null) throw unknownEvent('after');
          return eventLog.list({ caller, ...filter, after: from });
        },
        (e) => e.id,
      );
    },
  }),
}));
