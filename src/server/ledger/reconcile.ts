import { address, type Rpc, type SolanaRpcApi } from '@solana/kit';
import type { DbOrTx } from '#server/db/client';
import { dareWallets } from '#server/db/schema';
import { ledgerBalances } from './entries';

export interface EscrowDifference {
  escrowWallet: string;
  ledger: bigint;
  onChain: bigint;
  /** onChain - ledger: positive means SOL arrived that the ledger does not know about. */
  difference: bigint;
}

export interface ReconcileReport {
  checked: number;
  differences: EscrowDifference[];
}

/**
 * Compares every escrow's on-chain balance with the sum of its ledger entries. Every escrow we
 * ever handed out is checked, so SOL sent to an escrow without being credited shows up too.
 */
export async function reconcileEscrows(db: DbOrTx, rpc: Rpc<SolanaRpcApi>): Promise<ReconcileReport> {
  const ledger = await ledgerBalances(db);
  const wallets = await db.select({ publicKey: dareWallets.publicKey }).from(dareWallets);
  const escrows = new Set([...ledger.keys(), ...wallets.map((wallet) => wallet.publicKey)]);
  const differences: EscrowDifference[] = [];
  for (const escrowWallet of [...escrows].sort()) {
    const { value: onChain } = await rpc
      .getBalance(address(escrowWallet), { commitment: 'confirmed' })
      .send();
    const expected = ledger.get(escrowWallet) ?? 0n;
    if (onChain !== expected) {
      differences.push({ escrowWallet, ledger: expected, onChain, difference: onChain - expected });
    }
  }
  return { checked: escrows.size, differences };
}
