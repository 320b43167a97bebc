import { effectiveStatus } from '#contract/dare-rules';
import { darePhase, phaseReason } from '#contract/dare-status';
import type { Dare } from '#contract/dares';
import type { DareStatus, Difficulty } from '#contract/limits';
import { normalizeSol } from '#contract/money';
import type { DbOrTx } from '#server/db/client';
import { type DareSelection, selectDare } from './repo';

/**
 * A dare as the API shows it, with the snake-case variants of docs/product.md#records-and-fields. With `now`, its
 * status is the one users see (effectiveStatus); without, the stored one.
 */
export function toDare(
  {
    dare,
    creator,
    submissionCount,
    participantCount,
    refundedAmount,
    refundedBackers,
    paidAmount,
    paidBackers,
  }: DareSelection,
  now?: Date,
): Dare {
  const backers = Number(refundedBackers);
  const payers = Number(paidBackers);
  const stakeAmount = normalizeSol(dare.stakeAmount);
  const totalPool = normalizeSol(dare.totalPool);
  const status = dare.status as DareStatus;
  // The admin list reads stored statuses but still shows the words users see.
  const phase = darePhase(
    { status, deadline: dare.deadline, refundedBackers: backers, paidBackers: payers },
    now ?? new Date(),
  );
  return {
    id: dare.id,
    title: dare.title,
    description: dare.description,
    creatorId: dare.creatorId,
    stakeAmount,
    totalPool,
    difficulty: dare.difficulty as Difficulty,
    category: dare.category,
    deadline: dare.deadline?.toISOString() ?? null,
    maxParticipants: dare.maxParticipants,
    isPublic: dare.isPublic,
    isMajor: dare.isMajor,
    status: now ? effectiveStatus({ status, deadline: dare.deadline }, now) : status,
    phase,
    phaseReason: phaseReason(phase, dare.cancelReason),
    refundTotal:
      backers > 0
        ? {
            amount: normalizeSol(refundedAmount),
            backers,
            paidAmount: normalizeSol(paidAmount),
            paidBackers: payers,
          }
        : null,
    escrowWallet: dare.escrowWallet,
    transactionSignature: dare.transactionSignature,
    network: dare.network,
    tags: dare.tags,
    imageUrl: dare.imageUrl,
    createdAt: dare.createdAt.toISOString(),
    updatedAt: dare.updatedAt.toISOString(),
    participantCount: Number(participantCount),
    submissionCount: Number(submissionCount),
    creator,
    is_major: dare.isMajor,
    total_pool: totalPool,
    stake_amount: stakeAmount,
    escrow_wallet: dare.escrowWallet,
    submission_count: Number(submissionCount),
  };
}

/** One dare as the API shows it (see toDare for `now`); what other features read a dare as. */
export async function findDare(db: DbOrTx, id: number, now?: Date): Promise<Dare | undefined> {
  const row = await selectDare(db, id);
  return row ? toDare(row, now) : undefined;
}
