import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client';
import { dares, users } from '#server/db/schema';

/** What the local explorer calls addresses: wallets by their user's name, vaults by their dare. */
export interface ExplorerNames {
  users: Map<string, string>;
  dares: Map<string, { id: number; title: string }>;
}

export async function findExplorerNames(db: DbOrTx, addresses: readonly string[]): Promise<ExplorerNames> {
  const names: ExplorerNames = { users: new Map(), dares: new Map() };
  const unique = [...new Set(addresses)];
  if (unique.length === 0) return names;
  const [userRows, dareRows] = await Promise.all([
    db
      .select({ walletAddress: users.walletAddress, username: users.username })
      .from(users)
      .where(inArray(users.walletAddress, unique)),
    db
      .select({ escrowWallet: dares.escrowWallet, id: dares.id, title: dares.title })
      .from(dares)
      .where(inArray(dares.escrowWallet, unique)),
  ]);
  for (const row of userRows) if (row.walletAddress) names.users.set(row.walletAddress, row.username);
  for (const row of dareRows)
    if (row.escrowWallet) names.dares.set(row.escrowWallet, { id: row.id, title: row.title });
  return names;
}
