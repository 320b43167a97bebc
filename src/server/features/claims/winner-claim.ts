/** Recording a winner: the dare completed, the submission the winner, and a pending claim for its author. */
import { CLAIM_MESSAGES, type ClaimType } from '#contract/claims';
import { lamportsToSol } from '#contract/money';
import type { Db } from '#server/db/client';
import { violatedConstraint } from '#server/db/errors';
import { AppError, conflict } from '#server/errors';
import { completeDare, insertPendingClaim, isRetiredEscrowDare, markSubmissionWinner } from './repo';

/** A winner to record: who won with which submission, which prize, from which dare statuses. */
export interface WinnerClaim {
  dareId: number;
  submissionId: number;
  userId: number;
  claimType: ClaimType;
  lamports: bigint;
  fromStatuses: ('active' | 'completed')[];
  now: Date;
  messages: { notOpen: string; taken: string };
}

/**
 * Records a winner: the dare becomes completed (only from the given statuses, so a refund that
 * cancelled it first wins the race), the submission becomes 'winner', and one pending claim is
 * created for its author. The unique (dare, claim type) index refuses a second winner of a kind.
 */
export async function createWinnerClaim({ db }: { db: Db }, input: WinnerClaim): Promise<number> {
  if (input.lamports <= 0n) throw new AppError('CONFLICT', 'This dare has no prize pool to pay');
  if (await isRetiredEscrowDare(db, input.dareId)) throw conflict(CLAIM_MESSAGES.escrowRetired);
  try {
    return await db.transaction(async (tx) => {
      if (!(await completeDare(tx, input.dareId, input.fromStatuses, input.now)))
        throw conflict(input.messages.notOpen);
      const claimId = await insertPendingClaim(tx, {
        userId: input.userId,
        amount: lamportsToSol(input.lamports),
        claimType: input.claimType,
        dareId: input.dareId,
        submissionId: input.submissionId,
        now: input.now,
      });
      await markSubmissionWinner(tx, input.submissionId, input.now);
      return claimId;
    });
  } catch (error) {
    const constraint = violatedConstraint(error);
    if (constraint === 'claims_one_per_dare_type' || constraint === 'claims_one_per_submission_type')
      throw conflict(input.messages.taken);
    throw error;
  }
}
