/**
 * v2's `enter` as DarePool hands it to an entrant (v1 vaults take no entries: decision 050): the
 * payer rules of app-transactions.ts — the entrant's wallet is the fee payer, the
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
import { type AppTransaction, walletTransaction } from '#server/chain/escrow-program/app-transactions';
import { findEntryAddress } from '#server/chain/escrow-program/pda';
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
  return { ...(await walletTransaction(rpc, entrant, instruction, input.memo)), entry };
}
