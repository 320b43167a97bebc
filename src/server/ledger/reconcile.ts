import { type Address, address, getBase64Encoder, type Rpc, type SolanaRpcApi } from '@solana/kit';
import { decodeAnyVault } from '#server/chain/escrow-program/any-program';
import type { DbOrTx } from '#server/db/client';
import { escrowWallets, ledgerBalances } from './repo';

export interface EscrowDifference {
  escrowWallet: string;
  ledger: bigint;
  /** What the vault holds above its rent (its whole balance when no vault is there). */
  onChain: bigint;
  /** onChain - ledger: positive means SOL arrived that the ledger does not know about. */
  difference: bigint;
}

export interface ReconcileReport {
  checked: number;
  differences: EscrowDifference[];
  /**
   * Foreign vaults at addresses we handed out (someone made a vault there first with other terms,
   * decision 048) that hold nothing of our books: not compared, their SOL is not ours.
   */
  foreign: string[];
}

/** The most getMultipleAccounts takes per call. */
const ACCOUNTS_PER_CALL = 100;
const SYSTEM_PROGRAM = '11111111111111111111111111111111';

/**
 * What an escrow address holds for the books: a vault of the escrow program holds its pool above
 * its rent (the rent is the platform's, never a ledger line), so `lamports - rent`; a closed
 * vault (or a reservation whose vault was never created) holds its plain balance, 0 unless
 * someone sent SOL there.
 */
function heldFor(
  account: { lamports: bigint; owner: string; data: readonly [string, string] } | null,
  programIds: readonly Address[] | undefined,
): bigint {
  if (!account) return 0n;
  const lamports = BigInt(account.lamports);
  if (
    account.owner === SYSTEM_PROGRAM ||
    (programIds !== undefined && !programIds.includes(account.owner as Address))
  )
    return lamports;
  // Either program's vault: its rent (the platform's in v1, the creator's in v2) is never a ledger line.
  const vault = decodeAnyVault(new Uint8Array(getBase64Encoder().encode(account.data[0])));
  if (!vault) return lamports;
  return lamports > vault.rent ? lamports - vault.rent : 0n;
}

/**
 * Compares every vault with the sum of its ledger lines: what the vault holds above its rent on
 * chain (vault.total plus any stray lamports) against the ledger's balance; a closed vault must be
 * zero on both sides. Every escrow address ever handed out is checked, so SOL that reached one
 * without being booked shows up too, except a foreign vault holding nothing of our books. `programIds`, when given, are the only owners a vault may
 * have (both escrow programs: v1's vaults and v2's are reconciled alike).
 */
export async function reconcileEscrows(
  db: DbOrTx,
  rpc: Rpc<SolanaRpcApi>,
  programIds?: readonly Address[],
): Promise<ReconcileReport> {
  const ledger = await ledgerBalances(db);
  const wallets = await escrowWallets(db);
  const foreignRows = new Set(wallets.filter((w) => w.foreignTerm !== null).map((w) => w.publicKey));
  const escrows = [...new Set([...ledger.keys(), ...wallets.map((wallet) => wallet.publicKey)])].sort();
  const differences: EscrowDifference[] = [];
  const foreign: string[] = [];
  for (let start = 0; start < escrows.length; start += ACCOUNTS_PER_CALL) {
    const batch = escrows.slice(start, start + ACCOUNTS_PER_CALL);
    const { value } = await rpc
      .getMultipleAccounts(
        batch.map((key) => address(key)),
        { encoding: 'base64', commitment: 'confirmed' },
      )
      .send();
    for (const [index, escrowWallet] of batch.entries()) {
      const onChain = heldFor(value[index] ?? null, programIds);
      const expected = ledger.get(escrowWallet) ?? 0n;
      // Books that hold something in a foreign vault are still compared: that is money to account for.
      if (foreignRows.has(escrowWallet) && expected === 0n) {
        foreign.push(escrowWallet);
        continue;
      }
      if (onChain !== expected)
        differences.push({ escrowWallet, ledger: expected, onChain, difference: onChain - expected });
    }
  }
  return { checked: escrows.length, differences, foreign };
}
