// The one place a domain event is recorded. It takes the transaction of the change that caused
// the event, so a committed change always has its event and a rolled-back one never does (the
// relay positions it once committed: see relay.ts for how it is woken).
import type { Prisma } from '../../generated/prisma/client.js';
import { newId } from '../../ids.js';

import { EVERYONE, type Audience } from './audience.js';
import { EVENT_NAMES, type EventPayloadOf } from './catalog.js';

/** The event names: defined once, with their payload schemas, in catalog.ts. */
export const EVENT_TYPES = EVENT_NAMES;
export type EventType = (typeof EVENT_TYPES)[number];

/** What each event names besides its name and time: the catalogue's payload without those two. */
export type EventData<T extends EventType> = Omit<EventPayloadOf<T>, 'event' | 'timestamp'>;

/** Any event's payload, as it is stored and sent. */
export type EventPayload = { [T in EventType]: EventPayloadOf<T> }[EventType];

/**
 * Told of events once the transaction that recorded them has committed, before the change is
 * answered: the response cache drops what they name, so the next read on any instance is fresh,
 * and this instance's relay is woken to position and publish them at once (relay.ts). Every
 * service that records an event calls it.
 */
export type OnCommitted = (events: readonly EventPayload[]) => Promise<void>;

export interface RecordedEvent {
  id: string;
  payload: EventPayload;
}


/** A new event: its id, and the payload every subscriber and receiver gets, stamped now. */
export function newEvent<T extends EventType>(type: T, data: EventData<T>): RecordedEvent & { createdAt: Date } {
  const createdAt = new Date();
  return { id: newId('evt'), payload: { event: type, timestamp: createdAt.toISOString(), ...data } as EventPayloadOf<T> as EventPayload, createdAt };
}

/**
 * Events that are public data whatever the change (audience.ts): they may omit the audience.
 * Every other name's recording service must say who sees it, as it knows at the time of the change
 * (a lesson still a draft, an event about one learner), so a new event name cannot leak by default.
 */
export type AlwaysPublic = 'user.created' | 'user.updated' | 'lesson.published' | 'analytics.hit' | 'course.published' | 'course.updated';

/** Who sees an event: optional for the always-public names, required for every other. */
export type AudienceArg<T extends EventType> = T extends AlwaysPublic ? [audience?: Audience] : [audience: Audience];

/** Records an event in the change's transaction, with who may see it in the list and the subscription. */
export async function recordEvent<T extends EventType>(
  tx: Prisma.TransactionClient,
  type: T,
  data: EventData<T>,
  ...[audience = EVERYONE]: AudienceArg<T>
): Promise<RecordedEvent> {
  const { id, payload, createdAt } = newEvent(type, data);
  await tx.event.create({ data: { id, type, payload, createdAt, adminOnly: audience.adminOnly, ownerId: audience.ownerId } });
  return { id, payload };
}
