// What the node server hands Yoga with each request (src/server.ts), and what the first plugin
// records of each request for the others: its context (shared by every plugin, REST route and
// resolver), its path and when it started, found by the fetch Request they were made for.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestContext } from '../../context.js';
import { attachment } from './attachment.js';

export interface NodeServerContext {
  req: IncomingMessage & {
    /** The body was over BODY_LIMIT_BYTES (and was drained unread): the request gets a 413. */
    bodyTooLarge?: boolean;
    /** The body is not valid UTF-8: the request gets a 400. */
    bodyNotUtf8?: boolean;
    /** The body as read (absent when empty or too large), which Yoga takes instead of the stream. */
    body?: string;
  };
  res: ServerResponse;
}

export interface RequestRecord {
  ctx: RequestContext;
  /** The URL's path (parsed once, by Yoga). */
  path: string;
  /** The method the client sent (a HEAD of a GraphQL query runs as its GET: src/graphql/use-graphql-methods.ts). */
  method: string;
  /** performance.now() when the request reached Yoga. */
  started: number;
}

const records = attachment<Request, RequestRecord>('request record');

export function setRequestRecord(request: Request, record: RequestRecord): void {
  records.set(request, record);
}

/** What useRequestContext (the first plugin) recorded of this request, if anything. */
export const requestRecordOf = (request: Request): RequestRecord | undefined => records.get(request);

/** The context made for this request by useRequestContext (the first plugin). */
export function requestContextOf(request: Request): RequestContext {
  const record = records.get(request);
  if (!record) throw new Error('no request context: useRequestContext must be the first plugin');
  return record.ctx;
}

/** The same, for hooks that also see requests no context was made for. */
export const findRequestContext = (request: Request): RequestContext | undefined => records.get(request)?.ctx;
