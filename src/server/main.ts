import { mkdirSync } from 'node:fs';
import { type AppDeps, buildApp } from './app';
import { createChain } from './chain';
import { loadMasterSeed } from './chain/master-seed';
import { ConfigError, loadConfig, loadDotEnv } from './config';
import { openConfiguredDatabase } from './db/open';
import { DEMO_ADMIN, seedDemoData } from './db/seed';
import { createLocalDiskStorage } from './storage/local-disk';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    loadDotEnv();
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  mkdirSync(config.dataDir, { recursive: true });

  const database = await openConfiguredDatabase(config);

  // Loaded at start so a missing or corrupt seed stops start-up, not the first payout.
  loadMasterSeed({
    seedHex: config.escrowMasterSeedHex,
    dataDir: config.dataDir,
    embedded: config.chain.embedded,
  });

  const chain = await createChain(
    config.chain.embedded
      ? { stateDir: config.chain.stateDir }
      : { rpcUrl: config.chain.rpcUrl, cluster: config.chain.cluster, stateDir: null },
  );
  const clock = () => new Date();
  const deps: AppDeps = {
    config,
    database,
    chain,
    storage: createLocalDiskStorage(config.storage.videoDir),
    clock,
  };

  const seeded =
    config.seedDemoData && config.chain.embedded
      ? await seedDemoData(database.db, clock())
      : { seeded: false };

  const app = await buildApp({
    ...deps,
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.body.password', 'req.body.signedTransaction'],
    },
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, shutting down`);
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await app.close().catch((error) => app.log.error(error));
    await chain.close().catch((error) => app.log.error(error));
    await database.close().catch((error) => app.log.error(error));
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const address = await app.listen({ host: config.host, port: config.port });
  const shownAddress = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
  app.log.info(`DarePool listening on ${shownAddress}`);
  app.log.info(`Database: ${database.description}${seeded.seeded ? ' (demo data loaded)' : ''}`);
  app.log.info(
    `Chain: ${chain.embedded ? `embedded LiteSVM (${chain.cluster}), state in ${config.chain.embedded ? config.chain.stateDir : ''}` : `${chain.cluster} via ${config.chain.embedded ? '' : new URL(config.chain.rpcUrl).host}`}`,
  );
  if (config.seedDemoData && config.chain.embedded) {
    app.log.info(`Demo admin: username "${DEMO_ADMIN.username}", password "${DEMO_ADMIN.password}"`);
  }
}

main().catch((error) => {
  console.error(`DarePool failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
