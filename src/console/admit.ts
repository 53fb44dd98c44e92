// Who may use the console: the signed-in user is checked to be an ADMIN (GET /api/v1/user/me).
// A MEMBER's new session is ended at once (POST /api/auth/logout) and the refusal says why. An
// ADMIN's sign-in also notes where the live feed starts (feed-start.ts).
import type { CurrentUser, EventType, LearningClient } from '../client/index.js';
import { feedStart, type FeedStart } from './feed-start.js';
import { clientFor, forgetSession, type Session } from './session.js';

export type State =
  | { phase: 'checking' }
  | { phase: 'signed-out'; notice?: string }
  | { phase: 'signed-in'; session: Session; client: LearningClient; me: CurrentUser; eventTypes: EventType[]; feed: FeedStart };

export type SignedInState = Extract<State, { phase: 'signed-in' }>;

/** The signed-in user, checked to be an ADMIN; a MEMBER's session is ended and the refusal thrown. */
export async function admit(session: Session): Promise<SignedInState> {
  const client = clientFor(session);
  const me = await client.me();
  if (me.role !== 'ADMIN') {
    // Not left signed in with a session the console cannot use.
    await client.auth.logout(session.refreshToken).catch(() => undefined);
    forgetSession();
    throw new NotAdmin(me);
  }
  const [types, feed] = await Promise.all([client.eventTypes(), feedStart(client)]);
  return { phase: 'signed-in', session, client, me, eventTypes: types.map((t) => t.name), feed };
}

/** Signed in, but not as an ADMIN. */
export class NotAdmin extends Error {
  constructor(readonly user: CurrentUser) {
    super(`The console is for ADMINs only. ${user.email} is a ${user.role}: sign in with an ADMIN account.`);
  }
}
