import { createHash } from 'node:crypto';
import { type Address, getAddressDecoder } from '@solana/kit';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from './account-parsers';
import type { EmbeddedLedger } from './embedded-ledger';
import { epochOf } from './epochs';
import { configParam, invalidParams, u64Param } from './json-rpc';

type Methods = Record<string, (params: readonly unknown[]) => unknown>;

/** A fixed identity for the one "validator" here, as a test validator has one. */
export const EMBEDDED_IDENTITY = getAddressDecoder().decode(
  createHash('sha256').update('DarePool embedded validator identity').digest(),
);
const SAMPLE_SECONDS = 60;
const SLOTS_PER_SAMPLE = (SAMPLE_SECONDS * 1000) / 400;
const MAX_PERFORMANCE_SAMPLES = 720;
const LARGEST_ACCOUNTS = 20;
// Owners whose accounts hold the SOL that moves here; LiteSVM cannot list every account at once.
const SUPPLY_OWNERS = [
  '11111111111111111111111111111111',
  TOKEN_PROGRAM,
  TOKEN_2022_PROGRAM,
  'BPFLoaderUpgradeab1e11111111111111111111111',
] as Address[];

/**
 * What wallets and explorers ask about the cluster. One node, no votes, no inflation: answered as
 * a single-node localnet would be, with the differences written in decision 031.
 */
export function clusterMethods(ledger: EmbeddedLedger): Methods {
  const context = () => ({ slot: BigInt(ledger.currentSlot) });

  function circulatingAccounts() {
    return SUPPLY_OWNERS.flatMap((owner) => ledger.programAccounts(owner));
  }

  return {
    getIdentity: () => ({ identity: EMBEDDED_IDENTITY }),
    getSlotLeader: () => EMBEDDED_IDENTITY,
    getSlotLeaders: (params) => {
      const limit = Number(params[1] ?? 0);
      if (!Number.isInteger(limit) || limit < 1 || limit > 5000) throw invalidParams('limit must be 1..5000');
      return Array.from({ length: limit }, () => EMBEDDED_IDENTITY);
    },
    // One node leads every slot: each slot index of the epoch is ours, as a one-node cluster says.
    getLeaderSchedule: (params) => {
      const slotGiven = params[0] !== undefined && params[0] !== null && typeof params[0] !== 'object';
      const config = configParam(params, slotGiven || params[0] === null ? 1 : 0);
      const slot = slotGiven ? u64Param(params[0], 'slot') : BigInt(ledger.currentSlot);
      const schedule = ledger.epochSchedule();
      const { epoch, slotsInEpoch } = epochOf(schedule, slot);
      // Like agave: known up to the leader-schedule epoch (the next one), null beyond it.
      if (epoch > epochOf(schedule, BigInt(ledger.currentSlot)).epoch + 1n) return null;
      const identity = config.identity;
      if (identity !== undefined && typeof identity !== 'string')
        throw invalidParams('identity must be a string');
      if (identity !== undefined && identity !== EMBEDDED_IDENTITY) return {};
      return { [EMBEDDED_IDENTITY]: Array.from({ length: Number(slotsInEpoch) }, (_, index) => index) };
    },
    getClusterNodes: () => [
      {
        pubkey: EMBEDDED_IDENTITY,
        gossip: null,
        tpu: null,
        tpuQuic: null,
        rpc: null,
        pubsub: null,
        version: null,
        featureSet: null,
        shredVersion: 0,
      },
    ],
    // No vote program runs here: nothing votes, so both lists are empty.
    getVoteAccounts: () => ({ current: [], delinquent: [] }),
    getInflationRate: () => ({
      total: 0,
      validator: 0,
      foundation: 0,
      epoch: ledger.epochOf(ledger.currentSlot),
    }),
    getInflationGovernor: () => ({
      initial: 0,
      terminal: 0,
      taper: 0,
      foundation: 0,
      foundationTerm: 0,
    }),
    getRecentPerformanceSamples: (params) => {
      const limit = params[0] === undefined ? MAX_PERFORMANCE_SAMPLES : Number(params[0]);
      if (!Number.isInteger(limit) || limit < 0 || limit > MAX_PERFORMANCE_SAMPLES) {
        throw invalidParams(`limit must be at most ${MAX_PERFORMANCE_SAMPLES}`);
      }
      const current = ledger.currentSlot;
      const samples = [];
      for (let index = 0; index < limit; index += 1) {
        const end = current - index * SLOTS_PER_SAMPLE;
        if (end <= ledger.firstSlot) break;
        const count = ledger.slotsWithTransactions(end - SLOTS_PER_SAMPLE + 1, end, SLOTS_PER_SAMPLE).length;
        samples.push({
          slot: BigInt(end),
          numSlots: BigInt(SLOTS_PER_SAMPLE),
          numTransactions: BigInt(count),
          numNonVoteTransactions: BigInt(count),
          samplePeriodSecs: SAMPLE_SECONDS,
        });
      }
      return samples;
    },
    getSupply: (params) => {
      const config = configParam(params, 0);
      const total = circulatingAccounts().reduce((sum, account) => sum + account.lamports, 0n);
      return {
        context: context(),
        value: {
          total,
          circulating: total,
          nonCirculating: 0n,
          nonCirculatingAccounts: config.excludeNonCirculatingAccountsList === true ? [] : [],
        },
      };
    },
    getLargestAccounts: (params) => {
      const config = configParam(params, 0);
      if (
        config.filter !== undefined &&
        config.filter !== 'circulating' &&
        config.filter !== 'nonCirculating'
      ) {
        throw invalidParams('filter must be circulating or nonCirculating');
      }
      const accounts = config.filter === 'nonCirculating' ? [] : circulatingAccounts();
      const value = accounts
        .sort((a, b) => (b.lamports > a.lamports ? 1 : b.lamports < a.lamports ? -1 : 0))
        .slice(0, LARGEST_ACCOUNTS)
        .map((account) => ({ address: account.address, lamports: account.lamports }));
      return { context: context(), value };
    },
  };
}
