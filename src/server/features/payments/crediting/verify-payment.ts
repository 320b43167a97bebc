import type { Address, Rpc, SolanaRpcApi } from '@solana/kit';
import { solToLamports } from '#contract/money';
import { PAYMENT_MESSAGES } from '#contract/payments';
import type { Owned } from '#server/chain/escrow-program/accounts';
import { fetchReceipt, fetchVault } from '#server/chain/escrow-program/accounts';
import type { AnyVault, EscrowPrograms } from '#server/chain/escrow-program/any-program';
import type { Receipt } from '#server/chain/escrow-program/layout';
import { findReceiptAddress } from '#server/chain/escrow-program/pda';
import type { DbOrTx } from '#server/db/client';
import { AppError } from '#server/errors';
import type { PaymentIntentRow, PaymentPurpose } from '#server/features/payments/intents/intent';
import { foreignVaultError, type OurVaults } from '#server/features/payments/intents/our-vault';
import { unixSeconds } from '#server/features/payments/intents/vault-terms';
import { findEscrowWallet } from '#server/features/payments/repo/escrow-wallets';
import { findIntentByMessage, findIntentBySignature } from '#server/features/payments/repo/payment-intents';
import { fetchLandedTransaction } from './landed-transactions';

export type PaymentFailure =
  | 'not-found'
  | 'failed-on-chain'
  | 'not-this-request'
  | 'other-escrow'
  | 'wrong-payer'
  | 'vault-missing'
  | 'vault-not-ours'
  | 'not-in-vault';

export const PAYMENT_FAILURE_MESSAGES: Record<PaymentFailure, string> = {
  'not-found': 'The transaction was not found or is not confirmed yet on this network',
  'failed-on-chain': 'The transaction failed on chain',
  'not-this-request': 'The transaction does not belong to this payment request',
  'other-escrow': 'The transaction does not transfer SOL to the escrow wallet',
  'wrong-payer': 'The transfer does not come from your wallet',
  'vault-missing': "The dare's vault is not on chain",
  'vault-not-ours': "The vault is not a DarePool vault with this payment's terms",
  'not-in-vault': "The payment is not in the dare's vault",
};

export function paymentNotVerified(failure: PaymentFailure): AppError {
  return new AppError('PAYMENT_NOT_VERIFIED', PAYMENT_FAILURE_MESSAGES[failure], { reason: failure });
}

export interface VerifiedPayment {
  intent: PaymentIntentRow;
  /** What the server-built message deposits: the amount credited. */
  lamports: bigint;
  vault: AnyVault & { address: Address };
  receipt: Receipt & { address: Address };
}

export interface VerifyDeps {
  db: DbOrTx;
  rpc: Rpc<SolanaRpcApi>;
  /** Both escrow programs: a vault is read under whichever owns it. */
  programs: EscrowPrograms;
  /** The moderator and rent payer every DarePool vault names. */
  platform: { moderator: Address; rentPayer: Address };
  /** Every term of a vault ours (decision 048). */
  ourVaults: OurVaults;
}

/**
 * Step 7's check that `signature` is a payment of the caller (decision 021), reads only: the
 * caller credits in one database transaction.
 * 1. The transaction landed without error and is exactly a message the server built for one of
 *    the caller's open payment intents (its SHA-256), paying into the escrow the request names.
 *    A payment the relay (or the job) already booked was checked so when it landed.
 * 2. The chain holds what it did: the vault is ours in every term (or v1's, made before v2), still
 *    takes money, and (for the intent that created it) has the kind and deadline built; the
 *    caller's receipt in it is theirs and holds at least the amount credited.
 */
export async function verifyPayment(
  deps: VerifyDeps,
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
  const { intent, failed } = await landedIntent(deps, request.signature);
  if (intent.userId !== request.userId) throw paymentNotVerified('not-this-request');
  if (failed) throw paymentNotVerified('failed-on-chain');
  if (intent.usedAt !== null || intent.expiresAt <= request.now) throw paymentNotVerified('not-this-request');
  if (intent.purpose !== request.purpose) throw paymentNotVerified('not-this-request');
  if (request.dareId !== undefined && intent.dareId !== request.dareId)
    throw paymentNotVerified(
      intent.escrowWallet === request.escrowWallet ? 'not-this-request' : 'other-escrow',
    );
  if (intent.escrowWallet !== request.escrowWallet) throw paymentNotVerified('other-escrow');
  if (intent.fromWallet !== request.wallet) throw paymentNotVerified('wrong-payer');

  const lamports = solToLamports(intent.amount);
  const vaultAddress = intent.escrowWallet as Address;
  const vault = await ourVaultOf(deps, intent);
  const receiptAddress = (
    await findReceiptAddress(vault.programId, vaultAddress, intent.fromWallet as Address)
  ).address;
  const receipt = await fetchReceipt(deps.rpc, vault.programId, receiptAddress);
  if (vault.status !== 'open')
    throw new AppError('CONFLICT', PAYMENT_MESSAGES.vaultNotOpen, { reason: 'vault-not-open' });
  if (!receipt || receipt.payer !== intent.fromWallet || receipt.amount < lamports)
    throw paymentNotVerified('not-in-vault');
  return { intent, lamports, vault, receipt };
}

/**
 * The vault the intent paid into, checked: every term ours (our-vault.ts; a foreign vault is 409
 * naming the term), or a vault v1 made before v2 naming our moderator and rent payer (SOL that
 * already landed there is booked; no new SOL is built into one). A v2 vault's rent payer is the
 * wallet that created it, which for the intent that created it is this payer (decision 036), and
 * that intent's kind and deadline are the vault's.
 */
async function ourVaultOf(deps: VerifyDeps, intent: PaymentIntentRow): Promise<Owned<AnyVault>> {
  const escrow = await findEscrowWallet(deps.db, intent.escrowWallet);
  if (!escrow) throw paymentNotVerified('vault-missing');
  const found = await deps.ourVaults.check(escrow);
  if (found.state === 'none') throw paymentNotVerified('vault-missing');
  if (found.state === 'foreign') throw foreignVaultError(found.term);
  if (found.state === 'v1') {
    const vault = await fetchVault(deps.rpc, found.programId, intent.escrowWallet as Address);
    if (!vault) throw paymentNotVerified('vault-missing');
    if (vault.moderator !== deps.platform.moderator || vault.rentPayer !== deps.platform.rentPayer)
      throw paymentNotVerified('vault-not-ours');
    return vault;
  }
  const { vault } = found;
  if (
    intent.programInstruction === 'create_vault' &&
    (vault.rentPayer !== intent.fromWallet ||
      vault.kind !== intent.vaultKind ||
      vault.deadline !== unixSeconds(intent.vaultDeadline!))
  )
    throw paymentNotVerified('vault-not-ours');
  return vault;
}

/**
 * The intent `signature` paid. Booked already (the relay saw it land without error, as the job
 * does): that intent. Otherwise the chain is asked: the landed transaction's message names it.
 */
async function landedIntent(
  deps: VerifyDeps,
  signature: string,
): Promise<{ intent: PaymentIntentRow; failed: boolean }> {
  const known = await findIntentBySignature(deps.db, signature);
  if (known?.signature === signature && known.paidAt !== null) return { intent: known, failed: false };
  const landed = await fetchLandedTransaction(deps.rpc, signature);
  if (!landed) throw paymentNotVerified('not-found');
  const intent = await findIntentByMessage(deps.db, landed.messageHash);
  if (!intent) throw paymentNotVerified('not-this-request');
  return { intent, failed: landed.err !== null && landed.err !== undefined };
}
