// The limits on connections (CONNECTIONS_PER_ADDRESS, MAX_CONNECTIONS): what one client address may
// hold open as WebSockets and SSE streams, and what the whole server holds. A long-lived connection
// costs a file descriptor and memory whatever its client does: unbounded, a few addresses could take
// every descriptor and leave none for /healthz, the database and ordinary requests.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Plugin } from 'graphql-yoga';
import { AppError } from '../errors.js';
import type { ConnectionRefusalReason, Metrics } from '../metrics.js';
import { errorResponse } from './errors.js';
import { requestContextOf, type NodeServerContext } from './plugins/server-context.js';

/** The refusal of one more WebSocket or SSE connection from an address that has `max` open. */
export const tooManyConnections = (max: number) =>
  new AppError('TOO_MANY_CONNECTIONS', `Too many open connections from this address: at most ${max} WebSocket and SSE connections at once`);

/** Open WebSocket and SSE connections by client address, at most `perAddress` each. */
export class AddressConnections {
  private readonly open = new Map<string, number>();

  constructor(readonly perAddress: number) {}

  /**
   * Takes a slot for one more connection from `address`: its release (call it when the connection
   * closes; more calls do nothing), or undefined when the address already holds `perAddress`.
   */
  acquire(address: string): (() => void) | undefined {
    const count = this.open.get(address) ?? 0;
    if (count >= this.perAddress) return undefined;
    this.open.set(address, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(address) ?? 1) - 1;
      if (left > 0) this.open.set(address, left);
      else this.open.delete(address);
    };
  }

  /** Connections `address` holds open now. */
  count(address: string): number {
    return this.open.get(address) ?? 0;
  }
}

/**
 * Counts every SSE stream on the GraphQL paths (Yoga's own on /graphql, graphql-sse's in both modes
 * on /graphql/stream: a request that accepts `text/event-stream`) against its client address, and
 * refuses one over CONNECTIONS_PER_ADDRESS with a 429 before anything runs. The slot is given back
 * when the response closes (the stream ended, or the client went away).
 */
export function useStreamConnectionLimit({
  connections,
  graphqlPaths,
  metrics,
}: {
  connections: AddressConnections;
  graphqlPaths: readonly string[];
  metrics: Pick<Metrics, 'connectionRefused'>;
}): Plugin<object, NodeServerContext> {
  return {
    onRequest({ request, url, serverContext, endResponse, fetchAPI }) {
      const res = serverContext?.res;
      if (!res || !graphqlPaths.includes(url.pathname)) return;
      if (!(request.headers.get('accept') ?? '').includes('text/event-stream')) return;
      const ctx = requestContextOf(request);
      const release = connections.acquire(ctx.ip);
      if (release) {
        res.once('close', release);
        return;
      }
      metrics.connectionRefused('per_address');
      // The contract's error shape, as for the WebSocket upgrade: no GraphQL operation has started.
      endResponse(errorResponse(fetchAPI.Response, tooManyConnections(connections.perAddress), ctx.log()));
    },
  };
}

/**
 * Holds the server to at most `max` sockets at once. A socket is busy while it has a request in
 * flight (an SSE stream is one) or once upgraded (a WebSocket); otherwise it is idle: between
 * keep-alive requests, or connected without having sent a request yet. When the server is full, a
 * new socket closes the socket idle the longest, which HTTP allows a server to close at any time,
 * so that silent sockets cannot keep out /healthz and ordinary requests; when every socket is busy,
 * the new one is closed at once. Closing at accept keeps the process's file descriptors for the
 * database, Redis and the sockets already served.
 */
export function limitSockets(server: Server, max: number, onRefused: (reason: ConnectionRefusalReason) => void): void {
  const open = new Set<Socket>();
  /** Idle sockets, the one idle longest first (a Map keeps insertion order). */
  const idle = new Map<Socket, true>();
  /** Requests in flight per socket (pipelining may make it more than one). */
  const inFlight = new WeakMap<Socket, number>();

  server.on('connection', (socket: Socket) => {
    if (open.size >= max) {
      const oldest = idle.keys().next();
      if (oldest.done) {
        onRefused('max_connections');
        socket.destroy();
        return;
      }
      idle.delete(oldest.value);
      oldest.value.destroy();
    }
    open.add(socket);
    idle.set(socket, true);
    socket.once('close', () => {
      open.delete(socket);
      idle.delete(socket);
    });
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    if (!open.has(socket)) return;
    idle.delete(socket);
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.once('close', () => {
      const left = (inFlight.get(socket) ?? 1) - 1;
      inFlight.set(socket, left);
      if (left === 0 && open.has(socket) && !socket.destroyed) idle.set(socket, true);
    });
  });
  server.prependListener('upgrade', (req: IncomingMessage, socket: Socket) => {
    // An upgraded socket is no longer HTTP's: it stays busy until it closes.
    idle.delete(socket);
    inFlight.set(socket, Infinity);
    // Nothing else takes upgrades (the WebSocket server is not attached yet, or has been detached
    // while stopping): closed, as node does when no one listens for them.
    if (server.listenerCount('upgrade') === 1) socket.destroy();
  });
}

/** Descriptors the process needs besides its sockets: the database pool, Redis, files, the workers. */
export const DESCRIPTOR_HEADROOM = 256;

/** The process's soft limit on open files (`ulimit -n`), where the system says (Linux); else undefined. */
export function openFileLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line ? Number(line[1]) : undefined;
  } catch {
    return undefined;
  }
}
