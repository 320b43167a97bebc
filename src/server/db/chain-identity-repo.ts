import type { DbOrTx } from './client';
import { chainIdentity } from './schema';

export interface ChainIdentity {
  genesisHash: string;
  escrowProgramId: string;
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
  const [row] = await db
    .select({
      genesisHash: chainIdentity.genesisHash,
      escrowProgramId: chainIdentity.escrowProgramId,
      feePayer: chainIdentity.feePayer,
    })
    .from(chainIdentity);
  return row!;
}
