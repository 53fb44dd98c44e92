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
    // Three files at a time on two cores: about half of the suite's time is waiting (for a
    // webhook's timeout, a retry, a process to stop), not computing. Measured on a 2-core machine:
    // 406 s with two at a time, 346 s with two and `isolate: false`, 266 s with three and it.
    maxWorkers: 3,
    // Each worker keeps the modules it has loaded from one file to the next instead of importing
    // the service afresh for every file (66 s of imports in a run). Every test server is its own
    // (startTestServer), and what the service's modules keep is either a cache keyed by value (a
    // webhook secret's key, the OpenAPI document) or the embedded database's lock, per directory.
    isolate: false,
  },
});
