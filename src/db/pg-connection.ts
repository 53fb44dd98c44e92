// A PostgreSQL connection whose connecting is bounded in time, and the error a connection the
// database stopped answering fails with.
import pg from 'pg';

/**
 * How long making a new connection may take: PostgreSQL answers a connection in milliseconds, and
 * 5 s is what Prisma's own engine allows (`connect_timeout`). Without a bound, a server that
 * accepts TCP but never answers (a proxy that stopped forwarding, a frozen host) holds every
 * request, and the start, forever. Only connecting: waiting for a free pooled connection stays
 * unbounded (a transaction still gives up after TRANSACTION_OPTIONS.maxWait).
 */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * What the queries of a connection that was given up on fail with: `ETIMEDOUT` and "Connection
 * terminated", both of which isDatabaseUnavailable (src/errors.ts) answers 503.
 */
export function databaseNotAnswering(what: 'connecting' | 'a statement', ms: number): Error {
  const s = Math.round(ms / 1000);
  const message = what === 'connecting' ? `the database did not answer the connection within ${s} s` : `the database did not answer a statement for ${s} s`;
  return Object.assign(new Error(`Connection terminated: ${message}`), { code: 'ETIMEDOUT' });
}

/**
 * A pg client whose connecting ends after CONNECT_TIMEOUT_MS with databaseNotAnswering (503).
 * pg's own connectionTimeoutMillis fails with a bare "timeout expired", which nothing recognises
 * as the database being unreachable, and on a pool it also bounds waiting for a pooled connection.
 */
export class BoundedConnectClient extends pg.Client {
  override connect(): Promise<pg.Client>;
  override connect(callback: (err: Error) => void): void;
  override connect(callback?: (err: Error) => void): Promise<pg.Client> | void {
    const timer = setTimeout(() => this.connection.stream.destroy(databaseNotAnswering('connecting', CONNECT_TIMEOUT_MS)), CONNECT_TIMEOUT_MS);
    timer.unref();
    if (callback) {
      super.connect((err: Error) => {
        clearTimeout(timer);
        callback(err);
      });
      return;
    }
    return super.connect().finally(() => clearTimeout(timer));
  }
}
