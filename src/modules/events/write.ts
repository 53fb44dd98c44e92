// The one way a service changes data: the change and its events in one transaction, then, once
// committed, OnCommitted (the response cache drops what the events name, the relay publishes them).
import type { Db } from '../../db/client.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { newEvent, recordEvent, type AudienceArg, type EventData, type EventPayload, type EventType, type OnCommitted, type RecordedEvent } from './outbox.js';

/** Records an event in the running change's transaction. */
export type Record = <T extends EventType>(type: T, data: EventData<T>, ...audience: AudienceArg<T>) => Promise<RecordedEvent>;

export interface Write {
  /** Runs `change` in a transaction; the events it records are told to OnCommitted once it commits. */
  <T>(change: (tx: Prisma.TransactionClient, record: Record) => Promise<T>): Promise<T>;
  /**
   * A change that is one SQL statement writing a row and its event (the statement's parameters
   * get the event, made by `newEvent`): one round trip where a transaction costs four, for the
   * hottest write (a page view). The statement must insert the event it is given.
   */
  statement<T extends EventType>(type: T, data: EventData<T>, run: (event: ReturnType<typeof newEvent<T>>) => Promise<unknown>): Promise<void>;
}

export function createWrite({ db, onCommitted }: { db: Db; onCommitted?: OnCommitted }): Write {
  const write = async <T>(change: (tx: Prisma.TransactionClient, record: Record) => Promise<T>): Promise<T> => {
    const events: EventPayload[] = [];
    const result = await db.$transaction((tx) =>
      change(tx, (async (type, data, ...audience) => {
        const recorded = await recordEvent(tx, type, data, ...audience);
        events.push(recorded.payload);
        return recorded;
      }) as Record),
    );
    if (events.length > 0) await onCommitted?.(events);
    return result;
  };
  write.statement = async <T extends EventType>(type: T, data: EventData<T>, run: (event: ReturnType<typeof newEvent<T>>) => Promise<unknown>) => {
    const event = newEvent(type, data);
    await run(event);
    await onCommitted?.([event.payload]);
  };
  return write;
}
