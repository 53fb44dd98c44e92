// Invalidation by our own committed events, twice: by the request that committed the change, before
// it answers, so a read that follows on any instance is fresh (ResponseCache.invalidate); and by
// every instance when the event reaches it on the bus, which also clears what a read begun before
// the commit stored after it (invalidateOnEvents).
import type { EventBus } from '../events/bus.js';
import type { EventPayload } from '../events/outbox.js';
import type { Entity } from './store.js';

/** The cached entities an event names: what its change may have made stale. */
export function entitiesOf(event: EventPayload): Entity[] {
  if (event.event === 'user.updated') return [{ typename: 'User', id: event.userId }];
  if (event.event === 'lesson.published' || event.event === 'lesson.updated') return [{ typename: 'Lesson', id: event.lessonId }];
  if (event.event === 'course.published' || event.event === 'course.updated') return [{ typename: 'Course', id: event.courseId }];
  return [];
}

/**
 * Invalidates what every event this instance hears names; returns a function that stops
 * following. What arrives while an invalidation is under way goes into the next one, whatever its
 * number: one round trip to Redis per batch, not per event, so a slow Redis does not leave the
 * invalidations (and stale entries) falling ever further behind.
 */
export function invalidateOnEvents(bus: EventBus, responseCache: { invalidate(events: readonly EventPayload[]): Promise<void> }): () => Promise<void> {
  const events = bus.subscribe();
  let heard: EventPayload[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  const reading = (async () => {
    for await (const event of events) {
      heard.push(event.payload);
      wake?.();
    }
    ended = true;
    wake?.();
  })();
  const invalidating = (async () => {
    for (;;) {
      if (heard.length) {
        const batch = heard;
        heard = [];
        await responseCache.invalidate(batch);
      } else if (ended) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  })();
  return async () => {
    await events.return?.();
    await Promise.all([reading, invalidating]);
  };
}
