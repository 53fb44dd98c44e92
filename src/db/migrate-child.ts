// The short-lived process that prepares the database before the service opens it (see
// prepareInChild): it creates a missing embedded database, applies pending migrations and, when
// asked, seeds the demo data into an empty database, since it has it open anyway. Creating and
// migrating leave memory behind that a process cannot give back: initdb's, and Prisma's schema
// engine, a wasm module of about 40 MB that stays instantiated. Reads its options from the
// environment, reports on stdout.
import { openDatabase } from './open-database.js';

const {
  LEARNSTREAM_MIGRATE_DATABASE_URL: databaseUrl,
  LEARNSTREAM_MIGRATE_DATA_DIR: dataDir,
  LEARNSTREAM_MIGRATE_SEED: seed,
} = process.env;
let report: { applied: string[]; seeded: boolean } | { error: string };
try {
  const db = await openDatabase({ databaseUrl: databaseUrl || undefined, dataDir: dataDir ?? '.data', dbPoolSize: 2 });
  try {
    const applied = await db.migrate();
    // Imported only when seeding: the template build and a production start never need it.
    const seeded = seed === '1' && (await (await import('./seed.js')).seedIfEmpty(db.prisma));
    report = { applied, seeded };
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
