// The one place a domain event is recorded. It takes the transaction of the change that caused
// the event, so a committed change always has its event and a rolled-back one never does (the
// relay positions it once committed: see relay.ts for how it is woken).
import type { Prisma } from '../../generated/prisma/client.js';
import { newId } from '../../ids.js';

import { EVENT_NAMES } from './catalog.js';

/** The event names: defined once, with their payload schemas, in catalog.ts. */
export const EVENT_TYPES = EVENT_NAMES;
export type EventType = (typeof EVENT_TYPES)[number];

type Subject = { lessonId: string } | { userId: string } | { path: string };
export type EventData<T extends EventType> = T extends 'lesson.published' | 'lesson.updated'
  ? { lessonId: string }
  : T extends 'user.created' | 'user.updated'
    ? { userId: string }
    : { path: string };

export type EventPayload = { event: EventType; timestamp: string } & Subject;

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
  return { id: newId('evt'), payload: { event: type, timestamp: createdAt.toISOString(), ...data } as EventPayload, createdAt };
}

export async function recordEvent<T extends EventType>(
  tx: Prisma.TransactionClient,
  type: T,
  data: EventData<T>,
): Promise<RecordedEvent> {
  const { id, payload, createdAt } = newEvent(type, data);
  await tx.event.create({ data: { id, type, payload, createdAt } });
  return { id, payload };
}
