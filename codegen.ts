// GraphQL Code Generator: types the client library's GraphQL documents (src/client) against the
// checked-in schema.graphql. Run by `npm run generate:client` (and `npm run generate`, after
// scripts/print-schema.ts). The output in src/client/generated/ is committed; CI regenerates it
// and fails when it differs.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  overwrite: true,
  schema: './schema.graphql',
  documents: ['src/client/**/*.graphql', 'src/client/**/*.ts', '!src/client/generated/**'],
  // An operation-less client would be a mistake, not an empty result.
  ignoreNoDocuments: false,
  generates: {
    'src/client/generated/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        // moduleResolution NodeNext: relative imports need their .js extension.
        emitLegacyCommonJSImports: false,
        enumsAsTypes: true,
        // Documents are TypedDocumentStrings: sent as is, no GraphQL parser in the client at run time.
        documentMode: 'string',
        scalars: { DateTime: 'string', ID: 'string' },
      },
    },
  },
};

export default config;
