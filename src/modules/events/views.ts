// The event list and the event-type catalogue as clients see them over REST.
import { z } from 'zod';
import type { PositionedEvent } from './bus.js';
import { EVENT_NAMES, eventPayloads, type EventName } from './catalog.js';

const eventId = z.string().describe('The event id (`evt_…`), the same one webhooks send as `webhook-id`');
const withId = { id: eventId };
/** An event as GET /api/v1/events lists it: its id, then its payload's fields. */
export const eventListItem = z.discriminatedUnion('event', [
  eventPayloads['user.created'].extend(withId),
  eventPayloads['user.updated'].extend(withId),
  eventPayloads['lesson.published'].extend(withId),
  eventPayloads['lesson.updated'].extend(withId),
  eventPayloads['analytics.hit'].extend(withId),
  eventPayloads['course.published'].extend(withId),
  eventPayloads['course.updated'].extend(withId),
  eventPayloads['enrollment.created'].extend(withId),
  eventPayloads['lesson.completed'].extend(withId),
  eventPayloads['course.completed'].extend(withId),
]);
// Every event name has its member above (a compile error otherwise).
const everyEventListed: Exclude<EventName, z.output<typeof eventListItem>['event']> extends never ? true : never = true;
void everyEventListed;
export const eventListPage = z.object({
  items: z.array(eventListItem),
  nextCursor: z.string().nullable().describe('The last item\'s id when there are more events after it; null on the last page'),
});

export const eventTypeList = z.object({
  items: z.array(
    z.object({
      name: z.enum(EVENT_NAMES),
      description: z.string(),
      schema: z.record(z.string(), z.unknown()).describe('The JSON Schema (2020-12) of the payload'),
    }),
  ),
});

export type EventListItem = z.output<typeof eventListItem>;
/** The stored payload is the one recordEvent wrote for its event name (outbox.ts types it loosely). */
export function toEventListItem({ id, payload }: PositionedEvent): EventListItem {
  // In the contract's order (jsonb keeps its own key order).
  const { event, timestamp, ...subject } = payload;
  return { id, event, timestamp, ...subject } as EventListItem;
}
