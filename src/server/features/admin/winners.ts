import { and, eq, inArray } from 'drizzle-orm';
import type { ClaimType } from '../../../contract/claims';
import { lamportsToSol } from '../../../contract/money';
import type { Db } from '../../db/client';
import { violatedConstraint } from '../../db/errors';
import { claims, dareSubmissions, dares } from '../../db/schema';
import { AppError, conflict } from '../../errors';

/**
 * Records a winner: the dare becomes completed (only from the given statuses, so a refund that
 * cancelled it first wins the race), the submission becomes 'winner', and one pending claim is
 * created for its author. The unique (dare, claim type) index refuses a second winner of a kind.
 */
export async function createWinnerClaim(
  db: Db,
  input: {
    dareId: number;
    submissionId: number;
    userId: number;
    claimType: ClaimType;
    lamports: bigint;
    fromStatuses: ('active' | 'completed')[];
    now: Date;
    messages: { notOpen: string; taken: string };
  },
): Promise<number> {
  if (input.lamports <= 0n) throw new AppError('CONFLICT', 'This dare has no prize pool to pay');
  try {
    return await db.transaction(async (tx) => {
      const completed = await tx
        .update(dares)
        .set({ status: 'completed', updatedAt: input.now })
        .where(and(eq(dares.id, input.dareId), inArray(dares.status, input.fromStatuses)))
        .returning({ id: dares.id });
      if (completed.length === 0) throw conflict(input.messages.notOpen);
      const [claim] = await tx
        .insert(claims)
        .values({
          userId: input.userId,
          amount: lamportsToSol(input.lamports),
          claimType: input.claimType,
          status: 'pending',
          dareId: input.dareId,
          submissionId: input.submissionId,
          createdAt: input.now,
          updatedAt: input.now,
        })
        .returning({ id: claims.id });
      await tx
        .update(dareSubmissions)
        .set({ status: 'winner', updatedAt: input.now })
        .where(eq(dareSubmissions.id, input.submissionId));
      return claim!.id;
    });
  } catch (error) {
    const constraint = violatedConstraint(error);
    if (constraint === 'claims_one_per_dare_type' || constraint === 'claims_one_per_submission_type')
      throw conflict(input.messages.taken);
    throw error;
  }
}
