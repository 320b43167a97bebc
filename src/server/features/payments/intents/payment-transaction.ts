/** A payment's program transaction, as the server builds it for the wallet to sign. */
import { type Address, address } from '@solana/kit';
import { PAYMENT_MESSAGES } from '#contract/payments';
import {
  buildCreateVaultV2Transaction,
  buildDepositTransaction,
} from '#server/chain/escrow-program/app-transactions';
import { RECEIPT_SIZE } from '#server/chain/escrow-program/layout';
import { AppError } from '#server/errors';
import { type Payments, programOf } from '#server/features/payments/payment-deps';
import type { EscrowWalletRow } from '#server/features/payments/repo/escrow-wallets';
import { vaultSeedBytes } from './escrow-reservations';
import type { ProgramInstruction } from './intent';
import { vaultTermsFor } from './our-vault';
import type { VaultTerms } from './vault-terms';

/**
 * The rent the platform puts up when this payment lands: a backer's first receipt in a v1
 * vault; nothing for a new vault, a v2 deposit or a deposit into an existing receipt.
 */
export async function platformRent(
  { feePayerFunds }: Payments,
  built: { instruction: ProgramInstruction; newReceipt?: boolean; programVersion: number },
) {
  // Every new vault is v2's, whose creator pays its rent and its receipt's (decisions 036, 046);
  // a v2 backer pays its own receipt's (decision 058).
  if (built.instruction === 'create_vault' || built.programVersion === 2) return 0n;
  return built.newReceipt ? feePayerFunds.rent(RECEIPT_SIZE) : 0n;
}

/** The program transaction paying `lamports` from `from` into the escrow's vault. */
export async function buildPayment(
  payments: Payments,
  escrow: EscrowWalletRow,
  from: Address,
  lamports: bigint,
  terms: VaultTerms | null,
  reference: string,
) {
  const { chain, escrowProgramV2Id, ourVaults } = payments;
  const vault = address(escrow.publicKey);
  const programVersion = escrow.programVersion;
  if (terms) {
    const seed = vaultSeedBytes(escrow);
    if (!seed) throw new AppError('CONFLICT', PAYMENT_MESSAGES.escrowExpired);
    // New vaults are program v2's only: no server key can pay one out (decision 036). A v1
    // reservation made before the switch and never funded is asked for again.
    if (programVersion !== 2) throw new AppError('CONFLICT', PAYMENT_MESSAGES.escrowExpired);
    // The terms the reservation recorded, the very ones every later check holds the vault to.
    const ours = vaultTermsFor(await ourVaults.recordedOf(escrow), escrowProgramV2Id, terms);
    const built = await buildCreateVaultV2Transaction(chain.rpc, {
      programId: escrowProgramV2Id,
      creator: from,
      dareId: seed,
      terms: {
        kind: ours.kind,
        deadline: ours.deadline,
        refundAfter: ours.refundAfter,
        judges: [...ours.judges],
        threshold: ours.threshold,
        guardian: ours.guardian,
        canceller: ours.canceller,
        payoutWindow: ours.payoutWindow,
      },
      amount: lamports,
      memo: reference,
    });
    return { ...built, instruction: 'create_vault' as const, programVersion };
  }
  // A v2 backer lends its own receipt's rent, returned to it when the receipt closes: the
  // platform signs nothing a client could broadcast (decision 058). v1 vaults take no new money.
  const built = await buildDepositTransaction(chain.rpc, {
    programId: programOf(payments, escrow),
    vault,
    payer: from,
    amount: lamports,
    memo: reference,
  });
  return { ...built, instruction: 'deposit' as const, programVersion };
}
