// Prisma 7 reads the datasource URL from here, not from schema.prisma. Only the CLI uses it
// (generate, validate); the app builds its own driver adapter in src/db/client.ts.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/unused' },
});
