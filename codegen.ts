// GraphQL Code Generator: types the client library's GraphQL documents (src/client) against the
// checked-in schema.graphql. Run by `npm run generate`, after scripts/print-schema.ts.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  overwrite: true,
  schema: './schema.graphql',
  documents: ['src/client/**/*.graphql', 'src/client/**/*.ts', '!src/client/generated/**'],
  // The client library's documents come later; until then there is nothing to generate.
  ignoreNoDocuments: true,
  generates: {
    'src/client/generated/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        // moduleResolution NodeNext: relative imports need their .js extension.
        emitLegacyCommonJSImports: false,
        enumsAsTypes: true,
        scalars: { DateTime: 'string', ID: 'string' },
      },
    },
  },
};

export default config;
