// A TCP proxy in front of the test Redis that a test can cut (every connection dropped, new ones
// refused) and restore: Redis going away for one instance, or for all that connect through it.
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { TEST_REDIS_URL } from './process.js';

/** A TCP proxy to Redis that can be cut (every connection dropped, new ones refused) and restored. */
export function redisProxy() {
  const target = new URL(TEST_REDIS_URL);
  const sockets = new Set<Socket>();
  let cut = false;
  const server: Server = createServer((downstream) => {
    if (cut) return downstream.destroy();
    const upstream = connect(Number(target.port || 6379), target.hostname);
    for (const socket of [downstream, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        downstream.destroy();
        upstream.destroy();
      });
    }
    downstream.pipe(upstream).pipe(downstream);
  });
  return {
    listen: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`redis://127.0.0.1:${(server.address() as AddressInfo).port}`))),
    cut() {
      cut = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      cut = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
