// A REST route is data: its method, path, schemas and a handler. The router validates with the
// schemas, and the OpenAPI document is generated from the same schemas.
import type { z } from 'zod';
import type { RequestContext } from '../context.js';
import type { Caller, Role } from '../modules/auth/caller.js';
import type { Precondition } from '../errors.js';
import type { Entity } from '../modules/response-cache/index.js';
import { keyPolicyOf } from '../modules/idempotency/policy.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
type AnyObject = z.ZodType<Record<string, unknown>>;

export interface RouteInput<P, Q, B, A extends boolean> {
  params: P;
  query: Q;
  body: B;
  ctx: RequestContext;
  caller: A extends true ? Caller : null;
  /**
   * The request's If-Match, on a route that declares `ifMatch`: the handler passes it to its
   * service, which checks it against the resource's current view (the body its GET answers) in
   * the write's transaction, with the resource's row locked, and refuses with 412 if it fails.
   * undefined without the header (no check).
   */
  precondition: Precondition<unknown> | undefined;
}

export interface RouteDefinition<
  P extends AnyObject = AnyObject,
  Q extends AnyObject = AnyObject,
  B extends AnyObject = AnyObject,
  R extends z.ZodType = z.ZodType,
  A extends boolean = boolean,
> {
  method: Method;
  /** OpenAPI-style template: `/api/users/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /** true: a valid token is required (403 otherwise). false: credentials are not looked at. */
  auth: A;
  /** Only these roles may call the route (403 `Forbidden` otherwise), checked before the input. */
  roles?: readonly Role[];
  params?: P;
  query?: Q;
  body?: B;
  /**
   * The success status and body schema (none for 202/204 without a body). `also`: a second success
   * status with the same body, which the handler answers by returning `answered(also.status, body)`
   * (PUT enrollment: 201 enrolled now, 200 already enrolled).
   */
  success: { status: 200 | 201 | 202 | 204; description: string; schema?: R; also?: { status: 200 | 201; description: string } };
  /**
   * A public read (GET, no auth) answered through the response cache: the entities its answer
   * shows, whose committed change invalidates it (src/modules/response-cache). Its responses
   * carry an ETag, and If-None-Match with it answers 304.
   */
  cached?: (result: z.input<R>) => Entity[];
  /**
   * A write of a resource that has a GET: it honours If-Match (see RouteInput.precondition), and
   * its 2xx answer with the resource carries the resource's new ETag.
   */
  ifMatch?: boolean;
  /** Error codes this route may answer with, beyond the ones every route can (429, 500, 503). */
  errors: number[];
  handler(input: RouteInput<z.output<P>, z.output<Q>, z.output<B>, A>): Promise<z.input<R> | Answered<z.input<R>> | void>;
}

/** A handler's answer with its route's `success.also` status instead of `success.status`. */
export class Answered<T> {
  constructor(readonly status: 200 | 201, readonly body: T) {}
}
export const answered = <T>(status: 200 | 201, body: T) => new Answered(status, body);

/**
 * Runs a route's handler (`run`), or refuses the call first: a policy declared for some routes
 * elsewhere (the operation limits, src/modules/limits/operation-limits.ts).
 */
export type RouteGuard = <T>(route: RouteDefinition, ctx: RequestContext, run: () => Promise<T>) => Promise<T>;

/**
 * Whether a route takes an Idempotency-Key: every authenticated write under /api/v1 (the
 * contract's), but one whose answer holds tokens (src/modules/idempotency/policy.ts).
 */
export const takesIdempotencyKey = (route: RouteDefinition): boolean =>
  route.auth && route.method !== 'GET' && route.path.startsWith('/api/v1/') && keyPolicyOf(route.operationId) !== 'tokens';

/** Typed helper: infers the handler's input and output types from the schemas. */
export function defineRoute<
  P extends AnyObject,
  Q extends AnyObject,
  B extends AnyObject,
  R extends z.ZodType,
  A extends boolean,
>(route: RouteDefinition<P, Q, B, R, A>): RouteDefinition {
  return route as unknown as RouteDefinition;
}
