// Who sees an event in the event list and the subscription (CONTRACT.md, Events): an ADMIN sees
// every event; anyone else only an event whose subject was visible to them when it was recorded.
// Webhook endpoints are an ADMIN's and receive every event they subscribe to.
import type { Caller } from '../auth/caller.js';
import type { Prisma } from '../../generated/prisma/client.js';

/**
 * Decided by the service that records the event, at the time of the change (a lesson still a
 * draft), stored with the event and carried on the bus, so the list filters in its query and a live
 * stream in memory, with no read. It never changes: an event about a draft stays ADMIN-only.
 */
export interface Audience {
  /** For ADMINs alone (an event about a draft lesson or course). */
  readonly adminOnly: boolean;
  /** The one non-ADMIN who sees it (an event about that learner); null: everyone. */
  readonly ownerId: string | null;
}

/** Public data: every authenticated caller sees it. */
export const EVERYONE: Audience = Object.freeze({ adminOnly: false, ownerId: null });
/** About a draft: ADMINs only, for good. */
export const ADMINS_ONLY: Audience = Object.freeze({ adminOnly: true, ownerId: null });
/** About one learner (their enrollment, their completion): that learner and ADMINs. */
export const ownedBy = (userId: string): Audience => ({ adminOnly: false, ownerId: userId });

/** The audience of a stored row, sharing EVERYONE's object for the common case. */
export const audienceOf = (row: { adminOnly: boolean; ownerId: string | null }): Audience =>
  row.adminOnly || row.ownerId !== null ? { adminOnly: row.adminOnly, ownerId: row.ownerId } : EVERYONE;

/**
 * Whether `caller` sees an event of this audience. An event without one (a message from an
 * instance that does not carry audiences) is treated as ADMIN-only: hidden, never leaked.
 */
export function canSee(caller: Pick<Caller, 'role' | 'userId'>, audience: Audience | undefined): boolean {
  if (caller.role === 'ADMIN') return true;
  if (!audience || audience.adminOnly) return false;
  return audience.ownerId === null || audience.ownerId === caller.userId;
}

/** The same rule as a condition on stored events (empty for an ADMIN). */
export function visibleWhere(caller: Pick<Caller, 'role' | 'userId'>): Prisma.EventWhereInput {
  if (caller.role === 'ADMIN') return {};
  return { adminOnly: false, OR: [{ ownerId: null }, { ownerId: caller.userId }] };
}
