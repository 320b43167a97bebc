import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Standalone config of the e2e tier (`npx vitest run -c e2e/vitest.config.ts`); the root
 * vitest.config.ts carries the same settings as its `e2e` project.
 */
export default defineConfig({
  test: {
    name: 'e2e',
    root: path.resolve(import.meta.dirname, '..'),
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    environment: 'node',
    // A spec file starts its own server (PGlite initdb, migrations, seed: a few seconds) and
    // drives a real browser; two files at a time keep both cores busy without starving either.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
