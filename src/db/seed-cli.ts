// `npm run db:seed`: migrates, then seeds the demo data if the database is empty.
import { loadConfigOrExit } from '../config.js';
import { openDatabase } from './open-database.js';
import { seedIfEmpty } from './seed.js';

const config = loadConfigOrExit();
if (config.production) {
  console.error('db:seed: refusing to seed in production');
  process.exit(1);
}
const db = await openDatabase(config);
try {
  await db.migrate();
  console.log((await seedIfEmpty(db.prisma)) ? 'seeded the demo data' : 'database is not empty: nothing seeded');
} finally {
  await db.close();
}
