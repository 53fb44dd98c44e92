// Where the live feed starts: just after the newest event stored at sign-in, so an event that
// commits while the console signs in and connects is replayed, not missed.
import type { LearningClient, LearningEvent, StoredEvent } from '../client/index.js';

/**
 * `after`: the newest event's id, for the subscription's `after` (it replays what came since).
 * `since`: there was no event in the widest window; the subscription starts without `after`, and
 * the events of the window that exist once it is connected are all new (fillIn).
 */
export type FeedStart = { after: string } | { since: Date };

/** The windows looked through for the newest event, widening only while one is empty. */
const WINDOWS_MS = [60_000, 3_600_000, 86_400_000, 30 * 86_400_000];
const PAGE = 1000;

/**
 * The list is oldest first, so the newest event is the last one from a recent `since` on: a busy
 * service answers from its last minute in a page or two, a quiet one from further back.
 */
export async function feedStart(client: LearningClient): Promise<FeedStart> {
  let since = new Date();
  for (const window of WINDOWS_MS) {
    since = new Date(Date.now() - window);
    let newest: string | undefined;
    for await (const page of pages(client, since)) newest = page.at(-1)?.id ?? newest;
    if (newest) return { after: newest };
  }
  return { since };
}

/** The events from `since` on, newest first, as the feed shows them. */
export async function fillIn(client: LearningClient, since: Date): Promise<LearningEvent[]> {
  const events: LearningEvent[] = [];
  for await (const page of pages(client, since)) events.push(...page.map(toLearningEvent));
  return events.reverse();
}

async function* pages(client: LearningClient, since: Date): AsyncGenerator<StoredEvent[]> {
  let after: string | undefined;
  do {
    const page = await client.listEvents({ since, after, limit: PAGE });
    yield page.items;
    after = page.nextCursor ?? undefined;
  } while (after);
}

/** A stored event as the subscription sends it: every subject field, null when it has none. */
const toLearningEvent = (event: StoredEvent): LearningEvent => ({ lessonId: null, userId: null, courseId: null, path: null, ...event });
