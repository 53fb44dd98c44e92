// What every part of the signed-in console shares: the client acting as the ADMIN, who that is,
// and how to end the session when the server stops accepting its token.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { CurrentUser, EventType, LearningClient } from '../client/index.js';
import type { FeedStart } from './feed-start.js';

export interface ConsoleContext {
  client: LearningClient;
  me: CurrentUser;
  /** Every event name (from GET /api/v1/event-types). */
  eventTypes: EventType[];
  /** Where the live feed starts: the newest event at sign-in. */
  feed: FeedStart;
  /** The token no longer works: back to the sign-in form, saying why. */
  sessionOver: (message: string) => void;
}

export const Console = createContext<ConsoleContext | undefined>(undefined);

export function useConsole(): ConsoleContext {
  const value = useContext(Console);
  if (!value) throw new Error('useConsole outside the signed-in console');
  return value;
}
