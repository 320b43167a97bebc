import type { Address } from '@solana/kit';
import { REPUTATION } from '#contract/limits';
import { lamportsToSol } from '#contract/money';
import type { VaultTransactionEffects } from '#server/chain/payout-transactions';
import type { Tx } from '#server/db/client';
import { appendLedgerEntry, ledgerBalanceOf } from '#server/ledger/entries';
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

interface OutLine {
  kind: 'payout' | 'refund';
  wallet: Address;
  lamports: bigint;
  claimId: number | null;
  userId: number | null;
}

/**
 * Books what a landed program transaction paid out of a vault, from the chain's own record of it
 * (`effects`), exactly once per transaction (the vault's row is locked, and a transaction already
 * booked is skipped): a `payout` line per winner of a settle, a `refund` line per payer refunded.
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
  const paidClaims = effects.settle ? await findClaimsPaidBy(tx, effects.signature) : [];
  if (effects.settle) {
    const [first, second] = effects.settle.winners as [Address, Address | undefined];
    const firstClaim = paidClaims.find((claim) => claim.claimType !== 'major_community') ?? null;
    const secondClaim = paidClaims.find((claim) => claim.claimType === 'major_community') ?? null;
    if (second === undefined || second === first) {
      // One wallet paid (a community winner, or both shares of a major dare to one wallet): one line.
      lines.push({
        kind: 'payout',
        wallet: first,
        lamports: effects.paid.get(first) ?? 0n,
        claimId: firstClaim?.id ?? null,
        userId: firstClaim?.userId ?? null,
      });
    } else {
      lines.push(
        {
          kind: 'payout',
          wallet: first,
          lamports: effects.paid.get(first) ?? 0n,
          claimId: firstClaim?.id ?? null,
          userId: firstClaim?.userId ?? null,
        },
        {
          kind: 'payout',
          wallet: second,
          lamports: effects.paid.get(second) ?? 0n,
          claimId: secondClaim?.id ?? null,
          userId: secondClaim?.userId ?? null,
        },
      );
    }
  }
  const refunded = new Set<Address>();
  for (const { payer } of effects.refunds) {
    if (refunded.has(payer)) continue;
    refunded.add(payer);
    const userId = await markPayerRefunded(tx, {
      dareId,
      escrowWallet,
      payer,
      signature: effects.signature,
      now,
    });
    lines.push({
      kind: 'refund',
      wallet: payer,
      lamports: effects.paid.get(payer) ?? 0n,
      claimId: null,
      userId,
    });
  }
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
