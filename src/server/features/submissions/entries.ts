/**
 * Entering a dare on chain: the escrow program pays only wallets that signed `enter` for the
 * dare's vault (docs/program.md), so a proof is recorded only once its author's entry exists.
 * The entrant's wallet pays the entry's fee and rent, returned to it when the dare ends, and no
 * DarePool key signs it (docs/decisions/034-entrants-pay-their-entry.md): a free account that
 * broadcasts it costs the platform nothing. It goes only to a signed-in user with a registered
 * wallet who has not entered, on an active dare whose vault is open and before its deadline,
 * whose wallet can pay it; never two that could both land (025). The vault's owner on chain says
 * which program's `enter` it is: a v2 entry carries the proof's fingerprint, and a proof is
 * recorded only with the fingerprint its entry holds (docs/decisions/038-proof-fingerprints.md).
 */
import { type Address, address, type Signature } from '@solana/kit';
import { lamportsToSol } from '#contract/money';
import { entryCostLabel, SUBMISSION_MESSAGES } from '#contract/submissions';
import type { EscrowKeys } from '#server/chain/escrow-keys';
import { fetchEntry, fetchVault, type Owned } from '#server/chain/escrow-program/accounts';
import type { AnyVault } from '#server/chain/escrow-program/any-program';
import { fetchChainTime } from '#server/chain/escrow-program/chain-clock';
import { createEntryCost, entryShortfall } from '#server/chain/escrow-program/entry-cost';
import { findEntryAddress } from '#server/chain/escrow-program/pda';
import { buildEnterV2Transaction } from '#server/chain/escrow-program/v2/enter-transaction';
import { ENTRY_V2_SIZE } from '#server/chain/escrow-program/v2/layout';
import type { ChainPort } from '#server/chain/port';

/** A vault of either program, as read from the chain with its owner. */
type VaultOnChain = Owned<AnyVault>;

import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { AppError, badRequest, conflict } from '#server/errors';
import { createOurVaults } from '#server/features/payments/intents/our-vault';
import type { Judging } from '#server/judging-keys';
import { createPreparedTransactions, type RelayMessages } from '#server/prepared-transactions/prepared';
import { limit as hitLimit } from '#server/rate-limit/limit';
import type { RateLimit, RateLimiter } from '#server/rate-limit/port';
import { RATE_LIMITS } from '#server/rate-limits';
import { proofHashBytes, proofHashHex } from './proof-hash';

export interface EntriesDeps {
  db: Db;
  chain: ChainPort;
  clock: Clock;
  /** Escrow v1's program id; null where the chain has no v1 vault (decision 081). */
  escrowProgramId: Address | null;
  /** Escrow v2's program id: a vault owned by any program but these two is refused. */
  escrowProgramV2Id: Address;
  /** With the judging configuration: whose terms a vault of ours carries (decision 048). */
  escrowKeys: EscrowKeys;
  judging: Judging;
  limiter: RateLimiter;
}

/** The dare as entering needs it: its vault is `escrowWallet` (docs/decisions/021). */
export interface EnterableDare {
  id: number;
  escrowWallet: string | null;
}

const RELAY_MESSAGES: Omit<RelayMessages, 'noFee'> = {
  unreadable: SUBMISSION_MESSAGES.entryUnreadable,
  notPrepared: SUBMISSION_MESSAGES.entryNotPrepared,
  notAsPrepared: SUBMISSION_MESSAGES.entryNotAsPrepared,
  badSignature: SUBMISSION_MESSAGES.entryBadSignature,
  expired: SUBMISSION_MESSAGES.entryExpired,
  failed: SUBMISSION_MESSAGES.entryFailed,
  unconfirmed: SUBMISSION_MESSAGES.entryUnconfirmed,
};

const solLabel = (lamports: bigint) => entryCostLabel(lamportsToSol(lamports));

export function createEntries({
  db,
  chain,
  clock,
  escrowProgramId,
  escrowProgramV2Id,
  escrowKeys,
  judging,
  limiter,
}: EntriesDeps) {
  const { rpc } = chain;
  const prepared = createPreparedTransactions({ db, rpc, clock });
  // A v2 entry is bigger (it holds the proof's hash): its rent is too.
  const entryCosts = { 1: createEntryCost(rpc), 2: createEntryCost(rpc, ENTRY_V2_SIZE) } as const;
  const programs = { v1: escrowProgramId, v2: escrowProgramV2Id };
  const ourVaults = createOurVaults({ db, rpc, programs, escrowKeys, judging, clock });

  /** Refuses before building when the wallet cannot pay: a send would only fail at preflight. */
  async function requireAffordable(wallet: Address, version: 1 | 2) {
    const [cost, { value: balance }] = await Promise.all([
      entryCosts[version](),
      rpc.getBalance(wallet, { commitment: 'confirmed' }).send(),
    ]);
    const need = entryShortfall(cost, balance);
    if (need !== null)
      throw badRequest(SUBMISSION_MESSAGES.entryUnaffordable(solLabel(need), lamportsToSol(balance)), {
        needLamports: need.toString(),
      });
  }

  const limit = (key: string, rule: RateLimit) =>
    hitLimit(limiter, key, rule, 'Too many entry requests; wait a minute');

  function vaultOf(dare: EnterableDare): Address {
    if (!dare.escrowWallet) throw conflict(SUBMISSION_MESSAGES.noVault);
    return address(dare.escrowWallet);
  }

  /** The vault and the program that holds it; 409 when there is none to enter. */
  async function vaultOnChain(vault: Address): Promise<VaultOnChain> {
    const found = await fetchVault(rpc, programs, vault);
    if (!found) throw conflict(SUBMISSION_MESSAGES.noVault);
    return found;
  }

  /**
   * The dare's vault as an entry may go into it: ours in every term (an entry pays rent beside a
   * vault, and a foreign vault's judges pay whom they like), never one of v1 (retired: it takes no
   * new SOL). 409 saying why.
   */
  async function ourVaultOf(dare: EnterableDare): Promise<VaultOnChain> {
    const vault = await ourVaults.requireOursFor({ id: dare.id, escrowWallet: vaultOf(dare) });
    if (!vault) throw conflict(SUBMISSION_MESSAGES.noVault);
    return vault;
  }

  /**
   * The caller's entry account under the vault's program, whether it exists for this vault and
   * wallet, and the proof fingerprint it holds (hex; null for v1, which holds none).
   */
  async function entryOf(vault: Address, program: VaultOnChain, wallet: Address) {
    const at = (await findEntryAddress(program.programId, vault, wallet)).address;
    const entry = await fetchEntry(rpc, program.programId, at);
    const exists = entry !== null && entry.vault === vault && entry.entrant === wallet;
    const proofHash = exists && entry.proofHash ? proofHashHex(new Uint8Array(entry.proofHash)) : null;
    return { address: at, exists, proofHash };
  }

  /**
   * The vault takes entries: it is open, and its deadline is ahead by the chain's clock (what the
   * program checks) and by the app's: an entry that would fail still costs its fee.
   */
  async function requireOpenVault(found: VaultOnChain) {
    const chainNow = await fetchChainTime(rpc);
    const appNow = BigInt(Math.floor(clock().getTime() / 1000));
    const now = chainNow > appNow ? chainNow : appNow;
    if (found.status !== 'open' || now >= found.deadline)
      throw conflict(SUBMISSION_MESSAGES.submissionsClosed);
  }

  /** A v2 entry holds its proof for good: the one submitted must be the one entered. */
  function requireSameProof(entered: string | null, proofHash: string) {
    if (entered !== null && entered !== proofHash)
      throw badRequest(SUBMISSION_MESSAGES.entrySignedForOtherVideo, {
        fields: { videoUrl: SUBMISSION_MESSAGES.entrySignedForOtherVideo },
      });
  }

  return {
    /**
     * POST /api/dares/{id}/enter-transaction: the caller's `enter`, paid and signed by their
     * wallet only; on a v2 vault it carries `proofHash`, the fingerprint of the proof the caller
     * will submit (the caller checked the proof is theirs to submit). The dare was checked active
     * by the caller; `wallet` is the caller's registered wallet.
     */
    async transaction(user: { id: number }, wallet: string, dare: EnterableDare, proofHash: string) {
      await limit(`enter:${user.id}`, RATE_LIMITS.walletTransactions);
      const vault = vaultOf(dare);
      const entrant = address(wallet);
      const program = await ourVaultOf(dare);
      const entry = await entryOf(vault, program, entrant);
      if (entry.exists) throw conflict(SUBMISSION_MESSAGES.alreadyEntered);
      await requireOpenVault(program);
      await requireAffordable(entrant, program.version);
      // v1's entry holds no fingerprint: the same transaction serves any video.
      const carried = program.version === 2 ? proofHash : null;
      const row = await prepared.prepare(
        { kind: 'enter', vault, wallet: entrant, dareId: dare.id, userId: user.id, proofHash: carried },
        // ourVaultOf refuses a v1 vault: only v2's take entries.
        () =>
          buildEnterV2Transaction(rpc, {
            programId: program.programId,
            vault,
            entrant,
            proofHash: proofHashBytes(proofHash),
          }),
        // The previous one can no longer land: if the wallet entered, it was with that one.
        async () => {
          if ((await entryOf(vault, program, entrant)).exists)
            throw conflict(SUBMISSION_MESSAGES.alreadyEntered);
        },
      );
      return {
        transaction: row.wireTransaction,
        entry: entry.address,
        lastValidBlockHeight: row.lastValidBlockHeight.toString(),
      };
    },

    /**
     * Makes sure the caller's entry exists before their proof is recorded: relays their signed
     * entry when they send one and it is not on chain yet. Without one, only an existing entry
     * will do (400 'Sign your entry to submit'). On a v2 vault the entry must hold `proofHash`,
     * checked before relaying and on chain after. Answers the fingerprint the entry holds (null
     * for a v1 entry) and the relayed signature, if any.
     */
    async ensureEntered(
      user: { id: number },
      wallet: string,
      dare: EnterableDare,
      signedEntryTransaction: string | undefined,
      proofHash: string,
    ): Promise<{ signature: Signature | null; proofHash: string | null }> {
      const vault = vaultOf(dare);
      const entrant = address(wallet);
      const program = await vaultOnChain(vault);
      const before = await entryOf(vault, program, entrant);
      if (before.exists) {
        requireSameProof(before.proofHash, proofHash);
        return { signature: null, proofHash: before.proofHash };
      }
      if (signedEntryTransaction === undefined) throw badRequest(SUBMISSION_MESSAGES.signEntry);
      await limit(`enter-relay:${user.id}`, RATE_LIMITS.relayedWalletTransactions);
      await ourVaultOf(dare);
      const signature = await prepared.relay(
        {
          kind: 'enter',
          vault,
          wallet: entrant,
          userId: user.id,
          ...(program.version === 2 ? { proofHash } : {}),
        },
        signedEntryTransaction,
        {
          ...RELAY_MESSAGES,
          noFee: SUBMISSION_MESSAGES.entryUnaffordable(solLabel((await entryCosts[program.version]()).total)),
          otherProof: SUBMISSION_MESSAGES.entryForOtherVideo,
        },
      );
      const after = await entryOf(vault, program, entrant);
      if (!after.exists)
        throw new AppError('TRANSACTION_FAILED', SUBMISSION_MESSAGES.entryFailed('no entry was made'));
      requireSameProof(after.proofHash, proofHash);
      return { signature, proofHash: after.proofHash };
    },
  };
}

export type Entries = ReturnType<typeof createEntries>;
