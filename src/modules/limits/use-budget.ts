// The tier budget as one Yoga plugin: every HTTP request but the health checks and the pages draws
// on its caller's rolling budget once, before routing or parsing, and every WebSocket operation once
// when its context is built. Limited responses carry the limit headers; a refusal is a 429 in the
// shape of what was asked (the contract's error body, or a GraphQL RATE_LIMITED).
import type { Plugin } from 'graphql-yoga';
import { AppError } from '../../errors.js';
import { refusalResponse } from '../../graphql/errors.js';
import { isWebSocketContext } from '../../graphql/ws.js';
import { attachment } from '../../http/plugins/attachment.js';
import { findRequestContext, requestContextOf } from '../../http/plugins/server-context.js';
import { RATE_LIMITED_MESSAGE, type Admission, type LimitService } from './service.js';

// By the request's context, which a request swapped later keeps (src/graphql/use-graphql-methods.ts),
// or by the WebSocket operation's own context.
const admissions = attachment<object, Admission>('budget admission');

/**
 * What the budget counted for the request or WebSocket operation that `context` belongs to, if
 * anything: a request's own context (a REST route's), Yoga's context of an HTTP request (which
 * carries the request), or a WebSocket operation's (the one counted). Kept until the request ends,
 * so that a later refusal (an operation limit) or a 304 can give it back (LimitService.refund).
 */
export function budgetAdmissionOf(context: object): Admission | undefined {
  const own = admissions.get(context);
  if (own || isWebSocketContext(context)) return own;
  const { request } = context as { request?: Request };
  const ctx = request && findRequestContext(request);
  return ctx && admissions.get(ctx);
}

export interface BudgetOptions {
  limits: LimitService;
  /** Paths whose refusals are GraphQL responses. */
  graphqlPaths: readonly string[];
}

export function useRateLimitBudget({ limits, graphqlPaths }: BudgetOptions): Plugin {
  const refused = () => new AppError('RATE_LIMITED', RATE_LIMITED_MESSAGE);
  return {
    async onRequest({ request, url, endResponse, fetchAPI }) {
      const ctx = requestContextOf(request);
      const fail = (error: unknown) => endResponse(refusalResponse(fetchAPI.Response, error, request, ctx.log(), graphqlPaths.includes(url.pathname)));
      let admission;
      try {
        // Resolving the caller reads the database: unreachable, it is a 503 like any other route's.
        admission = await limits.admit(await ctx.caller(), ctx.ip);
      } catch (error) {
        return fail(error);
      }
      if (!admission) return;
      admissions.set(ctx, admission);
      if (!admission.allowed) fail(refused());
    },
    onResponse({ request, response }) {
      const ctx = findRequestContext(request);
      const admission = ctx && admissions.get(ctx);
      if (!admission) return;
      const setHeaders = () => {
        // Read when the response is made: a refund since the request was counted has updated them.
        const { headers } = admission;
        for (const name in headers) response.headers.set(name, headers[name]!);
      };
      // A 304 (a REST read's or a cached GraphQL result's If-None-Match) costs no budget: the
      // client already holds the answer. Given back here, whoever answered it; its headers show it.
      if (response.status === 304) return limits.refund(admission).then(setHeaders);
      setHeaders();
    },
    async onContextBuilding({ context }) {
      if (!isWebSocketContext(context)) return;
      const admission = await limits.admit(await context.caller(), context.ip);
      if (!admission) return;
      if (!admission.allowed) throw refused();
      admissions.set(context, admission);
    },
  };
}
