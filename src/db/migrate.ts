// `npm run db:migrate`: applies pending migrations to the configured database and exits.
import { loadConfigOrExit } from '../config.js';
import { openDatabase } from './client.js';
import { applyMigrations } from './schema-engine.js';

const config = loadConfigOrExit();
const db = await openDatabase(config);
try {
  const applied = await applyMigrations(db.adapterFactory);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
} finally {
  await db.close();
}
