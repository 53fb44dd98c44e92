// Writes schema.graphql at the repository root from the Pothos schema, sorted so that the file
// only changes when the schema does. `npm run generate` runs it; test/schema-files.test.ts fails
// when the checked-in file is stale. With --stdout it prints the text instead of writing the file.
import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { schema } from '../src/graphql/schema.js';

export const schemaFile = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'schema.graphql');

const HEADER = [
  '# Generated from the Pothos schema (src/graphql/schema.ts) by `npm run generate`',
  '# (scripts/print-schema.ts). Do not edit by hand: change the schema and regenerate.',
].join('\n');

/** The text schema.graphql should contain for this schema. */
export function printSchemaFile(s: GraphQLSchema = schema): string {
  return `${HEADER}\n\n${printSchema(lexicographicSortSchema(s))}\n`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--stdout')) {
    process.stdout.write(printSchemaFile());
  } else {
    await writeFile(schemaFile, printSchemaFile());
    console.log(`wrote ${schemaFile}`);
  }
}
