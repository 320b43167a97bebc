import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { lamportsToSol, solToLamports } from '#contract/money';
import type { DbOrTx } from '#server/db/client';
import { dareWallets, ledgerEntries } from '#server/db/schema';

export type LedgerKind = 'stake' | 'contribution' | 'payout' | 'refund' | 'fee' | 'surplus';

/** Appends one verified movement; the table refuses updates and deletes (migration 0001). */
export async function appendLedgerEntry(
  db: DbOrTx,
  entry: {
    kind: LedgerKind;
    escrowWallet: string;
    counterparty: string;
    direction: 1 | -1;
    lamports: bigint;
    signature: string;
    dareId?: number | null;
    userId?: number | null;
    claimId?: number | null;
    now: Date;
  },
): Promise<void> {
  await db.insert(ledgerEntries).values({
    kind: entry.kind,
    escrowWallet: entry.escrowWallet,
    counterparty: entry.counterparty,
    direction: entry.direction,
    amount: lamportsToSol(entry.lamports),
    signature: entry.signature,
    dareId: entry.dareId ?? null,
    userId: entry.userId ?? null,
    claimId: entry.claimId ?? null,
    createdAt: entry.now,
  });
}

/**
 * Links the line of a payment booked before its dare existed (a stake held for its payer) to the
 * dare it funded. The only change the append-only trigger allows: dare_id from null, once.
 */
export async function attachLedgerDare(
  db: DbOrTx,
  line: { signature: string; escrowWallet: string },
  dareId: number,
): Promise<void> {
  await db
    .update(ledgerEntries)
    .set({ dareId })
    .where(
      and(
        eq(ledgerEntries.signature, line.signature),
        eq(ledgerEntries.escrowWallet, line.escrowWallet),
        isNull(ledgerEntries.dareId),
      ),
    );
}

/** The transactions whose transfers into one escrow are booked (every sender of one is booked together). */
export async function inboundSignatures(db: DbOrTx, escrowWallet: string): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ signature: ledgerEntries.signature })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.escrowWallet, escrowWallet), eq(ledgerEntries.direction, 1)));
  return new Set(rows.map((row) => row.signature));
}

/** What the ledger says one escrow holds, in lamports. */
export async function ledgerBalanceOf(db: DbOrTx, escrowWallet: string): Promise<bigint> {
  const [row] = await db
    .select({ net: sql<string | null>`sum(${ledgerEntries.direction} * ${ledgerEntries.amount})::text` })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.escrowWallet, escrowWallet));
  return row?.net ? solToLamports(normalizeNumeric(row.net)) : 0n;
}

/**
 * What the ledger holds in one escrow for one payer: their payments in (stakes, contributions)
 * less what was refunded to them. For a program vault, the amount of that payer's receipt as the
 * books know it.
 */
export async function ledgerBalanceOfPayer(db: DbOrTx, escrowWallet: string, payer: string): Promise<bigint> {
  const [row] = await db
    .select({ net: sql<string | null>`sum(${ledgerEntries.direction} * ${ledgerEntries.amount})::text` })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.escrowWallet, escrowWallet),
        eq(ledgerEntries.counterparty, payer),
        inArray(ledgerEntries.kind, ['stake', 'contribution', 'refund']),
      ),
    );
  if (!row?.net || row.net.startsWith('-')) return 0n;
  return solToLamports(row.net);
}

/** What the ledger says each escrow holds, in lamports. */
export async function ledgerBalances(db: DbOrTx): Promise<Map<string, bigint>> {
  const rows = await db
    .select({
      escrowWallet: ledgerEntries.escrowWallet,
      net: sql<string>`sum(${ledgerEntries.direction} * ${ledgerEntries.amount})::text`,
    })
    .from(ledgerEntries)
    .groupBy(ledgerEntries.escrowWallet);
  return new Map(rows.map((row) => [row.escrowWallet, solToLamports(normalizeNumeric(row.net))]));
}

/** PostgreSQL prints sums like '-0.500000000' or '1.5'; solToLamports wants a plain non-negative decimal. */
function normalizeNumeric(text: string): string {
  if (text.startsWith('-')) throw new Error(`The ledger shows a negative escrow balance: ${text}`);
  return text;
}

/** Every escrow address ever handed out, and whether a foreign vault sits there (decision 048). */
export async function escrowWallets(
  db: DbOrTx,
): Promise<{ publicKey: string; foreignTerm: string | null }[]> {
  return db
    .select({ publicKey: dareWallets.publicKey, foreignTerm: dareWallets.foreignTerm })
    .from(dareWallets);
}
