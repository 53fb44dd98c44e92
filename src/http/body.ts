import type { IncomingMessage } from 'node:http';
import { AppError, badInput } from '../errors.js';

export const tooLarge = (limit: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than ${limit} bytes`, { details: { limit } });

/**
 * Reads a node request's body of at most `limit` bytes, before the request is handed to Yoga (the
 * body then reaches Yoga as a string; Yoga's own size limit is off, see app.ts). A declared
 * Content-Length over the limit is refused before reading, a chunked body as soon as it passes
 * the limit: either way the rest is drained (not buffered) so that the 413 still reaches the
 * client (destroying the request would reset the connection instead). null means too large.
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

/** JSON's own media type or a `+json` one (RFC 6839), with any parameters. */
export const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

const badBody = (problem: string) => badInput('body', problem);
export const notUtf8 = () => badBody('must be valid UTF-8');
/** A body sent with a content coding (gzip, br…): read as it came, its bytes would be taken for what they are not. */
export const encodedBody = () =>
  new AppError('BAD_USER_INPUT', 'body: must be sent uncompressed (no Content-Encoding but identity)', {
    details: { field: 'body' },
    headers: { 'accept-encoding': 'identity' },
  });

/**
 * Reads a JSON request body (the node layer has read it already). An empty body is `{}`. A body
 * declared as something else than JSON (a form, text/plain) is refused rather than guessed at, and
 * so is an object naming a key twice: parsers disagree on which one wins (JSON.parse keeps the
 * last), so a proxy or a log could read another request than the one served.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (!text.trim()) return {};
  const type = request.headers.get('content-type');
  if (type !== null && !JSON_MEDIA_TYPE.test(type)) throw badBody('must be sent as application/json');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badBody('must be valid JSON');
  }
  const duplicate = duplicateKey(text);
  if (duplicate !== undefined) throw badBody(`names the key ${JSON.stringify(duplicate)} twice in one object`);
  return value;
}

/**
 * The first key that one object of `text` (valid JSON) names twice, or undefined. One pass: a
 * string right after `{`, or after a `,` inside an object, is a key.
 */
export function duplicateKey(text: string): string | undefined {
  const objects: (Set<string> | null)[] = []; // null for an array
  let keyNext = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // The closing quote: the next one not escaped, found with indexOf (a scan per character
      // would cost more than JSON.parse itself).
      let end = text.indexOf('"', i + 1);
      for (;;) {
        let slash = end - 1;
        while (text.charCodeAt(slash) === 0x5c /* \ */) slash--;
        if ((end - 1 - slash) % 2 === 0) break; // an even run of backslashes escapes itself
        end = text.indexOf('"', end + 1);
      }
      const keys = objects[objects.length - 1];
      if (keyNext && keys) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        if (keys.has(key)) return key;
        keys.add(key);
        keyNext = false;
      }
      i = end;
    } else if (c === 0x7b /* { */) {
      objects.push(new Set());
      keyNext = true;
    } else if (c === 0x5b /* [ */) {
      objects.push(null);
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      objects.pop();
    } else if (c === 0x2c /* , */) {
      keyNext = objects[objects.length - 1] !== null;
    }
  }
  return undefined;
}
