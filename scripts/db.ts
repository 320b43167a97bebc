/** npm run db:migrate | db:seed | db:reset — against the configured database (.env or environment). */
import { rmSync } from 'node:fs';
import { loadConfig, loadDotEnv } from '#server/config';
import { seedDemoData } from '#server/demo/seed';
import { demoAdminWallet } from '#server/judging-keys';
import { openRuntime } from '#server/runtime';
import { openVideoStorage } from '#server/storage/open';

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

if (command === 'seed' && !config.chain.embedded) {
  // Demo dares are funded with test SOL, which only the embedded chain can mint.
  console.error('db:seed needs the embedded chain: unset SOLANA_RPC_URL.');
  process.exit(1);
}
const runtime = await openRuntime(config);
const { database } = runtime;
try {
  if (command === 'migrate') {
    console.log(`Migrated ${database.description}`);
  } else if (command === 'seed') {
    const result = await seedDemoData({
      config,
      database,
      chain: runtime.chain,
      escrowKeys: runtime.escrowKeys,
      escrowProgramId: runtime.escrowProgram?.programId ?? null,
      escrowProgramV2Id: runtime.escrowProgramV2.programId,
      judging: runtime.judging,
      clock: () => new Date(),
      storage: await openVideoStorage(config.storage),
      adminPassword: config.demoAdminPassword,
      adminWallet: await demoAdminWallet(config.dataDir),
    });
    if (!result.seeded) console.log('The database already has users; demo data not loaded.');
    else if (result.admin.generated)
      console.log(
        `Demo data loaded. Demo admin: username "${result.admin.username}", password "${result.admin.password}" (shown only now)`,
      );
    else
      console.log(
        `Demo data loaded. Demo admin: username "${result.admin.username}", password from DEMO_ADMIN_PASSWORD`,
      );
  } else {
    console.error('usage: db.ts migrate|seed|reset');
    process.exitCode = 1;
  }
} finally {
  await runtime.close();
}
