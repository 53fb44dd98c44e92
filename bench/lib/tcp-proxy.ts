// A TCP proxy in front of a server (Redis, in the tests and the soak) that can be cut (every
// connection dropped, new ones refused) and restored: the server going away for whoever connects
// through it, while the others still reach it directly (a partition).
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A proxy to `target` (a URL such as redis://127.0.0.1:6379); `listen` resolves the same URL pointing at the proxy. */
export function tcpProxy(target: string) {
  const url = new URL(target);
  if (!url.port) throw new Error(`tcpProxy: ${url.protocol} target needs an explicit port`);
  const sockets = new Set<Socket>();
  let cut = false;
  const server: Server = createServer((downstream) => {
    if (cut) return downstream.destroy();
    const upstream = connect(Number(url.port), url.hostname);
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
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => {
          const proxied = new URL(target);
          proxied.hostname = '127.0.0.1';
          proxied.port = String((server.address() as AddressInfo).port);
          resolve(proxied.toString().replace(/\/$/, ''));
        }),
      ),
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
