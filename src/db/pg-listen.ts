// LISTEN on PostgreSQL: a connection of its own, reconnected with backoff while not stopped.
import type pg from 'pg';
import { BoundedConnectClient } from './pg-connection.js';

/** Reconnection delays: from the first, doubling up to the last. */
const LISTEN_RETRY_MS = [250, 10_000] as const;

/**
 * Calls `onNotify` with each NOTIFY's payload on `channel`, and with null after a reconnect
 * (notifications may have been missed meanwhile). Resolves to a function that stops listening.
 */
export async function listenOn(databaseUrl: string, channel: string, onNotify: (payload: string | null) => void): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`listen: not a plain channel name: ${channel}`);
  let current: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let delay: number = LISTEN_RETRY_MS[0];
  const connect = async (): Promise<void> => {
    const client = new BoundedConnectClient({ connectionString: databaseUrl, keepAlive: true });
    // A lost connection is seen as 'end' below; the error itself needs no handling.
    client.on('error', () => {});
    client.on('notification', (n) => {
      if (n.channel === channel) onNotify(n.payload ?? '');
    });
    client.on('end', () => {
      if (current !== client) return;
      current = undefined;
      schedule();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (stopped) {
      await client.end().catch(() => {});
      return;
    }
    current = client;
    delay = LISTEN_RETRY_MS[0];
  };
  const schedule = () => {
    if (stopped) return;
    retry = setTimeout(() => {
      connect().then(
        () => onNotify(null),
        () => {
          delay = Math.min(delay * 2, LISTEN_RETRY_MS[1]);
          schedule();
        },
      );
    }, delay);
  };
  // Not reachable now: keep trying in the background (the caller polls meanwhile).
  await connect().catch(schedule);
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const client = current;
    current = undefined;
    await client?.end().catch(() => {});
  };
}
