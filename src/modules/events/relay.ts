// The relay turns committed events into ordered, delivered facts. Each tick, under an advisory
// lock (one relay at a time across instances), it gives the committed events that have none a
// dense `position` (MAX + 1, 2, …), creates one webhook delivery per subscribed endpoint in the
// same transaction (one statement), and after commit publishes them to live subscribers and only
// then makes the deliveries due, so a subscriber sees an event no later than its webhook is
// attempted. An event's transaction that is still open is invisible to the tick; it gets the next
// positions once it commits, so positions follow commit order and never leave a gap. (Nothing
// waits for older transactions elsewhere: transaction ids are shared by every database of a
// PostgreSQL server, and waiting for them let one long transaction anywhere stall every relay.)
// Deliveries whose making due failed (the database went away after the commit) are made due at
// the relay's next loop; those of a relay that died in between, by any relay once they are
// STRANDED_AFTER_MS old.
//
// Waking: every service that records an event tells the server once its transaction has
// committed (OnCommitted, outbox.ts), whichever way the change came (HTTP or a WebSocket), and
// the server wakes its relay, so the instance that commits an event positions it at once; a
// NOTIFY in every writing transaction serialised their commits
// (PostgreSQL takes one lock for the notification queue at commit: 2,000 page views a second fell
// to 400-600). Idle, the relay only looks every FALLBACK_POLL_MS (one query), which also covers
// events written any other way (SQL by hand). The relay that positions a batch NOTIFYs
// POSITIONED_CHANNEL with its last position. When the bus is not shared between instances (no
// Redis), every other instance reads those events from the database and publishes them to its own
// subscribers, so an event is live on every instance either way. When it is shared, each
// instance's bus is told (EventBus.announce) and reads from the database what it did not hear on
// Redis: the instance that positioned it may have been cut off from Redis.
import type { Database, Db } from '../../db/client.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { newId } from '../../ids.js';
import type { Logger } from '../../logger.js';
import { audienceOf } from './audience.js';
import type { EventBus, PositionedEvent } from './bus.js';
import { EVENT_TYPES, type EventPayload } from './outbox.js';
import { storedEvents } from './stored.js';

/** A batch's fan-out: one delivery per (event, subscribed endpoint), with the event's name and payload. */
const FAN_OUT_SQL = `
INSERT INTO "WebhookDelivery" (id, "endpointId", "eventId", event, payload)
SELECT d.id, d.endpoint_id, e.id, e.type, e.payload
  FROM unnest($1::text[], $2::text[], $3::text[]) AS d(id, endpoint_id, event_id)
  JOIN "Event" e ON e.id = d.event_id
ON CONFLICT ("endpointId", "eventId") DO NOTHING`;
/** A tick's transaction may take this long (a batch can fan out to many endpoints). */
const TICK_TIMEOUT_MS = 60_000;

/** pg advisory lock key held by the relay's transaction ("lsrelay"). */
const RELAY_LOCK = 0x6c7372656c6179n;
const BATCH = 500;
/**
 * Deliveries created but never made due: the process that positioned their events died between
 * its commit and making them due, or the database failed in between and that process is gone
 * too. Any relay makes them due once they are this old; a live relay makes its own due within
 * milliseconds of its commit, or retries (see `undue`).
 */
export const STRANDED_AFTER_MS = 10_000;
/**
 * How often at most a relay looks for stranded deliveries (one query on the (status,
 * nextAttemptAt) index); idle, at each fallback poll.
 */
export const STRANDED_LOOK_EVERY_MS = 4_000;
/** At most this many events whose deliveries wait to be made due are remembered (the rest are stranded). */
const UNDUE_MAX = 10 * 500;
const HOUSEKEEPING_EVERY_MS = 60_000;
/** Idle, with LISTEN: the look that catches a lost notification (one query). */
export const FALLBACK_POLL_MS = 5_000;
/** The first look again after one that found events waiting (doubling to the fallback interval). */
const RECHECK_MS = 25;
/** Without LISTEN (no notifications given): the poll is all there is. */
const UNNOTIFIED_POLL_MS = 50;
/** NOTIFY'd by the relay that positioned a batch, with its last position (see above). */
export const POSITIONED_CHANNEL = 'learnstream_positioned';

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
  let lastStrandedLook = 0;
  /**
   * Events this relay positioned whose deliveries it could not make due (the database failed after
   * the commit): made due at the next loop, before anything else, rather than once stranded.
   */
  const undue = new Set<string>();
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
    const batch = await db.$transaction(async (tx) => {
      const [lock] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(${RELAY_LOCK}) AS locked`;
      if (!lock?.locked) return [];
      const rows = await tx.$queryRaw<{ id: string; payload: EventPayload; position: bigint; adminOnly: boolean; ownerId: string | null }[]>`
        WITH next AS (
          SELECT id, row_number() OVER (ORDER BY id) AS rn
            FROM (SELECT id FROM "Event" WHERE position IS NULL ORDER BY id LIMIT ${BATCH}) candidates
        ), base AS (SELECT COALESCE(MAX(position), 0) AS p FROM "Event")
        UPDATE "Event" e SET position = base.p + next.rn
          FROM next, base
         WHERE e.id = next.id
        RETURNING e.id, e.payload, e.position, e."adminOnly", e."ownerId"`;
      if (!rows.length) return [];
      const events: PositionedEvent[] = rows
        .map((r) => ({ id: r.id, payload: r.payload, position: Number(r.position), audience: audienceOf(r) }))
        .sort((a, b) => a.position - b.position);
      const endpoints = await tx.webhookEndpoint.findMany({ where: { enabled: true }, select: { id: true, events: true } });
      const pairs = events.flatMap((e) => endpoints.filter((w) => w.events.includes(e.payload.event)).map((w) => [w.id, e.id] as const));
      if (pairs.length) {
        await tx.$executeRawUnsafe(FAN_OUT_SQL, pairs.map(() => newId('dlv')), pairs.map(([w]) => w), pairs.map(([, e]) => e));
      }
      if (notifications) {
        await tx.$queryRaw`SELECT 1 AS ok FROM pg_notify(${POSITIONED_CHANNEL}, ${String(events.at(-1)!.position)})`;
      }
      return events;
    }, { timeout: TICK_TIMEOUT_MS });
    if (!batch.length) return 0;
    onPositioned?.(batch.length);
    publish(batch);
    // Published (handed to this instance's subscribers): now the webhooks may go.
    await bus.flushed();
    const ids = batch.map((e) => e.id);
    try {
      await makeDue({ eventId: { in: ids } });
    } catch (error) {
      for (const id of ids) if (undue.size < UNDUE_MAX) undue.add(id);
      throw error;
    }
    return batch.length;
  }

  /** Makes due now the deliveries that `where` picks among those still waiting for it; how many. */
  async function makeDue(where: Prisma.WebhookDeliveryWhereInput): Promise<number> {
    const { count } = await db.webhookDelivery.updateMany({
      where: { ...where, status: 'PENDING', nextAttemptAt: null },
      data: { nextAttemptAt: new Date() },
    });
    if (count) onDeliveriesDue?.();
    return count;
  }

  /** Makes due what this relay could not, and what a dead one left stranded (every few seconds). */
  async function rescue(): Promise<void> {
    if (undue.size) {
      const ids = [...undue];
      await makeDue({ eventId: { in: ids } });
      for (const id of ids) undue.delete(id);
    }
    const now = Date.now();
    if (now - lastStrandedLook < STRANDED_LOOK_EVERY_MS) return;
    lastStrandedLook = now;
    const count = await makeDue({ createdAt: { lt: new Date(now - STRANDED_AFTER_MS) } });
    if (count) log.warn({ count }, 'webhook deliveries stranded by a relay that stopped before making them due: made due now');
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

  /** Drops events past their retention. */
  async function housekeeping(): Promise<void> {
    const now = Date.now();
    if (now - lastHousekeeping < HOUSEKEEPING_EVERY_MS) return;
    lastHousekeeping = now;
    // An event past retention is deleted only once a later event of its name is past retention
    // too. The event a client holds as its `after` when it has seen everything (the list's last
    // item, the subscription's last event, filtering by `types` or not) is the newest of its name
    // then; keeping only the newest of each name deleted it at the next housekeeping after one
    // more event of that name committed, so the poller or reconnecting subscriber that had missed
    // nothing but that fresh event got 400 / BAD_USER_INPUT "unknown or expired event id" and
    // could not reach it. Now its cursor holds until the event after it is itself past retention,
    // which a client reading at least once per retention period never lets happen. For each
    // name, the boundary is an event of that name past retention (the newest by position for the
    // rare names, through their (type, position) index; for page views the newest by time,
    // through the createdAt index, which enters at the cutoff): only older events of that name go.
    // So the newest positioned event is always kept, as it must be: positions continue from
    // MAX(position), so deleting it (a deployment quiet for the whole retention) would restart them
    // at 1, and live subscribers, who skip what is not newer than what they have seen, would miss
    // what follows.
    // "Later" means later among the events the cursor's holder sees (audience.ts): a non-ADMIN's
    // newest event of a name may be followed by hidden ones (edits of a draft). So the boundary
    // of a name is its newest public event past retention; ADMIN-only events, which only ADMINs
    // hold, go once any later event of their name is past retention. Events about one learner
    // (ownerId) go only past a later public one: none is recorded yet, and the first name that
    // has them needs a boundary per owner.
    const cutoff = new Date(now - retentionDays * 86_400_000);
    const boundaries = await db.$queryRaw<{ type: string; position: bigint | null; anyPosition: bigint | null }[]>`
      SELECT t.name AS type,
             (SELECT max(e.position) FROM "Event" e WHERE e.type = t.name AND e.type <> 'analytics.hit' AND e."createdAt" < ${cutoff}
                AND NOT e."adminOnly" AND e."ownerId" IS NULL) AS position,
             (SELECT max(e.position) FROM "Event" e WHERE e.type = t.name AND e.type <> 'analytics.hit' AND e."createdAt" < ${cutoff}) AS "anyPosition"
        FROM unnest(${EVENT_TYPES.filter((t) => t !== 'analytics.hit')}::text[]) AS t(name)
      UNION ALL
      SELECT 'analytics.hit',
             (SELECT e.position FROM "Event" e WHERE e.type = 'analytics.hit' AND e."createdAt" < ${cutoff} AND e.position IS NOT NULL
               ORDER BY e."createdAt" DESC, e.position DESC LIMIT 1), NULL`;
    const bounded = boundaries.flatMap((b): Prisma.EventWhereInput[] => [
      ...(b.position === null ? [] : [{ type: b.type, position: { lt: b.position } }]),
      ...(b.anyPosition === null || (b.position !== null && b.anyPosition <= b.position) ? [] : [{ type: b.type, adminOnly: true, position: { lt: b.anyPosition } }]),
    ]);
    if (bounded.length === 0) return;
    const { count } = await db.event.deleteMany({
      where: { createdAt: { lt: cutoff }, OR: bounded },
    });
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
          await rescue().catch((error: unknown) => log.warn({ err: error }, 'event relay: making webhook deliveries due failed'));
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
