import type { IncomingMessage } from 'node:http';
import { AppError } from '../errors.js';

const tooLarge = (limit: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than ${limit} bytes`, { details: { limit } });

/**
 * Reads a request body of at most `limit` bytes. A declared Content-Length over the limit is
 * refused before reading; a chunked body is refused as soon as it passes the limit. Either way the
 * rest of the body is drained (not buffered) so that the 413 still reaches the client: destroying
 * the request (as leaving a `for await` loop early does) would reset the connection instead.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
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
        settle(() => reject(tooLarge(limit)));
        req.resume();
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => settle(() => resolve(Buffer.concat(chunks))));
    req.once('error', (error) => settle(() => reject(error)));
    req.once('close', () => settle(() => reject(new Error('request closed before its body was read'))));
  });
}

/** Reads a body as text, refusing more than `limit` bytes (413) before reading it all. */
export async function readBodyText(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) {
    req.resume();
    throw tooLarge(limit);
  }
  return (await readBody(req, limit)).toString('utf8');
}

/** Reads a JSON body, refusing more than `limit` bytes before reading it all. An empty body is `{}`. */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const text = await readBodyText(req, limit);
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('BAD_USER_INPUT', 'body: must be valid JSON', { details: { field: 'body' } });
  }
}
