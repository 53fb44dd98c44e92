// A section's own database and service process, out of the rate limits' reach, and a SQL client
// on that database: what a section seeding millions of rows needs so the other sections are not
// slowed by them. Everything is stopped and dropped through `defer`.
import pg from 'pg';
import { createDatabase } from './database.js';
import { freePort, startNode, waitForHttp, type Child } from './processes.js';

export interface DedicatedService {
  /** The service's base URL. */
  url: string;
  /** The database's connection URL. */
  databaseUrl: string;
  service: Child;
  sql: pg.Client;
}

export async function startDedicatedService(o: {
  /** Names the database, the process and the clean-ups in the progress lines. */
  name: string;
  root: string;
  poolSize: number;
  /** More environment for the service (e.g. a limit of its own lifted). */
  env?: Record<string, string>;
  defer: (name: string, run: () => Promise<unknown>) => void;
  progress: (message: string) => void;
}): Promise<DedicatedService> {
  const db = await createDatabase();
  o.defer(`drop database ${db.name}`, db.drop);
  o.progress(`${o.name}: database ${db.name}`);
  const port = await freePort();
  const service = startNode(`${o.name} service`, 'dist/main.js', {
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: db.url,
    DB_POOL_SIZE: String(o.poolSize),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_FREE: '100000000',
    RATE_LIMIT_PRO: '100000000',
    RATE_LIMIT_WINDOW_S: '1',
    ...o.env,
  }, o.root);
  o.defer(`stop ${o.name} service`, service.stop);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, service, 180_000);
  const sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
  o.defer(`close ${o.name} sql client`, () => sql.end());
  return { url, databaseUrl: db.url, service, sql };
}
