/**
 * Solana Actions (blinks): a dare backed from wherever its link goes (docs/decisions/066). A GET
 * describes the dare and its buttons, a POST hands the wallet the very deposit Add to Pool builds
 * (signed and paid by the wallet alone: a stranger repeating it costs the platform nothing), and
 * the callback credits it through the vault notice, the one path every deposit made straight on
 * chain takes, so the callback and the payout job credit it exactly once between them.
 *
 * The parts, each a module of named functions taking the deps first: describe-dare.ts (the GET),
 * build-deposit.ts (the POST), complete-deposit.ts (the callback), over action-dare.ts (the dare
 * as an Action sees it), action-input.ts and action-terms.ts (amounts, version, messages). This
 * module only puts them together under the names callers use.
 */
import { actionDare } from './action-dare';
import type { ActionsDeps } from './actions-deps';
import { createBlockchainId } from './blockchain-id';
import { buildDeposit } from './build-deposit';
import { completeDeposit } from './complete-deposit';
import { describeDare } from './describe-dare';
import { dareIconSvg } from './icon';

export { ACTION_AMOUNT_MAX_SOL, ACTION_AMOUNTS, ACTION_MESSAGES, ACTION_VERSION } from './action-terms';
export type { ActionsDeps } from './actions-deps';

export function createActionsService(deps: ActionsDeps) {
  return {
    /** The cluster as CAIP-2 names it, asked of the chain once. */
    blockchainId: createBlockchainId(deps.chain),
    /** GET: the dare as an Action, its buttons disabled with the reason once it takes no SOL. */
    describeDare: (id: number, origin: string) => describeDare(deps, id, origin),
    /** The dare's share image: its title and pool, drawn. */
    icon: async (id: number) => dareIconSvg(await actionDare(deps, id)),
    /** POST: the unsigned deposit of `amount` from `account`, for the wallet to sign and pay. */
    buildDeposit: (id: number, input: { account: string; amount: string; ip: string }) =>
      buildDeposit(deps, id, input),
    /** links.next: the wallet's transaction confirmed and credited, and what it added. */
    complete: (id: number, input: { account: string; signature: string; ip: string; origin: string }) =>
      completeDeposit(deps, id, input),
  };
}

export type ActionsService = ReturnType<typeof createActionsService>;
