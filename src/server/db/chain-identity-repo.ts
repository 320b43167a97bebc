import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from './client';
import { chainIdentity } from './schema';

export interface ChainIdentity {
  genesisHash: string;
  escrowProgramId: string;
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
  // A database from before program v2 learns v2's id once; a recorded one is never replaced.
  if (identity.escrowProgramV2Id !== null)
    await db
      .update(chainIdentity)
      .set({ escrowProgramV2Id: identity.escrowProgramV2Id })
      .where(and(eq(chainIdentity.id, 1), isNull(chainIdentity.escrowProgramV2Id)));
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
