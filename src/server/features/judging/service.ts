/**
 * Naming winners on escrow program v2 (docs/decisions/042-naming-winners.md): the judges' own
 * wallets sign `propose`; the server builds it (its fee payer pays the fee), keeps the partly
 * signed transaction while judges sign in turn, and relays it once the vault's threshold signed,
 * adding only its fee payer's signature. It never signs as a judge: the program would refuse it.
 * What the chain does afterwards (a veto, an execute, a relay that landed but was not recorded) is
 * read back from the vault whenever a dare's proposal is looked at.
 *
 * The parts, each a module of named functions taking the feature's deps (`Judging`) first:
 * judged-vaults.ts (a vault's terms, its dare, its judges), offer-proposal.ts (the propose handed
 * to a judge), relay-proposal.ts (a signed one relayed and recorded), proposal-sync.ts (a stored
 * proposal read back against its vault), mark-winner.ts and major-picks.ts (the requests naming
 * winners), proposal-status.ts (a proposal's outcome, the admin's list, the cancel check). This
 * module only puts them together under the names callers use.
 */
import type { DareJudging } from '#contract/judging';
import type { UserRow } from '#server/features/auth/user';
import { noAnnouncements } from '#server/features/chat/announce';
import { type Judging, type JudgingDeps, v2Dare } from './judged-vaults';
import {
  isRecordedPick,
  majorPicks,
  offerMajorPair,
  relayMajor,
  requireMajorJudge,
  requireMajorPairJudge,
  requireMajorPairProposal,
} from './major-picks';
import { markWinner } from './mark-winner';
import { adminProposals, assertCancellable, outcomeOf } from './proposal-status';
import { syncAll } from './proposal-sync';

export type { JudgingDeps } from './judged-vaults';
export { markProposalExecuted } from './repo';

type Picks = { admin: number; community: number };

export function createJudgingService(deps: JudgingDeps) {
  const judging: Judging = {
    ...deps,
    announce: deps.announce ?? noAnnouncements,
    terms: new Map<string, DareJudging>(),
  };
  return {
    markWinner: (user: UserRow, submissionId: number, body: { dareId: number; signedTransaction?: string }) =>
      markWinner(judging, user, submissionId, body),
    /** Whether the dare's vault is a v2 one (its winners are named through proposals). */
    isJudged: async (dareId: number) => (await v2Dare(judging, dareId)) !== null,
    requireMajorJudge: (user: UserRow, dareId: number) => requireMajorJudge(judging, user, dareId),
    isRecordedPick: (dareId: number, winnerType: 'admin' | 'community', submissionId: number) =>
      isRecordedPick(judging, dareId, winnerType, submissionId),
    majorPicks: (user: UserRow, dareId: number) => majorPicks(judging, user, dareId),
    requireMajorPairJudge: (user: UserRow, dareId: number) => requireMajorPairJudge(judging, user, dareId),
    offerMajorPair: (user: UserRow, dareId: number, picks: Picks) =>
      offerMajorPair(judging, user, dareId, picks),
    requireMajorPairProposal: (user: UserRow, dareId: number, picks: Picks, signedTransaction: string) =>
      requireMajorPairProposal(judging, user, dareId, picks, signedTransaction),
    relayMajor: (user: UserRow, dareId: number, signedTransaction: string) =>
      relayMajor(judging, user, dareId, signedTransaction),
    outcomeOf: (dareId: number) => outcomeOf(judging, dareId),
    adminProposals: () => adminProposals(judging),
    /** Every live proposal read against its vault (the job; a veto is noticed here). */
    syncAll: () => syncAll(judging),
    assertCancellable: (dareId: number) => assertCancellable(judging, dareId),
  };
}

export type JudgingService = ReturnType<typeof createJudgingService>;
