import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Address } from '@solana/kit';
import { createChain } from './chain';
import { createEscrowKeys, type EscrowKeys } from './chain/escrow-keys';
import { ensureProgramDeployed } from './chain/escrow-program/deploy';
import { readEscrowProgram } from './chain/escrow-program/program';
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
  /** The escrow program on the embedded chain, deployed at start; null on a real cluster. */
  escrowProgram: { programId: Address; action: 'deployed' | 'upgraded' | 'unchanged' } | null;
  close(): Promise<void>;
}

/** Enough test SOL for the program's rent (about 4x its size, so a rebuilt one can replace it) and fees. */
const DEPLOY_FUNDING_LAMPORTS = 2_000_000_000n;

/**
 * The embedded chain runs the committed escrow program, deployed through the real upgradeable
 * loader (its ELF checks and verifier included) at a program id kept beside the chain state: the
 * first start deploys it, a rebuilt program is upgraded in place, otherwise nothing is sent. The
 * platform fee payer, funded with test SOL, is its upgrade authority here.
 */
async function deployEscrowProgram(chain: ChainPort, escrowKeys: EscrowKeys, stateDir: string) {
  const authority = await escrowKeys.feePayer();
  const { value: balance } = await chain.rpc
    .getBalance(authority.address, { commitment: 'confirmed' })
    .send();
  if (balance < DEPLOY_FUNDING_LAMPORTS) await chain.airdrop(authority.address, DEPLOY_FUNDING_LAMPORTS);
  return ensureProgramDeployed({
    rpc: chain.rpc,
    authority,
    keypairFile: path.join(stateDir, 'escrow-program-keypair.json'),
    bytes: readEscrowProgram(),
  });
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
    let escrowProgram: Runtime['escrowProgram'] = null;
    try {
      if (config.chain.embedded)
        escrowProgram = await deployEscrowProgram(chain, escrowKeys, config.chain.stateDir);
    } catch (error) {
      await chain.close();
      throw error;
    }
    return {
      database,
      chain,
      escrowKeys,
      escrowProgram,
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
