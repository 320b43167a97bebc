/**
 * POST: the unsigned deposit of `amount` from `account`, its fee payer and only signer. Built by
 * Add to Pool's own builder with its checks; counted per address, as it reads the chain.
 */
import type { ActionPostResponse } from '@solana/actions';
import { normalizeSol } from '#contract/money';
import { badRequest } from '#server/errors';
import { limit } from '#server/rate-limit/limit';
import { RATE_LIMITS } from '#server/rate-limits';
import { actionDare, actionPath, closedReason } from './action-dare';
import { parseAddress, parseAmount } from './action-input';
import { ACTION_MESSAGES } from './action-terms';
import type { ActionsDeps } from './actions-deps';

export async function buildDeposit(
  deps: ActionsDeps,
  id: number,
  input: { account: string; amount: string; ip: string },
): Promise<ActionPostResponse> {
  await limit(
    deps.limiter,
    `action:${input.ip}`,
    RATE_LIMITS.actionTransactions,
    'Too many requests; wait a minute',
  );
  const amount = parseAmount(input.amount);
  const account = parseAddress(input.account, ACTION_MESSAGES.invalidAccount);
  const dare = await actionDare(deps, id);
  const reason = closedReason(dare, deps.clock());
  if (reason || !dare.escrowWallet) throw badRequest(reason ?? ACTION_MESSAGES.dareNotFound);
  const built = await deps.payments.buildWalletContribution({
    escrowWallet: dare.escrowWallet,
    from: account,
    amount,
  });
  return {
    type: 'transaction',
    transaction: built.transaction,
    message: `Adds ${normalizeSol(amount)} SOL to the pool of “${dare.title}”.`,
    links: { next: { type: 'post', href: `${actionPath(dare.id)}/completed` } },
  };
}
