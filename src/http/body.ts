import type { IncomingMessage } from 'node:http';
import { AppError } from '../errors.js';

const tooLarge = (limit: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than ${limit} bytes`, { details: { limit } });

/** Reads a JSON body, refusing more than `limit` bytes before reading it all. An empty body is `{}`. */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) {
    req.resume();
    throw tooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      req.resume();
      throw tooLarge(limit);
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('BAD_USER_INPUT', 'body: must be valid JSON', { details: { field: 'body' } });
  }
}
