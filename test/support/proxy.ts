// A TCP proxy in front of a local service (PostgreSQL, Redis) that can stop forwarding: while paused
// it accepts connections and reads nothing in either direction, as a proxy or a host that froze
// would (the service's sockets stay open; nothing answers).
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface PausableProxy {
  /** The proxy's port on 127.0.0.1. */
  port: number;
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function pausableProxy(port: number): Promise<PausableProxy> {
  let paused = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((downstream) => {
    const upstream = connect(port, '127.0.0.1');
    for (const [from, to] of [[downstream, upstream], [upstream, downstream]] as const) {
      sockets.add(from);
      from.on('data', (chunk) => to.write(chunk));
      from.on('error', () => {});
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
      if (paused) from.pause();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    pause: () => {
      paused = true;
      for (const s of sockets) s.pause();
    },
    resume: () => {
      paused = false;
      for (const s of sockets) s.resume();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
