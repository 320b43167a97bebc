/**
 * links.next: waits for the wallet's transaction, credits the vault's straight deposits (the
 * notice: once, whoever runs it first), and answers what this account's transaction added.
 */
import type { CompletedAction } from '@solana/actions';
import { normalizeSol } from '#contract/money';
import { ConfirmationError, waitForConfirmation } from '#server/chain/confirmation';
import { badRequest } from '#server/errors';
import { limit } from '#server/rate-limit/limit';
import { RATE_LIMITS } from '#server/rate-limits';
import { actionDare, actionPath } from './action-dare';
import { parseAddress, parseSignature } from './action-input';
import { ACTION_MESSAGES } from './action-terms';
import type { ActionsDeps } from './actions-deps';
import { findBookedContribution } from './repo';

/** How long the callback waits for the wallet's transaction to be confirmed. */
const CALLBACK_CONFIRM_MS = 30_000;

export async function completeDeposit(
  deps: ActionsDeps,
  id: number,
  input: { account: string; signature: string; ip: string; origin: string },
): Promise<CompletedAction> {
  const { db, chain } = deps;
  await limit(
    deps.limiter,
    `action-done:${input.ip}`,
    RATE_LIMITS.actionCallbacks,
    'Too many requests; wait a minute',
  );
  const account = parseAddress(input.account, ACTION_MESSAGES.invalidAccount);
  const signature = parseSignature(input.signature);
  const dare = await actionDare(deps, id);
  if (!dare.escrowWallet) throw badRequest(ACTION_MESSAGES.notCredited);
  try {
    await waitForConfirmation(chain.rpc, signature, {
      commitment: 'confirmed',
      timeoutMs: CALLBACK_CONFIRM_MS,
    });
  } catch (error) {
    if (error instanceof ConfirmationError && error.reason === 'failed')
      throw badRequest(ACTION_MESSAGES.failed);
    if (error instanceof ConfirmationError) throw badRequest(ACTION_MESSAGES.notConfirmed);
    throw error;
  }
  const target = { escrowWallet: dare.escrowWallet, dareId: dare.id };
  let added = await findBookedContribution(db, { ...target, signature, payer: account });
  if (added === null) {
    await deps.noticeDeposits(target);
    added = await findBookedContribution(db, { ...target, signature, payer: account });
  }
  if (added === null) throw badRequest(ACTION_MESSAGES.notCredited);
  const now = await actionDare(deps, id);
  return {
    type: 'completed',
    icon: `${input.origin}${actionPath(dare.id)}/icon.svg`,
    title: dare.title,
    label: 'Backed',
    description: `You added ${normalizeSol(added)} SOL. The pool is now ${normalizeSol(now.totalPool)} SOL.`,
  };
}
