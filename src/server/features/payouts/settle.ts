import type { Address } from '@solana/kit';
import { REPUTATION } from '#contract/limits';
import { lamportsToSol } from '#contract/money';
import { majorShares, type VaultTransactionEffects } from '#server/chain/payout-transactions';
import type { Tx } from '#server/db/client';
import { notifyMoneyOut } from '#server/features/notifications/emit';
import { appendLedgerEntry, ledgerBalanceOf, ledgerBalanceOfPayer } from '#server/ledger/entries';
import {
  creditWinner,
  findClaimsPaidBy,
  isBookedOut,
  lockEscrow,
  markClaimPaid,
  markPayerRefunded,
  type PayoutTransferRow,
  releaseClaimsOf,
  setTransferMoved,
  subtractFromEscrowBalance,
} from './repo';

/** One payment out of a vault as the ledger booked it. */
export interface BookedPayment {
  kind: 'payout' | 'refund';
  signature: string;
  wallet: string;
  lamports: bigint;
}

export interface OutLine {
  kind: 'payout' | 'refund';
  wallet: Address;
  lamports: bigint;
  claimId: number | null;
  userId: number | null;
}

/**
 * Books what a landed program transaction paid out of a vault, from what the program moved
 * (`effects`, decision 037), exactly once per transaction (the vault's row is locked, and a
 * transaction already booked is skipped): a `refund` line per payer refunded, a `payout` line per
 * winner. Nothing is read from the payers' or winners' balances, so transfers sent alongside (to
 * the same wallets, from them) book nothing: what left the vault (`vaultOut`) is what is booked.
 * The program pays out everything the vault holds above its rent with the settle or the last
 * refund, lamports a stranger sent it included: what leaves beyond the books is booked first as a
 * `surplus` line coming in, so the vault's books never go below zero and end at exactly zero.
 * The claims a settle pays become paid (their winners credited); the contributions and held
 * payments of each refunded payer become refunded. Returns what was booked (empty when the
 * transaction moved nothing out, or was booked before).
 */
export async function bookVaultTransaction(
  tx: Tx,
  input: {
    effects: VaultTransactionEffects;
    escrowWallet: string;
    dareId: number | null;
    transfer?: PayoutTransferRow;
    now: Date;
  },
): Promise<BookedPayment[]> {
  const { effects, escrowWallet, dareId, now } = input;
  await lockEscrow(tx, escrowWallet);
  if (effects.failed || (await isBookedOut(tx, effects.signature, escrowWallet))) return [];
  const lines: OutLine[] = [];
  let left = effects.vaultOut;
  const payers = [...new Set(effects.refunds.map((refund) => refund.payer))];
  for (const [index, payer] of payers.entries()) {
    // Each refund pays its receipt's amount; the last one the program runs also carries whatever
    // else the vault held above its rent, so it takes what is left of what the vault paid out.
    const receipt = await ledgerBalanceOfPayer(tx, escrowWallet, payer);
    const takesTheRest = index === payers.length - 1 && !effects.settle;
    const lamports = takesTheRest || left < receipt ? left : receipt;
    left -= lamports;
    const userId = await markPayerRefunded(tx, {
      dareId,
      escrowWallet,
      payer,
      signature: effects.signature,
      now,
    });
    lines.push({ kind: 'refund', wallet: payer, lamports, claimId: null, userId });
  }
  const paidClaims = effects.settle ? await findClaimsPaidBy(tx, effects.signature) : [];
  if (effects.settle) lines.push(...payoutLines(effects.settle.winners, left, paidClaims));
  const out = lines.filter((line) => line.lamports > 0n);
  const total = out.reduce((sum, line) => sum + line.lamports, 0n);
  if (total === 0n) return [];
  const booked = await ledgerBalanceOf(tx, escrowWallet);
  const surplus = total > booked ? total - booked : 0n;
  if (surplus > 0n) {
    await appendLedgerEntry(tx, {
      kind: 'surplus',
      escrowWallet,
      // Sent outside DarePool's payments (a stranger's lamports): the vault is all the ledger can name.
      counterparty: escrowWallet,
      direction: 1,
      lamports: surplus,
      signature: effects.signature,
      dareId,
      now,
    });
  }
  for (const line of out) {
    await appendLedgerEntry(tx, {
      kind: line.kind,
      escrowWallet,
      counterparty: line.wallet,
      direction: -1,
      lamports: line.lamports,
      signature: effects.signature,
      dareId,
      userId: line.userId,
      claimId: line.claimId,
      now,
    });
  }
  for (const claim of paidClaims) {
    await markClaimPaid(tx, claim.id, effects.signature, now);
    if (claim.status !== 'paid')
      await creditWinner(tx, claim.userId, { earnings: claim.amount, reputation: REPUTATION.prizeWon, now });
  }
  await subtractFromEscrowBalance(tx, escrowWallet, lamportsToSol(total), now);
  await notifyMoneyOut(tx, { dareId, escrowWallet, signature: effects.signature, lines: out, now });
  if (input.transfer)
    await setTransferMoved(tx, input.transfer.id, {
      amount: lamportsToSol(total),
      surplus: lamportsToSol(surplus),
      now,
    });
  return out.map((line) => ({
    kind: line.kind,
    signature: effects.signature,
    wallet: line.wallet,
    lamports: line.lamports,
  }));
}

/**
 * The payout lines of a pot the program paid to `winners` (v1's settle; v2's execute books the
 * same way): one winner takes it all; two split it 70/30 as the program does, the odd lamport to
 * the first. One wallet holding both shares gets one line. Each line names the claim it pays (the
 * first share is the admin's pick or the only winner's, the second the community's).
 */
export function payoutLines(
  winners: readonly Address[],
  pot: bigint,
  paidClaims: readonly { id: number; userId: number; claimType: string }[],
): OutLine[] {
  const [first, second] = winners as [Address, Address | undefined];
  const firstClaim = paidClaims.find((claim) => claim.claimType !== 'major_community') ?? null;
  const secondClaim = paidClaims.find((claim) => claim.claimType === 'major_community') ?? null;
  const line = (wallet: Address, lamports: bigint, claim: typeof firstClaim): OutLine => ({
    kind: 'payout',
    wallet,
    lamports,
    claimId: claim?.id ?? null,
    userId: claim?.userId ?? null,
  });
  if (second === undefined) return [line(first, pot, firstClaim)];
  const [firstShare, secondShare] = majorShares(pot);
  if (second === first) return [line(first, pot, firstClaim)];
  return [line(first, firstShare, firstClaim), line(second, secondShare, secondClaim)];
}

/** A settle that did not land: the claims it would have paid become claimable again, with the reason. */
export async function releaseFailedTransfer(
  tx: Tx,
  transfer: PayoutTransferRow,
  reason: string,
  now: Date,
): Promise<void> {
  if (transfer.purpose === 'claim') await releaseClaimsOf(tx, transfer.signature, reason, now);
  // A refund needs nothing released: the receipts stay on chain and the refund job sends them again.
}
