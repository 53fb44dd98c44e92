import type { Logger } from './logger.js';
import type { Services } from './services.js';

export type Role = 'ADMIN' | 'MEMBER';
export type Tier = 'FREE' | 'PRO' | 'ENTERPRISE';

/** Who is calling, resolved once per request from its credentials. */
export interface Caller {
  readonly userId: string;
  readonly role: Role;
  readonly tier: Tier;
  /** The login session the access token belongs to. */
  readonly sessionId: string;
  /**
   * When the access token the caller presented expires (ms since the epoch); absent for an API
   * key, which does not expire. A stream opened with the token ends then (credential-watch.ts).
   */
  readonly expiresAt?: number;
  /** The caller's account as read when the credentials were checked (same request). */
  readonly user: CallerAccount;
}

export interface CallerAccount {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly role: Role;
  readonly tier: Tier;
  readonly createdAt: Date;
}

/** Everything a request carries, shared by the REST and GraphQL adapters. */
export interface RequestContext {
  readonly requestId: string;
  /** The request's logger (its lines carry the request id), made when first asked for. */
  log(): Logger;
  /** The client address (X-Forwarded-For only with TRUST_PROXY). */
  readonly ip: string;
  /** The request's User-Agent, if it sent one (recorded with a new session). */
  readonly userAgent: string | undefined;
  readonly services: Services;
  /** The authenticated caller, or null when the request has no valid credentials. */
  caller(): Promise<Caller | null>;
  /** The caller, or a 403 `Missing or invalid token`. */
  requireCaller(): Promise<Caller>;
}
