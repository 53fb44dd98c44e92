import type { IncomingMessage } from 'node:http';
import { AppError } from '../errors.js';

export const tooLarge = (limit: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than ${limit} bytes`, { details: { limit } });

/**
 * Reads a node request's body of at most `limit` bytes, before the request is handed to Yoga (the
 * body then reaches Yoga as a string; Yoga's own size limit is off, see app.ts). A declared
 * Content-Length over the limit is refused before reading, a chunked body as soon as it passes
 * the limit: either way the rest is drained (not buffered) so that the 413 still reaches the
 * client (destroying the request would reset the connection instead). null means too large.
 * (Measured: a body read here or streamed by Yoga costs the same; Yoga's limit was the cost.)
 */
export function readNodeBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  if (Number(req.headers['content-length'] ?? NaN) > limit) {
    req.resume();
    return Promise.resolve(null);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      fn();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        settle(() => resolve(null));
        req.resume();
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => settle(() => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks))));
    req.once('error', (error) => settle(() => reject(error)));
    req.once('close', () => settle(() => reject(new Error('request closed before its body was read'))));
  });
}

/** Reads a JSON request body (the node layer has read it already). An empty body is `{}`. */
export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('BAD_USER_INPUT', 'body: must be valid JSON', { details: { field: 'body' } });
  }
}
