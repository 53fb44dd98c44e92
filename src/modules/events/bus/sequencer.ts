// What a Redis-shared bus hands this instance's subscribers: every event once, in order of
// position, with no gap, reading from the database what Redis did not bring.
import type { Logger } from '../../../logger.js';
import type { PositionedEvent } from '../bus.js';

/** Where a shared bus reads the events it did not hear on Redis. */
export interface StoredEvents {
  /** The newest position given (0 before the first event). */
  newest(): Promise<number>;
  /** The events with position in (from, to], in order. */
  between(from: number, to: number): AsyncIterable<PositionedEvent>;
}

/**
 * How long an announced position may take to arrive on Redis before it is read from the
 * database. The relay publishes right after the commit that NOTIFYs, so on a healthy Redis the
 * message is there first; the grace only decides how soon a partition is noticed.
 */
export const ANNOUNCED_GRACE_MS = 500;

/**
 * What a shared bus hands this instance's subscribers: every event once, in order of position,
 * with no gap. Redis brings events out of order when several instances publish, and not at all
 * when the instance that positioned them was cut off from Redis (its publish is lost). A gap
 * before an event heard is filled from the database first; an announced position not heard
 * within ANNOUNCED_GRACE_MS is read from it. What was already delivered is dropped when heard.
 */
export function createSequencer(stored: StoredEvents, deliver: (event: PositionedEvent) => void, log?: Logger) {
  /** The highest position delivered; undefined while stopped or until the start is known. */
  let delivered: number | undefined;
  let announced = 0;
  let grace: NodeJS.Timeout | undefined;
  let steps: Promise<void> = Promise.resolve();
  let lastWarnedAt = 0;
  /** One step at a time, in the order asked. */
  const inTurn = (step: () => Promise<void> | void) => {
    steps = steps.then(step).catch((error: unknown) => log?.warn({ err: error }, 'event bus: reading events from the database failed'));
  };

  async function fill(to: number): Promise<number> {
    if (delivered === undefined || delivered >= to) return 0;
    let count = 0;
    for await (const event of stored.between(delivered, to)) {
      deliver(event);
      delivered = event.position;
      count++;
    }
    // Positions deleted past their retention have nothing to deliver.
    delivered = to;
    return count;
  }

  function awaitAnnounced(): void {
    const due = announced;
    grace = setTimeout(() => {
      grace = undefined;
      inTurn(async () => {
        const count = await fill(due);
        if (count && Date.now() - lastWarnedAt > 10_000) {
          lastWarnedAt = Date.now();
          log?.warn({ count, position: due }, 'event bus: events not heard on Redis were read from the database');
        }
      });
      if (announced > due) awaitAnnounced();
    }, ANNOUNCED_GRACE_MS);
    grace.unref();
  }

  return {
    /** The first subscriber came: delivery starts after the newest position given. */
    start(): void {
      inTurn(async () => {
        delivered = await stored.newest();
      });
    },
    stop(): void {
      clearTimeout(grace);
      grace = undefined;
      inTurn(() => {
        delivered = undefined;
      });
    },
    heard(event: PositionedEvent): void {
      inTurn(async () => {
        // The start could not be read (the database was away): start here.
        delivered ??= event.position - 1;
        if (event.position <= delivered) return;
        await fill(event.position - 1);
        deliver(event);
        delivered = event.position;
      });
    },
    announce(position: number): void {
      if (position > announced) announced = position;
      if (!grace) awaitAnnounced();
    },
  };
}
