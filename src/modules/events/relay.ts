// The event relay: gives committed events their dense positions and their webhook deliveries
// (relay/position-batch.ts), publishes them on the bus, and only then makes the deliveries due
// (relay/due-deliveries.ts), so a subscriber sees an event no later than its webhook is attempted.
// It also deletes events past retention (relay/retention.ts). See docs/events.md.
//
// Waking: a service that records an event wakes its instance's relay once the transaction has
// committed (OnCommitted, outbox.ts), rather than NOTIFYing from every writing transaction
// (docs/decisions.md); idle, the relay looks every FALLBACK_POLL_MS, which also finds events
// written any other way. The relay that positions a batch NOTIFYs POSITIONED_CHANNEL. Without a
// shared bus, every other instance then reads those events from the database and publishes them
// to its own subscribers; with one, each instance's bus is told (EventBus.announce) and reads
// what it did not hear on Redis.
import type { Database, Db } from '../../db/client.js';
import type { Logger } from '../../logger.js';
import type { EventBus, PositionedEvent } from './bus.js';
import { createDueDeliveries } from './relay/due-deliveries.js';
import { BATCH, POSITIONED_CHANNEL, positionBatch } from './relay/position-batch.js';
import { deleteEventsPastRetention } from './relay/retention.js';
import { storedEvents } from './stored.js';

const HOUSEKEEPING_EVERY_MS = 60_000;
/** Idle, with LISTEN: the look that catches a lost notification (one query). */
export const FALLBACK_POLL_MS = 5_000;
/** The first look again after one that found events waiting (doubling to the fallback interval). */
const RECHECK_MS = 25;
/** Without LISTEN (no notifications given): the poll is all there is. */
const UNNOTIFIED_POLL_MS = 50;

export interface RelayOptions {
  db: Db;
  bus: EventBus;
  log: Logger;
  retentionDays: number;
  /** LISTEN/NOTIFY on the database (Database.listen); without it the relay polls every `intervalMs`. */
  notifications?: Pick<Database, 'listen'>;
  /** How often to look for new events when nothing wakes it. */
  intervalMs?: number;
  /** Told how many events each tick positioned, once they are committed (metrics). */
  onPositioned?(count: number): void;
  /** Told when it has made webhook deliveries due (the dispatcher of this instance may look now). */
  onDeliveriesDue?(): void;
}

export function createRelay({
  db,
  bus,
  log,
  retentionDays,
  notifications,
  intervalMs = notifications ? FALLBACK_POLL_MS : UNNOTIFIED_POLL_MS,
  onPositioned,
  onDeliveriesDue,
}: RelayOptions) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  /** A wake arrived while the loop ran: run it again right after. */
  let again = false;
  /** The loop is running (set synchronously when it starts). */
  let busy = false;
  /** The next run of the loop looks for events to position (not only publishes others'). */
  let lookWanted = false;
  /** After a look that found events waiting: when to look again (0: the fallback interval). */
  let recheckMs = 0;
  let lastHousekeeping = 0;
  const deliveries = createDueDeliveries({ db, log, onDeliveriesDue });
  const unlisten: (() => Promise<void>)[] = [];
  /** Without a shared bus, this instance publishes what other instances position (see above). */
  const follow = !bus.shared;
  /** The highest position published on this instance's bus (undefined until the first look). */
  let published: number | undefined;
  /** The highest position another instance said it positioned. */
  let announced = 0;

  /** One query: is anything waiting for a position, and the newest position. */
  async function look(): Promise<{ pending: boolean; max: number }> {
    const [row] = await db.$queryRaw<{ pending: boolean; max: bigint | null }[]>`
      SELECT EXISTS (SELECT 1 FROM "Event" WHERE position IS NULL) AS pending, (SELECT MAX(position) FROM "Event") AS max`;
    return { pending: !!row?.pending, max: Number(row?.max ?? 0) };
  }

  /** Positions, fans out and publishes one batch. Returns how many events it positioned. */
  async function tick(): Promise<number> {
    const batch = await positionBatch(db, { notify: !!notifications });
    if (!batch.length) return 0;
    onPositioned?.(batch.length);
    publish(batch);
    // Published (handed to this instance's subscribers): now the webhooks may go.
    await bus.flushed();
    await deliveries.makeDue(batch.map((e) => e.id));
    return batch.length;
  }

  function publish(events: readonly PositionedEvent[]): void {
    for (const event of events) bus.publish(event);
    const last = events.at(-1)?.position ?? 0;
    if (published === undefined || last > published) published = last;
  }

  /** Publishes here what other instances positioned after what this one has published. */
  async function catchUp(upTo: number): Promise<void> {
    if (published === undefined || published >= upTo) return;
    const events: PositionedEvent[] = [];
    for await (const event of storedEvents(db, published, upTo)) {
      if (stopped) return;
      events.push(event);
      if (events.length === BATCH) publish(events.splice(0));
    }
    publish(events);
  }

  async function housekeeping(): Promise<void> {
    const now = Date.now();
    if (now - lastHousekeeping < HOUSEKEEPING_EVERY_MS) return;
    lastHousekeeping = now;
    const count = await deleteEventsPastRetention(db, retentionDays, now);
    if (count) log.info({ count }, 'events past retention deleted');
  }

  async function loop(): Promise<void> {
    busy = true;
    try {
      do {
        again = false;
        const looking = lookWanted;
        lookWanted = false;
        try {
          // Its own failure must not stop positioning (the database answers again, or not at all).
          await deliveries.rescue().catch((error: unknown) => log.warn({ err: error }, 'event relay: making webhook deliveries due failed'));
          let max = 0;
          if (looking) {
            const seen = await look();
            max = seen.max;
            // Positions taken before this instance started were never its to publish.
            if (published === undefined) published = max;
            if (seen.pending) {
              let positioned = 0;
              for (let n = BATCH; n === BATCH && !stopped; positioned += n) n = await tick();
              // Events wait and none was positioned: another instance's relay holds the lock and
              // may have missed them. Look again soon, backing off to the fallback interval.
              recheckMs = positioned || !recheckMs ? RECHECK_MS : Math.min(recheckMs * 2, intervalMs);
            } else recheckMs = 0;
          }
          // Costs nothing when this instance has published everything it heard of.
          if (follow) await catchUp(Math.max(max, announced));
          // A shared bus: what is committed, in case a NOTIFY was missed (see EventBus.announce).
          else if (looking) bus.announce(max);
          await housekeeping();
        } catch (error) {
          log.warn({ err: error }, 'event relay tick failed');
        }
      } while (again && !stopped);
    } finally {
      busy = false;
    }
    if (!stopped) timer = setTimeout(() => wake(), recheckMs || intervalMs);
  }

  /**
   * Runs the loop now, or right after the running one. `look` (the default): look for events to
   * position; without it, only publish what other instances announced.
   */
  function wake(look = true): void {
    if (stopped) return;
    if (look) lookWanted = true;
    if (busy) {
      again = true;
      return;
    }
    clearTimeout(timer);
    timer = undefined;
    running = loop();
  }

  return {
    tick,
    wake,
    start(): void {
      stopped = false;
      if (notifications) {
        void notifications
          .listen(POSITIONED_CHANNEL, (payload) => {
            const position = Number(payload);
            // After a reconnect (null), look too: an announcement may have been missed.
            if (payload === null) return wake();
            if (!Number.isSafeInteger(position)) return;
            if (!follow) return bus.announce(position);
            if (position > announced) announced = position;
            if (published !== undefined && announced > published) wake(false);
          })
          .then((stop) => (stopped ? stop() : void unlisten.push(stop)), (error: unknown) => log.warn({ err: error }, 'event relay: LISTEN failed'));
      }
      wake();
    },
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await running;
      await Promise.all(unlisten.splice(0).map((stop) => stop()));
    },
  };
}

export type Relay = ReturnType<typeof createRelay>;
