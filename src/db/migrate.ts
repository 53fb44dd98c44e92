// `npm run db:migrate`: applies pending migrations to the configured database and exits.
import { loadConfigOrExit } from '../config.js';
import { openDatabase } from './open-database.js';

const config = loadConfigOrExit();
const db = await openDatabase(config);
try {
  const applied = await db.migrate();
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
} finally {
  await db.close();
}
