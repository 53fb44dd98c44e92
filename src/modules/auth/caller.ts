// Who is calling: what every service takes with its input, whatever the transport.

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
