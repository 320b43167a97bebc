/**
 * 'Refund me' (docs/decisions/025-entering-and-refund-me.md): a payer of a refunding or overdue dare takes their receipt back
 * from the dare's vault with their own wallet. The server builds the `refund` (the payer's wallet
 * is the fee payer; no DarePool key signs), relays exactly that message for that user, and has the
 * refund booked. The program alone decides whether a refund is due and where it goes.
 */

import { type Address, address, type Signature } from '@solana/kit';
import { JUDGING_MESSAGES } from '#contract/judging';
import { REFUND_ME_MESSAGES, type RefundStatus } from '#contract/refund-me';
import { fetchReceipt, fetchVault } from '#server/chain/escrow-program/accounts';
import { buildRefundTransaction } from '#server/chain/escrow-program/app-transactions';
import { fetchChainTime } from '#server/chain/escrow-program/chain-clock';
import { findReceiptAddress } from '#server/chain/escrow-program/pda';
import type { ChainPort } from '#server/chain/port';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { AppError, badRequest, conflict, notFound } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import { createPreparedTransactions, type RelayMessages } from '#server/prepared-transactions/prepared';
import { limit as hitLimit } from '#server/rate-limit/limit';
import type { RateLimit, RateLimiter } from '#server/rate-limit/port';
import { RATE_LIMITS } from '#server/rate-limits';
import { findDareVault } from './repo';

/**
 * Books a refund the chain made outside the server's own refund job: the money-out features
 * notice the vault's payments sent by others and book each once (wired in services.ts).
 */
export interface RefundBooking {
  bookOutsideRefunds(target: { escrowWallet: string; dareId: number }): Promise<void>;
}

export interface RefundMeDeps {
  db: Db;
  chain: ChainPort;
  clock: Clock;
  /** Both escrow programs (v1 null where the chain has none): a vault is refunded under whichever owns it. */
  escrowProgramId: Address | null;
  escrowProgramV2Id: Address;
  limiter: RateLimiter;
  booking: RefundBooking;
  /** Where a booking that failed is reported; the refunds job books it later anyway. */
  onBookingFailed?: (error: unknown) => void;
}

const RELAY_MESSAGES: RelayMessages = {
  unreadable: REFUND_ME_MESSAGES.unreadable,
  notPrepared: REFUND_ME_MESSAGES.notPrepared,
  notAsPrepared: REFUND_ME_MESSAGES.notAsPrepared,
  badSignature: REFUND_ME_MESSAGES.badSignature,
  expired: REFUND_ME_MESSAGES.expired,
  failed: REFUND_ME_MESSAGES.failed,
  unconfirmed: REFUND_ME_MESSAGES.unconfirmed,
  noFee: REFUND_ME_MESSAGES.noFee,
};

type Assessment =
  | { refundable: true; amount: bigint; reason: null }
  | { refundable: false; amount: bigint | null; reason: string };

export function createRefundMeService({
  db,
  chain,
  clock,
  escrowProgramId,
  escrowProgramV2Id,
  limiter,
  booking,
  onBookingFailed = () => {},
}: RefundMeDeps) {
  const { rpc } = chain;
  const programs = { v1: escrowProgramId, v2: escrowProgramV2Id };
  const prepared = createPreparedTransactions({ db, rpc, clock });

  const limit = (key: string, rule: RateLimit) =>
    hitLimit(limiter, key, rule, 'Too many refund requests; wait a minute');

  function walletOf(user: UserRow): Address {
    if (!user.walletAddress) throw badRequest(REFUND_ME_MESSAGES.noWallet);
    return address(user.walletAddress);
  }

  async function vaultOf(dareId: number): Promise<Address | null> {
    const dare = await findDareVault(db, dareId);
    if (!dare) throw notFound('Dare not found');
    return dare.escrowWallet ? address(dare.escrowWallet) : null;
  }

  /**
   * Whether `wallet` can be refunded from `vault` now, as the program would judge it: the vault
   * is refunding, or open past its refund_after (by the chain's clock, or the app's when an idle
   * chain has not moved its own yet), and the wallet has a receipt.
   */
  async function assess(vault: Address | null, wallet: Address): Promise<Assessment> {
    const found = vault && (await fetchVault(rpc, programs, vault));
    if (!vault || !found) return { refundable: false, amount: null, reason: REFUND_ME_MESSAGES.noVault };
    const at = (await findReceiptAddress(found.programId, vault, wallet)).address;
    const receipt = await fetchReceipt(rpc, found.programId, at);
    const amount = receipt?.amount ?? null;
    if (found.status === 'settled') return { refundable: false, amount, reason: REFUND_ME_MESSAGES.paidOut };
    // A winner is named: the program refuses refunds unless the guardian vetoes it.
    if (found.status === 'proposed')
      return { refundable: false, amount, reason: JUDGING_MESSAGES.proposalStanding };
    if (found.status === 'open') {
      const chainNow = await fetchChainTime(rpc);
      const appNow = BigInt(Math.floor(clock().getTime() / 1000));
      if ((chainNow > appNow ? chainNow : appNow) < found.refundAfter) {
        const when = new Date(Number(found.refundAfter) * 1000);
        return { refundable: false, amount, reason: REFUND_ME_MESSAGES.notDue(when) };
      }
    }
    if (amount === null) return { refundable: false, amount, reason: REFUND_ME_MESSAGES.nothingToRefund };
    return { refundable: true, amount, reason: null };
  }

  /** What the landed refund gave its payer (the fee payer): its balance change plus the fee. */
  async function refundedAmount(signature: Signature, payer: Address): Promise<bigint> {
    const landed = await rpc
      .getTransaction(signature, {
        commitment: 'confirmed',
        encoding: 'json',
        maxSupportedTransactionVersion: 0,
      })
      .send();
    const meta = landed?.meta;
    // The payer is the fee payer: the first account.
    const index = 0;
    if (!meta || landed.transaction.message.accountKeys[index] !== payer) return 0n;
    return BigInt(meta.postBalances[index]!) - BigInt(meta.preBalances[index]!) + BigInt(meta.fee);
  }

  /** Whose refund: a signed-in user's wallet, or a wallet with no account (userId null). */
  interface Payer {
    wallet: Address;
    userId: number | null;
    /** The rate-limit keys of this request: the user, or the address and the caller's IP. */
    limitKeys: string[];
  }
  const userPayer = (user: UserRow): Payer => ({
    wallet: walletOf(user),
    userId: user.id,
    limitKeys: [`user:${user.id}`],
  });
  /**
   * A wallet with no account names itself (decision 066): public addresses are free, so the IP is
   * limited too. Only the wallet's own signature can take the refund, and only to itself.
   */
  function walletPayer(text: string, ip: string): Payer {
    let wallet: Address;
    try {
      wallet = address(text);
    } catch {
      throw badRequest(REFUND_ME_MESSAGES.invalidWallet);
    }
    return { wallet, userId: null, limitKeys: [`wallet:${wallet}`, `ip:${ip}`] };
  }
  async function limitAll(prefix: string, payer: Payer, rule: RateLimit) {
    for (const key of payer.limitKeys) await limit(`${prefix}:${key}`, rule);
  }

  async function status(payer: Payer, dareId: number): Promise<RefundStatus> {
    await limitAll('refund-status', payer, RATE_LIMITS.transactionLookups);
    const assessed = await assess(await vaultOf(dareId), payer.wallet);
    return {
      refundable: assessed.refundable,
      amount: assessed.amount === null ? null : assessed.amount.toString(),
      reason: assessed.reason,
    };
  }

  async function transaction(payer: Payer, dareId: number) {
    const { wallet } = payer;
    await limitAll('refund', payer, RATE_LIMITS.walletTransactions);
    const vault = await vaultOf(dareId);
    const assessed = await assess(vault, wallet);
    if (!assessed.refundable || !vault) throw conflict(assessed.reason ?? REFUND_ME_MESSAGES.noVault);
    const row = await prepared.prepare(
      { kind: 'refund', vault, wallet, dareId, userId: payer.userId },
      async () => {
        const owner = await fetchVault(rpc, programs, vault);
        if (!owner) throw conflict(REFUND_ME_MESSAGES.noVault);
        return buildRefundTransaction(rpc, { programId: owner.programId, vault, payer: wallet });
      },
      async () => {
        const again = await assess(vault, wallet);
        if (!again.refundable) throw conflict(again.reason);
      },
    );
    return {
      transaction: row.wireTransaction,
      amount: assessed.amount.toString(),
      lastValidBlockHeight: row.lastValidBlockHeight.toString(),
    };
  }

  async function refund(payer: Payer, dareId: number, signedTransaction: string) {
    const { wallet } = payer;
    await limitAll('refund-relay', payer, RATE_LIMITS.relayedWalletTransactions);
    const vault = await vaultOf(dareId);
    if (!vault) throw conflict(REFUND_ME_MESSAGES.noVault);
    const signature = await prepared.relay(
      { kind: 'refund', vault, wallet, userId: payer.userId },
      signedTransaction,
      RELAY_MESSAGES,
    );
    try {
      await booking.bookOutsideRefunds({ escrowWallet: vault, dareId });
    } catch (error) {
      // The refund is on chain whatever the books say; the refunds job notices it again.
      onBookingFailed(error);
    }
    const amount = await refundedAmount(signature, wallet);
    if (amount <= 0n)
      throw new AppError('TRANSACTION_FAILED', REFUND_ME_MESSAGES.failed('nothing was refunded'));
    return { signature, amount: amount.toString() };
  }

  return {
    status: (user: UserRow, dareId: number) => status(userPayer(user), dareId),
    /** POST /api/dares/{id}/refund-transaction: the caller's `refund`, for their wallet to sign and pay. */
    transaction: (user: UserRow, dareId: number) => transaction(userPayer(user), dareId),
    /**
     * POST /api/dares/{id}/refund: relays the caller's signed refund (only the one prepared for
     * them, signed by their wallet; the server adds nothing), waits for it, then books it.
     */
    refund: (user: UserRow, dareId: number, signedTransaction: string) =>
      refund(userPayer(user), dareId, signedTransaction),

    /** The same three for a wallet with no account, named in the path (no sign-in). */
    walletStatus: (wallet: string, ip: string, dareId: number) => status(walletPayer(wallet, ip), dareId),
    walletTransaction: (wallet: string, ip: string, dareId: number) =>
      transaction(walletPayer(wallet, ip), dareId),
    walletRefund: (wallet: string, ip: string, dareId: number, signedTransaction: string) =>
      refund(walletPayer(wallet, ip), dareId, signedTransaction),
  };
}

export type RefundMeService = ReturnType<typeof createRefundMeService>;
