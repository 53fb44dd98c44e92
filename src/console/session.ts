// The signed-in session: the access and refresh tokens from POST /api/auth/login, kept in
// sessionStorage (this tab only, gone when it closes), never in localStorage, a cookie or the URL,
// so a reload keeps you signed in and nothing outlives the tab. Every API call goes through the
// client library (src/client), made for this origin with the access token.
import { LearningClient, type TokenPair } from '../client/index.js';

const STORAGE_KEY = 'learnstream.console.session';

export interface Session {
  token: string;
  refreshToken: string;
}

/** A client without credentials: for signing in. */
export const anonymousClient = (): LearningClient => new LearningClient({ baseUrl: location.origin });

/** A client acting as the signed-in user. */
export const clientFor = (session: Session): LearningClient =>
  new LearningClient({ baseUrl: location.origin, token: session.token, maxRetryDelayMs: 10_000 });

export function savedSession(): Session | undefined {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<Session> | null;
    return parsed && typeof parsed.token === 'string' && typeof parsed.refreshToken === 'string'
      ? { token: parsed.token, refreshToken: parsed.refreshToken }
      : undefined;
  } catch {
    return undefined; // storage disabled, or not ours: sign in again
  }
}

export function saveSession(pair: Pick<TokenPair, 'token' | 'refreshToken'>): Session {
  const session = { token: pair.token, refreshToken: pair.refreshToken };
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  } catch {
    // Storage disabled: the session lives in memory until the page is reloaded.
  }
  return session;
}

export function forgetSession(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing stored
  }
}
