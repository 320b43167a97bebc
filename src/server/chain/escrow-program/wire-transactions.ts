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

function messageOf(feePayer: TransactionSigner, lifetime: Lifetime, instructions: readonly Instruction[]) {
  return pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        lifetime as Parameters<typeof setTransactionMessageLifetimeUsingBlockhash>[0],
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
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
  memo?: string;
}): Promise<AppTransaction & { signature: Signature | null }> {
  const message = messageOf(input.feePayer, input.lifetime, withMemo(input.instructions, input.memo));
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
      const transaction = await signTransactionMessageWithSigners(
        messageOf(input.feePayer, input.lifetime, instructions),
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
