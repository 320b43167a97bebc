/**
 * Entering a dare on chain: the escrow program pays only wallets that signed `enter` for the
 * dare's vault (docs/program.md), so a proof is recorded only once its author's entry exists.
 * The entrant's wallet pays the entry's fee and rent, returned to it when the dare ends, and no
 * DarePool key signs it (docs/decisions/034-entrants-pay-their-entry.md): a free account that
 * broadcasts it costs the platform nothing. It goes only to a signed-in user with a registered
 * wallet who has not entered, on an active dare whose vault is open and before its deadline,
 * whose wallet can pay it; never two that could both land (025).
 */
import { type Address, address, type Signature } from '@solana/kit';
import { lamportsToSol } from '#contract/money';
import { entryCostLabel, SUBMISSION_MESSAGES } from '#contract/submissions';
import { fetchEntry, fetchVault } from '#server/chain/escrow-program/accounts';
import { buildEnterTransaction } from '#server/chain/escrow-program/app-transactions';
import { fetchChainTime } from '#server/chain/escrow-program/chain-clock';
import { createEntryCost, entryShortfall } from '#server/chain/escrow-program/entry-cost';
import { findEntryAddress } from '#server/chain/escrow-program/pda';
import type { ChainPort } from '#server/chain/port';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { AppError, badRequest, conflict } from '#server/errors';
import {
  createPreparedTransactions,
  type RelayMessages,
} from '#server/features/prepared-transactions/service';
import { type RateLimiter, tooManyRequests } from '#server/rate-limit/port';
import { RATE_LIMITS } from '#server/rate-limits';

export interface EntriesDeps {
  db: Db;
  chain: ChainPort;
  clock: Clock;
  escrowProgramId: Address;
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

export function createEntries({ db, chain, clock, escrowProgramId, limiter }: EntriesDeps) {
  const { rpc } = chain;
  const prepared = createPreparedTransactions({ db, rpc, clock });
  const entryCost = createEntryCost(rpc);

  /** Refuses before building when the wallet cannot pay: a send would only fail at preflight. */
  async function requireAffordable(wallet: Address) {
    const [cost, { value: balance }] = await Promise.all([
      entryCost(),
      rpc.getBalance(wallet, { commitment: 'confirmed' }).send(),
    ]);
    const need = entryShortfall(cost, balance);
    if (need !== null)
      throw badRequest(SUBMISSION_MESSAGES.entryUnaffordable(solLabel(need), lamportsToSol(balance)), {
        needLamports: need.toString(),
      });
  }

  async function limit(key: string, rule: (typeof RATE_LIMITS)[keyof typeof RATE_LIMITS]) {
    const verdict = await limiter.hit(key, rule);
    if (!verdict.allowed)
      throw tooManyRequests('Too many entry requests; wait a minute', verdict.retryAfterSeconds);
  }

  function vaultOf(dare: EnterableDare): Address {
    if (!dare.escrowWallet) throw conflict(SUBMISSION_MESSAGES.noVault);
    return address(dare.escrowWallet);
  }

  /** The caller's entry account, and whether the program holds it for this vault and wallet. */
  async function entryOf(vault: Address, wallet: Address) {
    const at = (await findEntryAddress(escrowProgramId, vault, wallet)).address;
    const entry = await fetchEntry(rpc, escrowProgramId, at);
    return { address: at, exists: entry !== null && entry.vault === vault && entry.entrant === wallet };
  }

  /**
   * The vault takes entries: it exists, is open, and its deadline is ahead by the chain's clock
   * (what the program checks) and by the app's: an entry that would fail still costs its fee.
   */
  async function requireOpenVault(vault: Address) {
    const [found, chainNow] = await Promise.all([
      fetchVault(rpc, escrowProgramId, vault),
      fetchChainTime(rpc),
    ]);
    if (!found) throw conflict(SUBMISSION_MESSAGES.noVault);
    const appNow = BigInt(Math.floor(clock().getTime() / 1000));
    const now = chainNow > appNow ? chainNow : appNow;
    if (found.status !== 'open' || now >= found.deadline)
      throw conflict(SUBMISSION_MESSAGES.submissionsClosed);
  }

  return {
    /**
     * POST /api/dares/{id}/enter-transaction: the caller's `enter`, paid and signed by their
     * wallet only. The dare was checked active by the caller; `wallet` is the caller's registered
     * wallet.
     */
    async transaction(user: { id: number }, wallet: string, dare: EnterableDare) {
      await limit(`enter:${user.id}`, RATE_LIMITS.walletTransactions);
      const vault = vaultOf(dare);
      const entrant = address(wallet);
      const entry = await entryOf(vault, entrant);
      if (entry.exists) throw conflict(SUBMISSION_MESSAGES.alreadyEntered);
      await requireOpenVault(vault);
      await requireAffordable(entrant);
      const row = await prepared.prepare(
        { kind: 'enter', vault, wallet: entrant, dareId: dare.id, userId: user.id },
        () => buildEnterTransaction(rpc, { programId: escrowProgramId, vault, entrant }),
        // The previous one can no longer land: if the wallet entered, it was with that one.
        async () => {
          if ((await entryOf(vault, entrant)).exists) throw conflict(SUBMISSION_MESSAGES.alreadyEntered);
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
     * will do (400 'Sign your entry to submit').
     */
    async ensureEntered(
      user: { id: number },
      wallet: string,
      dare: EnterableDare,
      signedEntryTransaction: string | undefined,
    ): Promise<Signature | null> {
      const vault = vaultOf(dare);
      const entrant = address(wallet);
      if ((await entryOf(vault, entrant)).exists) return null;
      if (signedEntryTransaction === undefined) throw badRequest(SUBMISSION_MESSAGES.signEntry);
      await limit(`enter-relay:${user.id}`, RATE_LIMITS.relayedWalletTransactions);
      const signature = await prepared.relay(
        { kind: 'enter', vault, wallet: entrant, userId: user.id },
        signedEntryTransaction,
        {
          ...RELAY_MESSAGES,
          noFee: SUBMISSION_MESSAGES.entryUnaffordable(solLabel((await entryCost()).total)),
        },
      );
      if (!(await entryOf(vault, entrant)).exists)
        throw new AppError('TRANSACTION_FAILED', SUBMISSION_MESSAGES.entryFailed('no entry was made'));
      return signature;
    },
  };
}

export type Entries = ReturnType<typeof createEntries>;
