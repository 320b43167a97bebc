/**
 * `npm test`: every tier in order — unit, API on PGlite, API on PostgreSQL (when a server
 * answers at TEST_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/test), then e2e in Chromium.
 */
import { spawnSync } from 'node:child_process';
import pg from 'pg';

const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

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
run('unit', ['--project', 'unit', ...extra], { TEST_DATABASE_URL: '' });
run('api on PGlite (embedded)', ['--project', 'api', ...extra], { TEST_DATABASE_URL: '' });
if (await postgresAnswers(postgresUrl)) {
  run(`api on PostgreSQL (${new URL(postgresUrl).host})`, ['--project', 'api', ...extra], {
    TEST_DATABASE_URL: postgresUrl,
  });
} else {
  console.log(`\n(no PostgreSQL answers at ${new URL(postgresUrl).host}: the API tier ran on PGlite only)`);
}
run('e2e in Chromium', ['--project', 'e2e', ...extra], { TEST_DATABASE_URL: '' });
