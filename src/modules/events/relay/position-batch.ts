// One relay transaction: gives a batch of committed events their positions and creates their
// webhook deliveries. Under an advisory lock, one relay at a time across instances.
import type { Db } from '../../../db/client.js';
import { newId } from '../../../ids.js';
import { audienceOf } from '../audience.js';
import type { PositionedEvent } from '../bus.js';
import type { EventPayload } from '../outbox.js';

/** At most this many events are positioned in one transaction. */
export const BATCH = 500;
/** NOTIFY'd by the relay that positioned a batch, with its last position. */
export const POSITIONED_CHANNEL = 'learnstream_positioned';
/** pg advisory lock key held by the relay's transaction ("lsrelay"). */
const RELAY_LOCK = 0x6c7372656c6179n;
/** A batch's transaction may take this long (it can fan out to many endpoints). */
const TICK_TIMEOUT_MS = 60_000;

/** A batch's fan-out: one delivery per (event, subscribed endpoint), with the event's name and payload. */
const FAN_OUT_SQL = `
INSERT INTO "WebhookDelivery" (id, "endpointId", "eventId", event, payload)
SELECT d.id, d.endpoint_id, e.id, e.type, e.payload
  FROM unnest($1::text[], $2::text[], $3::text[]) AS d(id, endpoint_id, event_id)
  JOIN "Event" e ON e.id = d.event_id
ON CONFLICT ("endpointId", "eventId") DO NOTHING`;

/**
 * Positions up to BATCH committed events that have none (MAX + 1, 2, …) and creates one webhook
 * delivery, not yet due, per subscribed endpoint; with `notify`, NOTIFYs POSITIONED_CHANNEL at
 * commit. Returns them in order of position; none when another relay holds the lock.
 * An event whose transaction is still open is invisible here and gets the next positions once it
 * commits, so positions follow commit order and never leave a gap. Nothing waits for older
 * transactions elsewhere: transaction ids are shared by every database of a PostgreSQL server, so
 * one long transaction anywhere would stall every relay.
 */
export async function positionBatch(db: Db, { notify }: { notify: boolean }): Promise<PositionedEvent[]> {
  return db.$transaction(async (tx) => {
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
    if (notify) {
      await tx.$queryRaw`SELECT 1 AS ok FROM pg_notify(${POSITIONED_CHANNEL}, ${String(events.at(-1)!.position)})`;
    }
    return events;
  }, { timeout: TICK_TIMEOUT_MS });
}
