import { MAJOR_DARE_SPLIT } from './limits';
import { splitMajorPrize } from './major-dare';

/**
 * Escrow program v2's `propose` instruction as program/src/darepool_escrow_v2.c reads it, and how
 * its `execute` splits the pool: one definition for the server, which builds the propose, and the
 * web app, which checks it before a judge's wallet signs it (docs/decisions/054).
 *
 * Data: [tag 8, winner count]. Accounts, in order: the vault (writable), then per winner its wallet
 * and its entry (read-only), then the signing judges (read-only signers).
 */
export const PROPOSE_TAG = 8;

/** A community dare names one winner; a Major Dare two, in share order (70%, then 30%). */
export const PROPOSE_WINNER_COUNT = { community: 1, major: 2 } as const;

export function encodeProposeData(winnerCount: number): Uint8Array {
  return new Uint8Array([PROPOSE_TAG, winnerCount]);
}

/** The winner count of a propose's data; null when the data is not a propose's. */
export function readProposeData(data: ArrayLike<number>): { winnerCount: number } | null {
  if (data.length !== 2 || data[0] !== PROPOSE_TAG) return null;
  return { winnerCount: data[1]! };
}

/** Where a propose's accounts sit: the vault, each winner's wallet, the first judge. */
export const proposeAccountIndex = {
  vault: 0,
  winner: (index: number) => 1 + 2 * index,
  entry: (index: number) => 2 + 2 * index,
  firstJudge: (winnerCount: number) => 1 + 2 * winnerCount,
} as const;

/**
 * What `execute` pays each winner of a pot (lamports), in share order: all of it to one, or the
 * Major Dare's 70/30 with the odd lamports to the first.
 */
export function proposalShares(pot: bigint, winnerCount: number): bigint[] {
  if (winnerCount === 1) return [pot];
  const { admin, community } = splitMajorPrize(pot);
  return [admin, community];
}

/** The shares as the confirmation names them. */
export function proposalSharePercents(winnerCount: number): number[] {
  return winnerCount === 1 ? [100] : [MAJOR_DARE_SPLIT.adminPercent, MAJOR_DARE_SPLIT.communityPercent];
}
