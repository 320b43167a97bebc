import { defineConfig } from 'vitest/config';

/**
 * Tests that need a shared server run in that server's tier only: `*.pg.test.ts` with
 * TEST_DATABASE_URL (PostgreSQL), `*.redis.test.ts` with TEST_REDIS_URL (scripts/test.ts sets each
 * when its server answers). `*.cluster.test.ts` are the two-instance tier (project `cluster`): two
 * server processes on PostgreSQL, Redis and S3, run when both TEST_ URLs are set.
 */
const needsServers = [
  ...(process.env.TEST_DATABASE_URL ? [] : ['**/*.pg.test.ts']),
  ...(process.env.TEST_REDIS_URL ? [] : ['**/*.redis.test.ts']),
];
const clusterTier = 'test/**/*.cluster.test.ts';
/** Tests that time the app under an attack: measured with no other test file on the cores. */
const aloneTier = 'test/**/*.alone.test.ts';
const clusterServersSet = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);

/**
 * Unit and API files run one after another in a worker that keeps its modules (isolate: false):
 * PGlite's WebAssembly, LiteSVM and the server's code load and warm up once per worker instead of
 * once per file (the API tier on PGlite: 246 s isolated, 134 s shared). A file gets its own app,
 * database and chain all the same (test/helpers/app.ts); what it changes globally it must undo,
 * and stubbed globals are undone after every test.
 */
const SHARED_WORKER = { isolate: false, unstubGlobals: true, unstubEnvs: true } as const;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'program/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: needsServers,
          environment: 'node',
          ...SHARED_WORKER,
        },
      },
      {
        test: {
          name: 'api',
          include: ['test/**/*.test.ts'],
          // Multi-instance tests need a shared PostgreSQL server (or Redis): they belong to that tier only.
          exclude: [...needsServers, clusterTier, aloneTier],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          ...SHARED_WORKER,
        },
      },
      {
        test: {
          // Timings under attack (issue 25: /api/health within 100 ms throughout): alone on the
          // machine, one file at a time, so other test files' work is not what is measured.
          name: 'alone',
          include: [aloneTier],
          globalSetup: ['test/global-setup.ts'],
          pool: 'forks',
          maxWorkers: 1,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'cluster',
          include: [clusterTier],
          exclude: clusterServersSet ? [] : [clusterTier],
          // One file at a time: each starts two servers, a chain and an S3 server on two cores.
          pool: 'forks',
          maxWorkers: 1,
          testTimeout: 30_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          // Each file starts its own server and drives a real browser: two at a time fit two cores.
          pool: 'forks',
          maxWorkers: 2,
          testTimeout: 30_000,
          // A file's server start (e2e/fixtures/server.ts waits up to 150 s) is in its beforeAll.
          hookTimeout: 180_000,
          // Each poll waits for a page that two servers and two browsers share two cores with:
          // vitest's 1 s default failed a correct page under CI load.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
