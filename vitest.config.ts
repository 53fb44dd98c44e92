import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // One graphql instance, as in production: vitest would otherwise load its ES module build for
    // our files and its CommonJS build for dependencies (graphql-http, Pothos, Yoga), and a schema
    // from one is "from another module or realm" to the other.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // A migrated database each test server starts from (a copy), made once per run.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Integration tests start real servers and databases; two cores, so two files at a time.
    maxWorkers: 2,
  },
});
