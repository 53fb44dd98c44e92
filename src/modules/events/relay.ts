// The relay turns committed events into ordered, delivered facts. Each tick, under an advisory
// lock (one relay at a time across instances), it gives the events whose writing transaction has
// finished a dense commit-order `position`, creates one webhook delivery per subscribed endpoint
// in the same transaction, and after commit publishes them to live subscribers and only then
// makes the deliveries due, so a subscriber sees an event no later than its webhook is attempted.
//
// "Has finished" is `txid < pg_snapshot_xmin(pg_current_snapshot())`: no transaction that could
// still commit an event is older than that, so positions never skip an event that commits late.
import type { Db } from '../../db/client.js';
import { newId } from '../../ids.js';
import type { Logger } from '../../logger.js';
import type { EventBus, PositionedEvent } from './bus.js';
import type { EventPayload } from './outbox.js';

/** pg advisory lock key held by the relay's transaction ("lsrelay"). */
const RELAY_LOCK = 0x6c7372656c6179n;
const BATCH = 500;
/** Deliveries created but never made due (the process died between commit and publish). */
const STRANDED_AFTER_MS = 30_000;
const HOUSEKEEPING_EVERY_MS = 60_000;

export interface RelayOptions {
  db: Db;
  bus: EventBus;
  log: Logger;
  retentionDays: number;
  /** How often to look for new events. */
  intervalMs?: number;
  /** Told how many events each tick positioned, once they are committed (metrics). */
  onPositioned?(count: number): void;
  /** Told when it has made webhook deliveries due (the dispatcher of this instance may look now). */
  onDeliveriesDue?(): void;
}

export function createRelay({ db, bus, log, retentionDays, intervalMs = 50, onPositioned, onDeliveriesDue }: RelayOptions) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  let lastHousekeeping = 0;

  /** Positions, fans out and publishes one batch. Returns how many events it positioned. */
  async function tick(): Promise<number> {
    const pending = await db.$queryRaw<{ exists: boolean }[]>`SELECT EXISTS (SELECT 1 FROM "Event" WHERE position IS NULL) AS exists`;
    if (!pending[0]?.exists) return 0;
    const batch = await db.$transaction(async (tx) => {
      const [lock] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(${RELAY_LOCK}) AS locked`;
      if (!lock?.locked) return [];
      const rows = await tx.$queryRaw<{ id: string; payload: EventPayload; position: bigint }[]>`
        WITH next AS (
          SELECT id, row_number() OVER (ORDER BY id) AS rn
            FROM (SELECT id FROM "Event"
                   WHERE position IS NULL AND txid < pg_snapshot_xmin(pg_current_snapshot())
                   ORDER BY id LIMIT ${BATCH}) candidates
        ), base AS (SELECT COALESCE(MAX(position), 0) AS p FROM "Event")
        UPDATE "Event" e SET position = base.p + next.rn
          FROM next, base
         WHERE e.id = next.id
        RETURNING e.id, e.payload, e.position`;
      if (!rows.length) return [];
      const events: PositionedEvent[] = rows
        .map((r) => ({ id: r.id, payload: r.payload, position: Number(r.position) }))
        .sort((a, b) => a.position - b.position);
      const endpoints = await tx.webhookEndpoint.findMany({ where: { enabled: true }, select: { id: true, events: true } });
      const deliveries = events.flatMap((e) =>
        endpoints
          .filter((w) => w.events.includes(e.payload.event))
          .map((w) => ({ id: newId('dlv'), endpointId: w.id, eventId: e.id, event: e.payload.event, payload: e.payload, nextAttemptAt: null })),
      );
      if (deliveries.length) await tx.webhookDelivery.createMany({ data: deliveries, skipDuplicates: true });
      return events;
    });
    if (!batch.length) return 0;
    onPositioned?.(batch.length);
    for (const event of batch) bus.publish(event);
    // Published: now the webhooks may go.
    const due = await db.webhookDelivery.updateMany({
      where: { eventId: { in: batch.map((e) => e.id) }, status: 'PENDING', nextAttemptAt: null },
      data: { nextAttemptAt: new Date() },
    });
    if (due.count) onDeliveriesDue?.();
    return batch.length;
  }

  /** Makes stranded deliveries due and drops events past their retention. */
  async function housekeeping(): Promise<void> {
    const now = Date.now();
    if (now - lastHousekeeping < HOUSEKEEPING_EVERY_MS) return;
    lastHousekeeping = now;
    await db.webhookDelivery.updateMany({
      where: { status: 'PENDING', nextAttemptAt: null, createdAt: { lt: new Date(now - STRANDED_AFTER_MS) } },
      data: { nextAttemptAt: new Date() },
    });
    // The newest positioned event is always kept: positions continue from MAX(position), so
    // deleting it (a deployment quiet for the whole retention) would restart them at 1, and live
    // subscribers, who skip what is not newer than what they have seen, would miss what follows.
    const { _max } = await db.event.aggregate({ _max: { position: true } });
    const { count } = await db.event.deleteMany({
      where: { createdAt: { lt: new Date(now - retentionDays * 86_400_000) }, position: { lt: _max.position ?? 0n } },
    });
    if (count) log.info({ count }, 'events past retention deleted');
  }

  async function loop(): Promise<void> {
    if (stopped) return;
    try {
      // Drain: a full batch means there may be more right now.
      while (!stopped && (await tick()) === BATCH);
      await housekeeping();
    } catch (error) {
      log.warn({ err: error }, 'event relay tick failed');
    }
    if (!stopped) timer = setTimeout(() => (running = loop()), intervalMs);
  }

  return {
    tick,
    start(): void {
      stopped = false;
      running = loop();
    },
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

export type Relay = ReturnType<typeof createRelay>;
