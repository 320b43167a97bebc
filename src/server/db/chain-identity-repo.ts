import { and, count, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from './client';
import { chainIdentity, dareWallets } from './schema';

export interface ChainIdentity {
  genesisHash: string;
  /** null while no start ran escrow program v1 (a chain that never had a v1 vault: decision 081). */
  escrowProgramId: string | null;
  /** null on a database set up before escrow program v2, until a start records it. */
  escrowProgramV2Id: string | null;
  feePayer: string;
}

/**
 * Records `identity` unless one is recorded already, and answers the recorded one. Instances
 * starting together on a fresh database race on the single row's key: one insert wins, and every
 * instance compares against the winner's.
 */
export async function recordChainIdentity(db: DbOrTx, identity: ChainIdentity): Promise<ChainIdentity> {
  await db
    .insert(chainIdentity)
    .values({ id: 1, ...identity })
    .onConflictDoNothing({ target: chainIdentity.id });
  // A program id not recorded yet (v2 on a database from before it, v1 on one whose starts ran
  // without it) is learnt once; a recorded one is never replaced.
  if (identity.escrowProgramV2Id !== null)
    await db
      .update(chainIdentity)
      .set({ escrowProgramV2Id: identity.escrowProgramV2Id })
      .where(and(eq(chainIdentity.id, 1), isNull(chainIdentity.escrowProgramV2Id)));
  if (identity.escrowProgramId !== null)
    await db
      .update(chainIdentity)
      .set({ escrowProgramId: identity.escrowProgramId })
      .where(and(eq(chainIdentity.id, 1), isNull(chainIdentity.escrowProgramId)));
  const [row] = await db
    .select({
      genesisHash: chainIdentity.genesisHash,
      escrowProgramId: chainIdentity.escrowProgramId,
      escrowProgramV2Id: chainIdentity.escrowProgramV2Id,
      feePayer: chainIdentity.feePayer,
    })
    .from(chainIdentity);
  return row!;
}

/** How many dare vaults of escrow program v1 this database holds (reserved before v2 or made then). */
export async function countV1Vaults(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(dareWallets).where(eq(dareWallets.programVersion, 1));
  return row?.n ?? 0;
}
