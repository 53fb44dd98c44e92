// One webhook POST on node:http(s): no redirects followed, the response body read up to a cap,
// and, when private targets are refused, every address checked at connect time, closing the gap
// between the URL guard's check and the connection (DNS rebinding).
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';
import { isPrivateAddress } from './url-guard.js';

export interface PostReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** At most `maxBytes` of the body. */
  body: Buffer;
}

export interface PostOptions {
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
  allowPrivateTargets: boolean;
  maxResponseBytes: number;
}

// Keep-alive: a receiver gets many deliveries, and a new connection per POST costs more than the
// POST. Idle sockets are closed after 4 s, before most servers drop them (Node's default is 5 s),
// so a POST is rarely written into a connection the receiver is closing (a spurious reset).
const IDLE_SOCKET_MS = 4_000;
const agents = {
  'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo', timeout: IDLE_SOCKET_MS }),
  'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo', timeout: IDLE_SOCKET_MS }),
};

export class PrivateTargetError extends Error {
  readonly code = 'EPRIVATETARGET';
}

/** dns.lookup, refusing private, loopback and link-local answers (whichever the socket asks for: one or all). */
const publicOnlyLookup = ((hostname: string, options: LookupOptions, callback: (...args: unknown[]) => void) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) {
      return callback(new PrivateTargetError(`${hostname} resolves to ${bad.address}: private targets are not allowed`));
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }));
    callback(null, first.address, first.family);
  });
}) as unknown as LookupFunction;

/**
 * POSTs `body` to `url` and resolves with the status, headers and capped body; rejects on network
 * errors or abort before a status arrives. Every way a request can end settles it: an attempt that
 * never settled would hold its delivery slot for the life of the process.
 */
export function postOnce(url: string, options: PostOptions): Promise<PostReply> {
  const target = new URL(url);
  const agent = target.protocol === 'https:' ? agents['https:'] : agents['http:'];
  const request = target.protocol === 'https:' ? https.request : http.request;
  return new Promise<PostReply>((resolve, reject) => {
    let response: http.IncomingMessage | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => resolve({ status: response!.statusCode ?? 0, headers: response!.headers, body: Buffer.concat(chunks).subarray(0, options.maxResponseBytes) });
    const req = request(target, {
      method: 'POST',
      agent,
      headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
      signal: options.signal,
      ...(options.allowPrivateTargets ? {} : { lookup: publicOnlyLookup }),
    });
    // Once the status is known, a body that breaks off (or the time running out) loses only the
    // excerpt: a 2xx that came within the timeout is a success however its body ends.
    req.once('error', (error) => (response ? done() : reject(error)));
    req.once('response', (res) => {
      response = res;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= options.maxResponseBytes) {
          // Enough: the rest is not read, and the connection is not reused.
          res.destroy();
          done();
        }
      });
      res.once('end', done);
      res.once('error', done);
      res.once('aborted', done);
      res.once('close', done);
    });
    // A 101 Switching Protocols makes no 'response': node hands the socket to 'upgrade' listeners,
    // and without one destroys it, and the request then never ended. It is an answer like any
    // other that is not 2xx; the socket is not ours to keep.
    req.once('upgrade', (res: http.IncomingMessage, socket: Duplex) => {
      socket.destroy();
      response = res;
      done();
    });
    // Anything else that ends the request without a status (a settled promise ignores this).
    req.once('close', () => {
      if (!response) reject(Object.assign(new Error('connection closed before a response'), { code: 'ECONNRESET' }));
    });
    req.end(options.body);
  });
}
