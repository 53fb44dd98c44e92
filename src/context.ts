import type { Logger } from './logger.js';
import type { Caller } from './modules/auth/caller.js';
import type { Services } from './services.js';

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
  /**
   * The caller once `caller()` has resolved, else undefined. A GraphQL resolver behind an auth
   * scope (`t.withAuth`, src/graphql/builder.ts) always gets it: the scope resolved it. A method,
   * not a property: the GraphQL layers copy the context object.
   */
  viewer(): Caller | null | undefined;
  /** The caller, or a 403 `Missing or invalid token`. */
  requireCaller(): Promise<Caller>;
}
