import type { Rpc, Signature, SolanaRpcApi } from '@solana/kit';
import { solToLamports } from '#contract/money';
import {
  checkDeposit,
  DEPOSIT_FAILURE_MESSAGES,
  type DepositFailure,
  fetchParsedTransaction,
  type ParsedTransactionView,
} from '../../chain/verify-deposit';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import type { PaymentIntentRow, PaymentPurpose } from './payment-intents';
import { findOpenIntents } from './repo/payment-intents';

export interface VerifiedPayment {
  intent: PaymentIntentRow;
  lamports: bigint;
  slot: bigint;
}

function notVerified(failure: DepositFailure): AppError {
  return new AppError('PAYMENT_NOT_VERIFIED', DEPOSIT_FAILURE_MESSAGES[failure], { reason: failure });
}

/**
 * Checks on chain that `signature` pays one of the caller's open payment intents (notes, section
 * 2). Reads only: the caller consumes the intent and credits in one database transaction.
 */
export async function verifyPayment(
  deps: { db: DbOrTx; rpc: Rpc<SolanaRpcApi> },
  request: {
    userId: number;
    wallet: string;
    signature: string;
    purpose: PaymentPurpose;
    escrowWallet: string;
    dareId?: number;
    now: Date;
  },
): Promise<VerifiedPayment> {
  let tx: ParsedTransactionView | null;
  try {
    tx = await fetchParsedTransaction(deps.rpc, request.signature as Signature);
  } catch {
    // A malformed or unknown signature is the same answer as one that never landed.
    tx = null;
  }
  if (!tx) throw notVerified('not-found');

  const intents = (
    await findOpenIntents(deps.db, {
      userId: request.userId,
      references: tx.accountKeys.map((key) => key.pubkey),
      purpose: request.purpose,
      escrowWallet: request.escrowWallet,
      now: request.now,
    })
  ).filter((intent) => request.dareId === undefined || intent.dareId === request.dareId);
  if (intents.length === 0) throw notVerified('missing-reference');

  let failure: DepositFailure = 'missing-reference';
  for (const intent of intents) {
    if (intent.fromWallet !== request.wallet) {
      failure = 'wrong-payer';
      continue;
    }
    const lamports = solToLamports(intent.amount);
    const result = checkDeposit(tx, {
      from: intent.fromWallet,
      escrow: intent.escrowWallet,
      lamports,
      reference: intent.reference,
      minSlot: intent.minSlot,
    });
    if (result === null) return { intent, lamports, slot: tx.slot };
    failure = result;
  }
  throw notVerified(failure);
}
