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
 * answered (the response cache drops what they name, so the next read on any instance is fresh).
 */
export type OnCommitted = (events: readonly EventPayload[]) => Promise<void>;

export interface RecordedEvent {
  id: string;
  payload: EventPayload;
}


export async function recordEvent<T extends EventType>(
  tx: Prisma.TransactionClient,
  type: T,
  data: EventData<T>,
): Promise<RecordedEvent> {
  const now = new Date();
  const id = newId('evt');
  const payload = { event: type, timestamp: now.toISOString(), ...data } as EventPayload;
  await tx.event.create({ data: { id, type, payload, createdAt: now } });
  return { id, payload };
}
