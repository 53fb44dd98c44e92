// A webhook receiver for tests: a real HTTP server on 127.0.0.1 that records every request it gets
// and answers as the test says; and the shape of a delivery as the API lists it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export interface Hit {
  /** Its headers, each flattened to one string (repeated headers joined with ', '). */
  headers: Record<string, string>;
  body: string;
  /** When the receiver saw it (ms since epoch). */
  at: number;
  /** The status it was answered with (set once `respond` has run). */
  status?: number;
}

/** What the receiver answers with, after `delayMs` if given. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
}

export interface Receiver {
  /** http://127.0.0.1:<port>/hook */
  url: string;
  port: number;
  /** Every request so far, in order of arrival. */
  hits: Hit[];
  /** Closes every connection and the server. */
  close(): Promise<void>;
}

/** One attempt of a delivery. */
export interface Attempt {
  at: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** A webhook delivery as GET /api/v1/webhooks/{id}/deliveries lists it. */
export interface Delivery {
  id: string;
  eventId: string;
  event: string;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  attempts: Attempt[];
  nextAttemptAt: string | null;
  createdAt: string;
}

/**
 * A receiver on 127.0.0.1 (on `port` if given) answering each request with `respond(hit, n)`, n
 * counting requests from 1; a number is a status with an empty body. A delayed answer to a request
 * whose connection is gone is dropped.
 */
export async function startReceiver(respond: (hit: Hit, n: number) => Answer | number = () => 200, { port = 0 } = {}): Promise<Receiver> {
  const hits: Hit[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));
      const hit: Hit = { headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      hits.push(hit);
      const reply = respond(hit, hits.length);
      const answer: Answer = typeof reply === 'number' ? { status: reply } : reply;
      hit.status = answer.status;
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/hook`,
    port: bound,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
