/**
 * Prize claims. The parts, each a module of named functions taking the service's deps first:
 * winner-claim.ts (a winner recorded with its pending claim), pay-claim.ts (a claim paid through
 * the dare's execute, and the job paying judged dares whose window passed), claim-prize.ts (the
 * winner's Claim Prize), claim-view.ts (claims as their winner sees them). This module only puts
 * them together under the names callers use.
 */
import type { UserRow } from '#server/features/auth/user';
import type { PayingServiceDeps } from '#server/features/payouts/service';
import { claimPrize } from './claim-prize';
import { listClaims, showClaim } from './claim-view';
import { payClaim, payDueProposals } from './pay-claim';
import { listWinningSubmissions, releaseOrphanedClaims } from './repo';
import { createWinnerClaim, type WinnerClaim } from './winner-claim';

export type { WinnerClaim } from './winner-claim';

export function createClaimsService(deps: PayingServiceDeps) {
  const { db, clock } = deps;
  return {
    payClaim: (claimId: number) => payClaim(deps, claimId),
    payDueProposals: () => payDueProposals(deps),
    createWinnerClaim: (input: WinnerClaim) => createWinnerClaim(deps, input),
    releaseOrphanedClaims: () => releaseOrphanedClaims(db, clock()),
    claimPrize: (user: UserRow, submissionId: number) => claimPrize(deps, user, submissionId),
    listClaims: (user: UserRow) => listClaims(deps, user),
    listWinningSubmissions: (user: UserRow) => listWinningSubmissions(db, user.id),
    show: (id: number) => showClaim(deps, id),
  };
}

export type ClaimsService = ReturnType<typeof createClaimsService>;
