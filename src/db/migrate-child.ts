// The short-lived process that applies migrations (see migrateInChild): Prisma's schema engine is
// a wasm module of about 40 MB that cannot be unloaded from a process once instantiated, so the
// serving process never loads it. Reads its options from the environment, reports on stdout.
import { openDatabase } from './open-database.js';

const { LEARNSTREAM_MIGRATE_DATABASE_URL: databaseUrl, LEARNSTREAM_MIGRATE_DATA_DIR: dataDir } = process.env;
let report: { applied: string[] } | { error: string };
try {
  const db = await openDatabase({ databaseUrl: databaseUrl || undefined, dataDir: dataDir ?? '.data', dbPoolSize: 2 });
  try {
    report = { applied: await db.migrate() };
  } finally {
    await db.close();
  }
} catch (error) {
  report = { error: error instanceof Error ? error.message : String(error) };
}
// Exit as soon as the report is out, rather than when the event loop empties: the schema engine
// leaves a 10 s timer behind (a timeout it races its migration lock against, never cleared once
// the lock is taken), which kept this process, and so every first start, waiting 10 s more.
process.stdout.write(`${JSON.stringify(report)}\n`, () => process.exit('error' in report ? 1 : 0));
