/**
 * Turning escrow instructions into wire transactions: one for a wallet to finish signing, or as
 * many fully signed ones as a long list of instructions needs to stay within a packet.
 */
import {
  appendTransactionMessageInstructions,
  type Base64EncodedWireTransaction,
  compileTransactionMessage,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  getTransactionMessageSize,
  type Instruction,
  partiallySignTransactionMessageWithSigners,
  pipe,
  type Signature,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type TransactionSigner,
} from '@solana/kit';
import { computeBudgetInstructions, type PriorityFees, writableAccounts } from '#server/chain/compute-budget';
import { memoInstruction } from '#server/chain/memo';

/** The packet limit of legacy and v0 transactions, signatures included. */
const MAX_TRANSACTION_BYTES = 1232;

/**
 * A cluster locks at most 64 accounts per transaction (agave MAX_TX_ACCOUNT_LOCKS); escrow
 * closes reach the byte limit first, but a list of new wallets could reach this one.
 */
const MAX_TRANSACTION_ACCOUNTS = 64;

export interface Lifetime {
  blockhash: string;
  lastValidBlockHeight: bigint;
}

export interface AppTransaction {
  /** The wire transaction: the server's signatures in place, zeros where a wallet still signs. */
  base64: Base64EncodedWireTransaction;
  /** The bytes every signer signs; what a relay compares a wallet's signed transaction against. */
  messageBytes: Uint8Array;
  /** Past this block height the transaction can no longer land. */
  lastValidBlockHeight: bigint;
}

/** A transaction whose id is known before it is sent: its fee payer's signature is in place. */
export interface SignedAppTransaction extends AppTransaction {
  signature: Signature;
}

/**
 * The message with its compute-budget instructions first: a limit from the CU table and `price`
 * micro-lamports per unit (docs/decisions/068-priority-fees-and-rebroadcast.md). The price does not
 * change the size, so packing measures with 0.
 */
function messageOf(
  feePayer: TransactionSigner,
  lifetime: Lifetime,
  instructions: readonly Instruction[],
  price = 0n,
) {
  return pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        lifetime as Parameters<typeof setTransactionMessageLifetimeUsingBlockhash>[0],
        m,
      ),
    (m) =>
      appendTransactionMessageInstructions(
        [...computeBudgetInstructions(instructions, price), ...instructions],
        m,
      ),
  );
}

/** The compute-unit price for a transaction of these instructions, from its writable accounts. */
async function priceOf(
  fees: PriorityFees | undefined,
  feePayer: TransactionSigner,
  instructions: readonly Instruction[],
): Promise<bigint> {
  return fees ? fees.microLamportsFor(writableAccounts(feePayer.address, instructions)) : 0n;
}

function withMemo(instructions: readonly Instruction[], memo: string | undefined): Instruction[] {
  return memo === undefined ? [...instructions] : [...instructions, memoInstruction(memo)];
}

/**
 * Signs with every key signer attached (fee payer, rent payer, moderator); noop signers (a user's
 * wallet, known by address only) leave their slot empty for the wallet to fill.
 */
export async function partiallySigned(input: {
  feePayer: TransactionSigner;
  lifetime: Lifetime;
  instructions: readonly Instruction[];
  /** Where the compute-unit price comes from; without one (tests' own transactions) it is 0. */
  fees?: PriorityFees;
  memo?: string;
}): Promise<AppTransaction & { signature: Signature | null }> {
  const instructions = withMemo(input.instructions, input.memo);
  const price = await priceOf(input.fees, input.feePayer, instructions);
  const message = messageOf(input.feePayer, input.lifetime, instructions, price);
  const transaction = await partiallySignTransactionMessageWithSigners(message);
  const feePayerSigned = transaction.signatures[input.feePayer.address] !== null;
  return {
    base64: getBase64EncodedWireTransaction(transaction),
    messageBytes: new Uint8Array(transaction.messageBytes),
    lastValidBlockHeight: input.lifetime.lastValidBlockHeight,
    signature: feePayerSigned ? getSignatureFromTransaction(transaction) : null,
  };
}

function fits(
  feePayer: TransactionSigner,
  lifetime: Lifetime,
  instructions: readonly Instruction[],
): boolean {
  const message = messageOf(feePayer, lifetime, instructions);
  return (
    getTransactionMessageSize(message) <= MAX_TRANSACTION_BYTES &&
    compileTransactionMessage(message).staticAccounts.length <= MAX_TRANSACTION_ACCOUNTS
  );
}

/**
 * Fully signed transactions carrying the steps' instructions in order, each as full as a packet
 * allows (1232 bytes, 64 accounts); each comes back with the steps it carries. The first step
 * always lands in the first transaction, so a `settle` or `cancel` put first runs before the closes
 * that depend on it. All share one blockhash: send them one after another, each confirmed first.
 */
export async function packSignedTransactions<Step extends { instruction: Instruction }>(input: {
  feePayer: TransactionSigner;
  lifetime: Lifetime;
  steps: readonly Step[];
  /** Where the compute-unit price comes from; without one it is 0. */
  fees?: PriorityFees;
  memo?: string;
}): Promise<(SignedAppTransaction & { steps: Step[] })[]> {
  const fitsOne = (steps: readonly Step[]) =>
    fits(
      input.feePayer,
      input.lifetime,
      withMemo(
        steps.map((step) => step.instruction),
        input.memo,
      ),
    );
  const groups: Step[][] = [];
  let current: Step[] = [];
  for (const step of input.steps) {
    if (fitsOne([...current, step])) {
      current.push(step);
      continue;
    }
    if (current.length > 0) groups.push(current);
    current = [step];
    if (!fitsOne(current)) throw new Error('An instruction does not fit in a transaction on its own');
  }
  if (current.length > 0) groups.push(current);
  return Promise.all(
    groups.map(async (steps) => {
      const instructions = withMemo(
        steps.map((step) => step.instruction),
        input.memo,
      );
      const price = await priceOf(input.fees, input.feePayer, instructions);
      const transaction = await signTransactionMessageWithSigners(
        messageOf(input.feePayer, input.lifetime, instructions, price),
      );
      return {
        base64: getBase64EncodedWireTransaction(transaction),
        messageBytes: new Uint8Array(transaction.messageBytes),
        lastValidBlockHeight: input.lifetime.lastValidBlockHeight,
        signature: getSignatureFromTransaction(transaction),
        steps,
      };
    }),
  );
}
