// What the event list takes as input, checked at its edges (GET /api/v1/events, Query.events):
// a 400 names the field as that edge calls it, and the service receives checked values.
import { INSTANT_PROBLEM, isInstant } from '../../dates.js';
import { badInput } from '../../errors.js';
import { EVENT_NAMES, isEventName, type EventName } from './catalog.js';

export const DEFAULT_EVENT_PAGE = 100;
export const MAX_EVENT_PAGE = 1000;

/** The list's filters and page size as a client sends them; null or absent: not given. */
export interface EventListRequest {
  types?: readonly string[] | null;
  since?: string | null;
  limit?: number | null;
}

/** The same, checked (see parseEventList). */
export interface EventListFilter {
  /** Event names, each once; none or empty means all. */
  types?: readonly EventName[];
  /** An instant as the client sent it (src/dates.ts). */
  since?: string;
  limit: number;
}

/** The list's filters and page size, checked in this order: a 400 names the first bad one by `fields`. */
export function parseEventList({ types, since, limit }: EventListRequest, fields: Record<keyof EventListRequest, string>): EventListFilter {
  const size = limit ?? DEFAULT_EVENT_PAGE;
  if (!Number.isSafeInteger(size) || size < 1 || size > MAX_EVENT_PAGE) {
    throw badInput(fields.limit, `must be an integer from 1 to ${MAX_EVENT_PAGE}`);
  }
  const unknown = (types ?? []).find((t) => !isEventName(t));
  if (unknown !== undefined) {
    throw badInput(fields.types, `unknown event name ${JSON.stringify(unknown.slice(0, 64))} (one of ${EVENT_NAMES.join(', ')})`);
  }
  // The edges' own parsing (isoInstant, the DateTime scalar) already refuses any other `since`.
  if (since != null && !isInstant(since)) throw badInput(fields.since, INSTANT_PROBLEM);
  // Each name once: a GraphQL variable may name one name tens of thousands of times, each of
  // them a bound parameter, past PostgreSQL's limit of 65,535.
  const names = [...new Set((types ?? []) as EventName[])];
  return { types: names, since: since ?? undefined, limit: size };
}

/**
 * The 400 for an `after` that names no event the caller may see (the service's positionOf gave
 * null): the same answer whether the id is unknown, expired or hidden from them.
 */
export const unknownEvent = (field: string) => badInput(field, 'unknown or expired event id');
