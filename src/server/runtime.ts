import { mkdirSync } from 'node:fs';
import type { Address } from '@solana/kit';
import { createChain } from './chain';
import { configurePriorityFees } from './chain/compute-budget';
import { createEscrowKeys, type EscrowKeys } from './chain/escrow-keys';
import {
  deployEscrowProgramsOnEmbeddedChain,
  escrowProgramRequirement,
  escrowProgramV2Requirement,
  type RequiredProgram,
  requireDeployedProgram,
} from './chain/escrow-program/app-program';
import { fundGuardianOnEmbeddedChain } from './chain/guardian-funds';
import { liteSvm } from './chain/litesvm-native';
import { loadMasterSeed } from './chain/master-seed';
import type { ChainPort } from './chain/port';
import { requireSameChain } from './chain-identity';
import type { AppConfig } from './config';
import { lockDataDir } from './data-dir-lock';
import type { Database } from './db/client';
import { openConfiguredDatabase } from './db/open';
import { checkUpgradeAuthority, type Judging, resolveJudging } from './judging-keys';

/** An escrow program the app runs; `action` says what the start did about it. */
export interface RuntimeProgram {
  programId: Address;
  action: 'deployed' | 'upgraded' | 'unchanged' | 'checked';
  /** On a cluster: one line saying who, if anyone, can replace the program's code. */
  notice?: string;
}

export interface Runtime {
  database: Database;
  chain: ChainPort;
  escrowKeys: EscrowKeys;
  /**
   * Escrow program v1, which holds the vaults made before v2: null where the chain never had one
   * (a new data folder; a cluster without ESCROW_PROGRAM_ID), decision 081.
   */
  escrowProgram: RuntimeProgram | null;
  /** Escrow program v2, which holds every new vault (judges, guardian, payout window). */
  escrowProgramV2: RuntimeProgram;
  /** Who names winners of new vaults and who may veto (never a key of the server's). */
  judging: Judging;
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
    /**
     * The embedded chain's clock (default the machine's): a new demo's history begins a payout
     * window ago (src/server/chain/embedded/lagging-clock.ts); a test that starts on a kept data
     * folder runs it from when the folder was made (test/legacy-data-folder.test.ts).
     */
    chainClock?: () => Date;
    /** Called as each phase of the opening ends, with its name (the start's timings). */
    onPhase?: (name: string) => void;
  } = {},
): Promise<Runtime> {
  // Before anything is created: where LiteSVM has no binary, the start stops at once with one line.
  if (config.chain.embedded) liteSvm();
  mkdirSync(config.dataDir, { recursive: true });
  const unlock = config.database.embedded || config.chain.embedded ? lockDataDir(config.dataDir) : () => {};
  const phase = options.onPhase ?? (() => {});
  let database: Database;
  try {
    database = await openConfiguredDatabase(config);
    phase('database and migrations');
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
            testControls: config.chain.testControls,
            clock: options.chainClock,
          }
        : {
            rpcUrl: config.chain.rpcUrl,
            cluster: config.chain.cluster,
            stateDir: null,
            maxRequestsPerSecond: config.chain.maxRequestsPerSecond,
            wsUrl: config.chain.wsUrl,
          },
    );
    configurePriorityFees(chain.rpc, config.priorityFees);
    phase('chain');
    let escrowProgram: Runtime['escrowProgram'];
    let escrowProgramV2: RuntimeProgram;
    let judging: Judging;
    try {
      judging = await resolveJudging(config, escrowKeys);
      checkUpgradeAuthority(config, escrowKeys);
      if (config.chain.embedded) {
        ({ v1: escrowProgram, v2: escrowProgramV2 } = await deployEscrowProgramsOnEmbeddedChain(
          chain,
          escrowKeys,
          config.chain.stateDir,
        ));
        phase(escrowProgram ? 'escrow program deploys (v1, v2)' : 'escrow program deploy (v2)');
        // Its first veto must not fail for want of a fee (the embedded guardian's key is new).
        await fundGuardianOnEmbeddedChain(chain, judging.guardian);
        phase('guardian funding');
      } else {
        // Only an operator whose cluster has v1 vaults names v1 (decision 081).
        const v1Id = config.chain.escrowProgramId;
        escrowProgram =
          v1Id === null ? null : await checkOnCluster(chain, config.chain, escrowProgramRequirement(v1Id));
        escrowProgramV2 = await checkOnCluster(
          chain,
          config.chain,
          escrowProgramV2Requirement(config.chain.escrowProgramV2Id),
        );
        phase('escrow program checks');
      }
      await requireSameChain(database.db, chain, escrowKeys, {
        v1: escrowProgram?.programId ?? null,
        v2: escrowProgramV2.programId,
      });
      phase('chain identity check');
    } catch (error) {
      await chain.close();
      throw error;
    }
    return {
      database,
      chain,
      escrowKeys,
      escrowProgram,
      escrowProgramV2,
      judging,
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

async function checkOnCluster(
  chain: ChainPort,
  settings: Extract<AppConfig['chain'], { embedded: false }>,
  program: RequiredProgram,
): Promise<RuntimeProgram> {
  const { programId, notice } = await requireDeployedProgram(
    chain,
    program,
    settings.acceptedUpgradeAuthority,
  );
  return { programId, action: 'checked', notice };
}
