import { and, eq, sum } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client';
import { ledgerEntries } from '#server/db/schema';

/** What a transaction put into a vault from one payer, as booked (SOL): null when nothing is booked. */
export async function findBookedContribution(
  db: DbOrTx,
  input: { signature: string; escrowWallet: string; payer: string },
): Promise<string | null> {
  const [row] = await db
    .select({ total: sum(ledgerEntries.amount) })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.signature, input.signature),
        eq(ledgerEntries.escrowWallet, input.escrowWallet),
        eq(ledgerEntries.counterparty, input.payer),
        eq(ledgerEntries.kind, 'contribution'),
        eq(ledgerEntries.direction, 1),
      ),
    );
  return row?.total ?? null;
}
