/**
 * v2's `enter` as DarePool hands it to an entrant (v1's is buildEnterTransaction in
 * ../app-transactions.ts): the same payer rules — the entrant's wallet is the fee payer, the
 * entry's rent payer and the only signer, nothing of DarePool signs (decision 034) — and the
 * entry carries the proof's fingerprint (decision 038).
 */
import {
  type Address,
  createNoopSigner,
  type GetLatestBlockhashApi,
  type GetRecentPrioritizationFeesApi,
  type ReadonlyUint8Array,
  type Rpc,
} from '@solana/kit';
import { priorityFeesOf } from '#server/chain/compute-budget';
import { findEntryAddress } from '#server/chain/escrow-program/pda';
import { type AppTransaction, partiallySigned } from '#server/chain/escrow-program/wire-transactions';
import { getEnterV2Instruction } from './instructions';

export async function buildEnterV2Transaction(
  rpc: Rpc<GetLatestBlockhashApi & GetRecentPrioritizationFeesApi>,
  input: {
    /** The v2 program that owns the vault. */
    programId: Address;
    vault: Address;
    entrant: Address;
    /** 32 bytes: the SHA-256 of the proof the entrant submits. */
    proofHash: ReadonlyUint8Array;
    memo?: string;
  },
): Promise<AppTransaction & { entry: Address }> {
  const entrant = createNoopSigner(input.entrant);
  const instruction = await getEnterV2Instruction({
    programId: input.programId,
    vault: input.vault,
    entrant,
    proofHash: input.proofHash,
  });
  const entry = (await findEntryAddress(input.programId, input.vault, input.entrant)).address;
  const lifetime = (await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send()).value;
  const { base64, messageBytes, lastValidBlockHeight } = await partiallySigned({
    feePayer: entrant,
    lifetime,
    fees: priorityFeesOf(rpc),
    instructions: [instruction],
    memo: input.memo,
  });
  return { base64, messageBytes, lastValidBlockHeight, entry };
}
