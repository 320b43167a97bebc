/** npm run db:migrate | db:seed | db:reset — against the configured database (.env or environment). */
import { rmSync } from 'node:fs';
import { loadConfig, loadDotEnv } from '../src/server/config';
import { openConfiguredDatabase } from '../src/server/db/open';
import { seedDemoData } from '../src/server/db/seed';

const command = process.argv[2];
loadDotEnv();
const config = loadConfig();

if (command === 'reset') {
  if (!config.database.embedded) {
    console.error(
      'db:reset only removes the embedded data folder; drop a PostgreSQL database with your own tools.',
    );
    process.exit(1);
  }
  rmSync(config.dataDir, { recursive: true, force: true });
  console.log(`Removed ${config.dataDir}; the next start creates it again with demo data.`);
  process.exit(0);
}

const database = await openConfiguredDatabase(config);
if (command === 'migrate') {
  console.log(`Migrated ${database.description}`);
} else if (command === 'seed') {
  const { seeded } = await seedDemoData(database.db, new Date());
  console.log(seeded ? 'Demo data loaded.' : 'The database already has users; demo data not loaded.');
} else {
  console.error('usage: db.ts migrate|seed|reset');
  process.exitCode = 1;
}
await database.close();
