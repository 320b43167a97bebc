/**
 * A `propose` transaction that several judges sign one after another, each with their own wallet:
 * compiled once (fee payer, lifetime and accounts fixed), then passed around as wire bytes; each
 * judge adds a signature over the same message. With more than one judge the collection can take
 * longer than a blockhash lives (about a minute), so a durable nonce is the lifetime to use then.
 */
import {
  type Address,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  createTransactionMessage,
  type Nonce,
  partiallySignTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  setTransactionMessageLifetimeUsingDurableNonce,
  type Transaction,
} from '@solana/kit';
import { computeBudgetInstructions } from '#server/chain/compute-budget';
import { getProposeInstruction } from './instructions';

export type ProposeLifetime =
  | { blockhash: Blockhash; lastValidBlockHeight: bigint }
  | { nonce: Nonce; nonceAccountAddress: Address; nonceAuthorityAddress: Address };

export async function compileProposeTransaction(input: {
  programId: Address;
  vault: Address;
  winners: readonly Address[];
  /** The judges who will sign (at least the vault's threshold of them). */
  judges: readonly Address[];
  feePayer: Address;
  lifetime: ProposeLifetime;
  winnerEntries?: readonly Address[];
  /** The compute-unit price (compute-budget.ts); the limit comes from the CU table. */
  microLamports?: bigint;
}): Promise<Transaction> {
  const propose = await getProposeInstruction(input);
  const lifetime = input.lifetime;
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(input.feePayer, m),
    (m) =>
      'nonce' in lifetime
        ? setTransactionMessageLifetimeUsingDurableNonce(lifetime, m)
        : setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    // After the nonce advance, which a durable-nonce lifetime puts first.
    (m) =>
      appendTransactionMessageInstructions(
        [...computeBudgetInstructions([propose], input.microLamports ?? 0n), propose],
        m,
      ),
  );
  return compileTransaction(message);
}

/** Adds the signatures of the given key pairs (a judge, the fee payer) to a partly signed propose. */
export async function addProposeSignatures(
  transaction: Transaction,
  keyPairs: readonly CryptoKeyPair[],
): Promise<Transaction> {
  return partiallySignTransaction([...keyPairs], transaction);
}

/** The signers whose signatures the transaction still lacks (judges, fee payer, nonce authority). */
export function missingSignatures(transaction: Transaction): Address[] {
  return Object.entries(transaction.signatures)
    .filter(([, signature]) => signature === null)
    .map(([address]) => address as Address);
}
