// What the node server hands Yoga with each request (src/server.ts), and the request context every
// plugin, REST route and resolver shares, found by the fetch Request it was made for.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestContext } from '../../context.js';

export interface NodeServerContext {
  req: IncomingMessage & {
    /** The body was over BODY_LIMIT_BYTES (and was drained unread): the request gets a 413. */
    bodyTooLarge?: boolean;
  };
  res: ServerResponse;
}

const contexts = new WeakMap<Request, RequestContext>();

export function setRequestContext(request: Request, ctx: RequestContext): void {
  contexts.set(request, ctx);
}

/** The context made for this request by useRequestContext (the first plugin). */
export function requestContextOf(request: Request): RequestContext {
  const ctx = contexts.get(request);
  if (!ctx) throw new Error('no request context: useRequestContext must be the first plugin');
  return ctx;
}

/** The same, for hooks that also see requests no context was made for. */
export const findRequestContext = (request: Request): RequestContext | undefined => contexts.get(request);
