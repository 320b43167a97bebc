/** A pool contribution asked for through a public link (Solana Actions), for any wallet. */
import { type Address, address } from '@solana/kit';
import { effectiveStatus } from '#contract/dare-rules';
import { POOL_ADD_MIN_SOL } from '#contract/limits';
import { solToLamports } from '#contract/money';
import { PAYMENT_MESSAGES } from '#contract/payments';
import { buildDepositTransaction } from '#server/chain/escrow-program/app-transactions';
import { AppError, badRequest } from '#server/errors';
import type { Payments } from '#server/features/payments/payment-deps';
import { findDareStanding } from '#server/features/payments/repo/credits';
import { findEscrowWallet } from '#server/features/payments/repo/escrow-wallets';
import { openVault } from './vault-to-pay';

/**
 * A pool contribution from a wallet that asked through a public link (Solana Actions): the
 * same checks and the same deposit as Add to Pool, for a wallet no account needs to hold. No
 * intent is recorded, so the platform keeps nothing per request and signs nothing: the
 * deposit, once landed, is a straight one, credited to its payer by the vault notice (the
 * callback asks for it at once; the payout job's run otherwise), exactly once.
 */
export async function buildWalletContribution(
  payments: Payments,
  input: { escrowWallet: string; from: Address; amount: string },
) {
  const { db, chain, clock, escrowProgramV2Id } = payments;
  const now = clock();
  const lamports = solToLamports(input.amount);
  if (lamports < solToLamports(POOL_ADD_MIN_SOL)) throw badRequest(PAYMENT_MESSAGES.invalidAmount);
  const escrow = await findEscrowWallet(db, input.escrowWallet);
  if (!escrow || escrow.dareId === null) throw new AppError('CONFLICT', PAYMENT_MESSAGES.dareNotActive);
  const dare = await findDareStanding(db, escrow.dareId);
  if (!dare || effectiveStatus(dare, now) !== 'active') {
    throw new AppError('CONFLICT', PAYMENT_MESSAGES.dareNotActive);
  }
  if ((await openVault(payments, escrow)) === null)
    throw new AppError('CONFLICT', PAYMENT_MESSAGES.dareNotActive);
  // Only v2 vaults are ever open to new money (decision 048); the backer lends its receipt's rent.
  const built = await buildDepositTransaction(chain.rpc, {
    programId: escrowProgramV2Id,
    vault: address(escrow.publicKey),
    payer: input.from,
    amount: lamports,
  });
  return {
    transaction: built.base64,
    lamports,
    lastValidBlockHeight: built.lastValidBlockHeight,
  };
}
