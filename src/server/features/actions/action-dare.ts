/** A dare as its Action sees it: its path, the dare itself (404 in the Action's words), whether it takes SOL. */
import { effectiveStatus } from '#contract/dare-rules';
import type { Dare } from '#contract/dares';
import { AppError, notFound } from '#server/errors';
import { ACTION_MESSAGES } from './action-terms';
import type { ActionsDeps } from './actions-deps';

export const actionPath = (dareId: number) => `/api/actions/dare/${dareId}`;

export async function actionDare({ dares }: ActionsDeps, id: number): Promise<Dare> {
  try {
    return await dares.getDare(id);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) throw notFound(ACTION_MESSAGES.dareNotFound);
    throw error;
  }
}

/** Why a dare takes no SOL now, or null while it does. */
export function closedReason(dare: Dare, now: Date): string | null {
  if (!dare.escrowWallet) return 'This dare has no vault to add to';
  return effectiveStatus(dare, now) === 'active' ? null : 'This dare no longer accepts contributions';
}
