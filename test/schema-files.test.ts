// The generated files that are checked in must match their sources: schema.graphql the Pothos
// schema, src/client/generated/openapi.ts (the client's REST types) the OpenAPI document, and
// prisma/migrations the Prisma schema. CI runs this, so a stale file fails the build.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { afterAll, describe, expect, it } from 'vitest';
import { printOpenApiTypes } from '../scripts/print-openapi-types.js';
import { diffSchemaFromMigrations, loadMigrationList, schemaPath, withSchemaEngine } from '../src/db/schema-engine.js';
import { apiRoutes } from '../src/http/routes.js';

const root = join(import.meta.dirname, '..');
const run = promisify(execFile);

/** What the schema engine says when a database at the end of the migrations already matches. */
const NO_CHANGES = /^(-- This is an empty migration\.)?$/;

describe('schema.graphql', () => {
  it('is what `npm run generate` prints from the current Pothos schema', async () => {
    // The generator itself, in its own process (as `npm run generate:schema` runs it).
    const { stdout } = await run(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/print-schema.ts'), '--stdout'], { cwd: root });
    const checkedIn = await readFile(join(root, 'schema.graphql'), 'utf8');
    expect(stdout).toContain('type Query {');
    expect(checkedIn, 'schema.graphql is stale: run `npm run generate` and commit it').toBe(stdout);
  }, 120_000);
});

describe('src/client/generated/openapi.ts', () => {
  const file = join(root, 'src/client/generated/openapi.ts');

  it('is what `npm run generate` writes from the current OpenAPI document (openapi-typescript)', async () => {
    // The generator itself, in its own process (as `npm run generate:openapi` runs it).
    const { stdout } = await run(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/print-openapi-types.ts'), '--stdout'], { cwd: root });
    const checkedIn = await readFile(file, 'utf8');
    expect(stdout).toContain('export interface operations {');
    expect(stdout).toContain('getMe: {');
    expect(checkedIn, 'src/client/generated/openapi.ts is stale: run `npm run generate` and commit it').toBe(stdout);
  }, 120_000);

  it('would be reported stale if a route changed (the check can fail)', async () => {
    const withoutOne = await printOpenApiTypes(apiRoutes.filter((route) => route.operationId !== 'getMe'));
    expect(withoutOne).not.toContain('getMe: {');
    expect(withoutOne).not.toBe(await readFile(file, 'utf8'));
  }, 120_000);
});

describe('prisma/migrations', () => {
  const pglite = new PGlite();
  afterAll(() => pglite.close());

  it('produce exactly prisma/schema.prisma (no migration missing)', async () => {
    const sql = await diffSchemaFromMigrations(new PrismaPGlite(pglite));
    expect(sql.trim(), 'schema.prisma and the migrations disagree: run `npm run db:migration -- <name>`').toMatch(NO_CHANGES);
  }, 300_000);

  it('would be reported stale if schema.prisma gained a model (the check can fail)', async () => {
    // The same diff diffSchemaFromMigrations runs, with a changed schema text in place of the file.
    const schema = `${await readFile(schemaPath, 'utf8')}\nmodel DriftProbe {\n  id String @id\n}\n`;
    const migrationsList = await loadMigrationList();
    const result = await withSchemaEngine(new PrismaPGlite(pglite), (engine) =>
      engine.diff({
        from: { tag: 'migrations', ...migrationsList },
        to: { tag: 'schemaDatamodel', files: [{ path: schemaPath, content: schema }] },
        script: true,
        exitCode: null,
        filters: { externalTables: [], externalEnums: [] },
      }),
    );
    const sql = (result.stdout ?? '').trim();
    expect(sql).not.toMatch(NO_CHANGES);
    expect(sql).toContain('CREATE TABLE "DriftProbe"');
  }, 300_000);
});
