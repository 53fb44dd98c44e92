// The PostgreSQL connection pool: its clients never crash the process, and a database that
// stops answering fails their statements (503) instead of holding them forever.
import pg from 'pg';
import { BoundedConnectClient, databaseNotAnswering } from './pg-connection.js';

/** A statement unanswered this long makes the pool check that the database answers at all. */
export const SILENT_CHECK_AFTER_MS = 5_000;
/** The check: a new connection (within CONNECT_TIMEOUT_MS) must answer SELECT 1 within this. */
export const PROBE_TIMEOUT_MS = 5_000;
const SILENT_CHECK_EVERY_MS = 1_000;

/**
 * A pool whose clients never end the process with an unhandled 'error'. pg-pool listens for
 * errors only while a client is idle; one handed straight from a finished query to a waiting
 * caller has no listener until that caller attaches one, and when PostgreSQL shuts down, the read
 * that finishes the query can bring its "terminating connection" too. With a listener for life,
 * the client is only marked broken: its next query fails as unavailable (503) and the pool
 * discards it on release.
 *
 * A database that stops answering is bounded too: connecting by CONNECT_TIMEOUT_MS (through
 * BoundedConnectClient), statements by watchForSilence.
 */
export function createPgPool(connectionString: string, max: number, extra: Pick<pg.PoolConfig, 'query_timeout'> = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, Client: BoundedConnectClient, keepAlive: true, ...extra });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  watchForSilence(pool, connectionString);
  return pool;
}

/**
 * Bounds how long a statement waits for a database that stopped answering, without cutting one
 * that is merely slow. No fixed statement timeout fits: a migration, a chunk of housekeeping
 * deletes, a statement queued behind a long transaction's row lock may all legitimately run
 * long, and pg's own `query_timeout` rejects the query but leaves the connection waiting for its
 * answer, so a transaction's connection goes back to the pool still busy. Instead: when a
 * checked-out connection has heard nothing from the database for SILENT_CHECK_AFTER_MS, a new
 * connection asks SELECT 1; if that gets no answer either, every checked-out connection silent
 * that long is destroyed. Their statements fail with databaseNotAnswering (503), and pg-pool
 * never reuses a destroyed client. While the database answers the check, slow statements run on.
 * (`keepAlive` covers a peer that vanished outright.)
 * Watched through the pool's events and each connection's socket, never per statement: a wrapper
 * around every query would cost every lookup memory.
 */
function watchForSilence(pool: pg.Pool, connectionString: string): void {
  /** When each connection last heard from the database (or was checked out). */
  const heard = new Map<pg.PoolClient, number>();
  /** The connections checked out of the pool: a statement of theirs may be waiting. */
  const out = new Set<pg.PoolClient>();
  let timer: NodeJS.Timeout | undefined;
  let checking = false;
  const arm = () => {
    if (timer || checking) return;
    timer = setTimeout(() => void check(), SILENT_CHECK_EVERY_MS);
    timer.unref();
  };
  const check = async () => {
    timer = undefined;
    const silent = (client: pg.PoolClient) => Date.now() - (heard.get(client) ?? Date.now()) >= SILENT_CHECK_AFTER_MS;
    if ([...out].some(silent)) {
      checking = true;
      const answers = await databaseAnswers(connectionString);
      checking = false;
      if (!answers) {
        for (const client of [...out].filter(silent)) {
          client.connection.stream.destroy(databaseNotAnswering('a statement', Date.now() - heard.get(client)!));
        }
      }
    }
    if (out.size) arm();
  };
  pool.on('connect', (client) => {
    heard.set(client, Date.now());
    client.connection.stream.on('data', () => heard.set(client, Date.now()));
    client.once('end', () => {
      heard.delete(client);
      out.delete(client);
    });
  });
  pool.on('acquire', (client) => {
    heard.set(client, Date.now());
    out.add(client);
    arm();
  });
  pool.on('release', (_error, client) => out.delete(client));
}

/** Whether the database answers SELECT 1 on a new connection of its own, within the probe's bounds. */
async function databaseAnswers(connectionString: string): Promise<boolean> {
  const client = new BoundedConnectClient({ connectionString, query_timeout: PROBE_TIMEOUT_MS });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    void client.end().catch(() => {});
  }
}
