/**
 * `npm test`: every tier in order — unit, API on PGlite, API on PostgreSQL (when a server
 * answers at TEST_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/test), two instances
 * (two server processes on that PostgreSQL, Redis and an S3 server; when both answer), then e2e in Chromium.
 * The Redis-backed tests (`*.redis.test.ts`, unit and API) run in their tiers when a Redis answers at
 * TEST_REDIS_URL (default redis://127.0.0.1:6379). Set explicitly, TEST_REDIS_URL is required: a
 * Redis that does not answer then fails those tests; set empty, they are left out.
 */
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { createClient } from 'redis';

const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const redisRequired = Boolean(process.env.TEST_REDIS_URL);
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function redisAnswers(url: string): Promise<boolean> {
  const client = createClient({ url, socket: { connectTimeout: 2000, reconnectStrategy: false } });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    return false;
  } finally {
    if (client.isOpen) await client.close().catch(() => {});
  }
}

function run(title: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  console.log(`\n=== ${title} ===`);
  const started = Date.now();
  const result = spawnSync('npx', ['vitest', 'run', ...args], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  console.log(
    `=== ${title}: ${result.status === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const extra = process.argv.slice(2);
// Explicitly named, Redis is required: the tests run and say it does not answer if so.
const redis =
  process.env.TEST_REDIS_URL === '' ? '' : redisRequired || (await redisAnswers(redisUrl)) ? redisUrl : '';
const withRedis = redis ? ` + Redis-backed tests on ${new URL(redis).host}` : '';
if (!redis) {
  console.log(
    process.env.TEST_REDIS_URL === ''
      ? '\n(TEST_REDIS_URL is empty: the Redis-backed tests are left out)'
      : `\n(no Redis answers at ${new URL(redisUrl).host}: the Redis-backed tests are left out)`,
  );
}
run(`unit${withRedis}`, ['--project', 'unit', ...extra], { TEST_DATABASE_URL: '', TEST_REDIS_URL: redis });
// Timed under attack, with no other test file sharing the cores (vitest.config.ts, project `alone`).
run('the app under attack, alone', ['--project', 'alone', ...extra], {
  TEST_DATABASE_URL: '',
  TEST_REDIS_URL: '',
});
run(`api on PGlite (embedded)${withRedis}`, ['--project', 'api', ...extra], {
  TEST_DATABASE_URL: '',
  TEST_REDIS_URL: redis,
});
const postgres = await postgresAnswers(postgresUrl);
if (postgres) {
  run(`api on PostgreSQL (${new URL(postgresUrl).host})${withRedis}`, ['--project', 'api', ...extra], {
    TEST_DATABASE_URL: postgresUrl,
    TEST_REDIS_URL: redis,
  });
} else {
  console.log(`\n(no PostgreSQL answers at ${new URL(postgresUrl).host}: the API tier ran on PGlite only)`);
}
if (postgres && redis) {
  run(
    `two instances on PostgreSQL (${new URL(postgresUrl).host}), Redis (${new URL(redis).host}) and S3`,
    ['--project', 'cluster', ...extra],
    { TEST_DATABASE_URL: postgresUrl, TEST_REDIS_URL: redis },
  );
} else {
  console.log('\n(the two-instance tier needs both PostgreSQL and Redis: left out)');
}
run('e2e in Chromium', ['--project', 'e2e', ...extra], { TEST_DATABASE_URL: '', TEST_REDIS_URL: '' });
