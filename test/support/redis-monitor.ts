// What Redis itself runs, as its MONITOR reports it: for tests that assert how many commands of a
// kind a piece of the service sends (a cache read it should skip, a script it should share).
import { Redis } from 'ioredis';

export interface RedisMonitor {
  /** Every command seen since the monitor started (or was last cleared), as its arguments. */
  readonly commands: string[][];
  /** Resolves once Redis has reported every command sent (by anyone) before this call. */
  settled(): Promise<void>;
  close(): void;
}

export async function monitorRedis(redisUrl: string): Promise<RedisMonitor> {
  const watcher = new Redis(redisUrl);
  const monitor = await watcher.monitor();
  watcher.disconnect();
  const commands: string[][] = [];
  monitor.on('monitor', (_time: string, args: string[]) => void commands.push(args.map(String)));
  const marker = new Redis(redisUrl);
  return {
    commands,
    async settled() {
      const token = `settled-${Date.now()}-${Math.random()}`;
      const seen = new Promise<void>((resolve) => monitor.on('monitor', (_time: string, args: string[]) => args.includes(token) && resolve()));
      await marker.echo(token);
      await seen;
    },
    close() {
      monitor.disconnect();
      marker.disconnect();
    },
  };
}
