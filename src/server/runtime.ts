import { mkdirSync } from 'node:fs';
import { createChain } from './chain';
import { createEscrowKeys, type EscrowKeys } from './chain/escrow-keys';
import { loadMasterSeed } from './chain/master-seed';
import type { ChainPort } from './chain/port';
import type { AppConfig } from './config';
import { lockDataDir } from './data-dir-lock';
import type { Database } from './db/client';
import { openConfiguredDatabase } from './db/open';

export interface Runtime {
  database: Database;
  chain: ChainPort;
  escrowKeys: EscrowKeys;
  close(): Promise<void>;
}

/**
 * The adapters the configuration names: database, chain and escrow keys. Shared by the server and
 * the maintenance scripts, so `npm run reconcile` reads exactly what the server writes.
 */
export async function openRuntime(
  config: AppConfig,
  options: {
    /** Only the server serves the embedded chain to wallets; maintenance scripts must not take its port. */
    serveChainRpc?: boolean;
  } = {},
): Promise<Runtime> {
  mkdirSync(config.dataDir, { recursive: true });
  const unlock = config.database.embedded || config.chain.embedded ? lockDataDir(config.dataDir) : () => {};
  let database: Database;
  try {
    database = await openConfiguredDatabase(config);
  } catch (error) {
    unlock();
    throw error;
  }
  try {
    // Loaded at start so a missing or corrupt seed stops start-up, not the first payout.
    const escrowKeys = createEscrowKeys(
      loadMasterSeed({
        seedHex: config.escrowMasterSeedHex,
        dataDir: config.dataDir,
        embedded: config.chain.embedded,
      }),
    );
    const chain = await createChain(
      config.chain.embedded
        ? {
            stateDir: config.chain.stateDir,
            rpcServer: options.serveChainRpc ? config.chain.rpcServer : null,
          }
        : { rpcUrl: config.chain.rpcUrl, cluster: config.chain.cluster, stateDir: null },
    );
    return {
      database,
      chain,
      escrowKeys,
      async close() {
        try {
          await chain.close();
          await database.close();
        } finally {
          unlock();
        }
      },
    };
  } catch (error) {
    await database.close();
    unlock();
    throw error;
  }
}
