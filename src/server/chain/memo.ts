import type { Address, Instruction } from '@solana/kit';

/** SPL Memo (v2): on every cluster and in LiteSVM. Needs no accounts when no signer is listed. */
export const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr' as Address;

/**
 * A memo naming a transaction's attempt. A retry signed under the same blockhash (an idle chain,
 * or the same slot) would otherwise be the very same bytes and signature, refused as already
 * processed or recorded twice: each attempt is its own transaction.
 */
export function memoInstruction(text: string): Instruction {
  return { programAddress: MEMO_PROGRAM, accounts: [], data: new TextEncoder().encode(text) };
}
