// The short-lived process that applies migrations (see migrateInChild): Prisma's schema engine is
// a wasm module of about 40 MB that cannot be unloaded from a process once instantiated, so the
// serving process never loads it. Reads its options from the environment, reports on stdout.
import { openDatabase } from './client.js';

const { LEARNSTREAM_MIGRATE_DATABASE_URL: databaseUrl, LEARNSTREAM_MIGRATE_DATA_DIR: dataDir } = process.env;
try {
  const db = await openDatabase({ databaseUrl: databaseUrl || undefined, dataDir: dataDir ?? '.data', dbPoolSize: 2 });
  try {
    process.stdout.write(`${JSON.stringify({ applied: await db.migrate() })}\n`);
  } finally {
    await db.close();
  }
} catch (error) {
  process.stdout.write(`${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n`);
  process.exitCode = 1;
}
