/** Claim Prize: the caller's pending claim for a submission, paid; or the claim already paid. */
import { CLAIM_MESSAGES, type Claim } from '#contract/claims';
import { forbidden, notFound } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import type { PayingServiceDeps } from '#server/features/payouts/service';
import { showClaim } from './claim-view';
import { notClaimable, payClaim } from './pay-claim';
import { findClaimsForSubmission, isJudgedDare, submissionExists } from './repo';

/** POST /api/claims/prize: the caller's pending claim for this submission. */
export async function claimPrize(
  deps: PayingServiceDeps,
  user: UserRow,
  submissionId: number,
): Promise<Claim> {
  const { db } = deps;
  if (!(await submissionExists(db, submissionId))) throw notFound(CLAIM_MESSAGES.submissionNotFound);
  const all = await findClaimsForSubmission(db, submissionId);
  if (all.length === 0) throw notFound(CLAIM_MESSAGES.noClaim);
  const mine = all.filter((claim) => claim.userId === user.id);
  if (mine.length === 0) throw forbidden(CLAIM_MESSAGES.notYourClaim);
  const pending = mine.find((claim) => claim.status === 'pending');
  if (!pending) {
    // A judged dare pays by itself once its window passes (the job's execute): the winner's
    // claim then answers the paid claim and its transaction, not an error.
    const paid = mine.find((claim) => claim.status === 'paid');
    if (
      paid?.dareId != null &&
      mine.every((claim) => claim.status === 'paid') &&
      (await isJudgedDare(db, paid.dareId))
    )
      return showClaim(deps, paid.id);
    throw notClaimable(mine.find((claim) => claim.status !== 'paid') ?? mine[0]!);
  }
  return payClaim(deps, pending.id);
}
