/** GET: the dare as an Action, its buttons disabled with the reason once it takes no SOL. */
import type { ActionGetResponse } from '@solana/actions';
import type { Dare } from '#contract/dares';
import { POOL_ADD_MIN_SOL } from '#contract/limits';
import { normalizeSol } from '#contract/money';
import { actionDare, actionPath, closedReason } from './action-dare';
import { ACTION_AMOUNT_MAX_SOL, ACTION_AMOUNTS } from './action-terms';
import type { ActionsDeps } from './actions-deps';

function dareDescription(dare: Dare): string {
  const pool = normalizeSol(dare.totalPool);
  const deadline = dare.deadline ? ` Deadline: ${new Date(dare.deadline).toUTCString()}.` : '';
  return (
    `${dare.description}\n\nPool: ${pool} SOL.${deadline} ` +
    'Backing adds your SOL to the pool held by the escrow program: it goes to the winner the judges name, ' +
    'or back to you if the dare ends without one. Your first contribution also lends about 0.0018 SOL of rent, returned when the dare ends.'
  );
}

export async function describeDare(
  deps: ActionsDeps,
  id: number,
  origin: string,
): Promise<ActionGetResponse> {
  const dare = await actionDare(deps, id);
  const href = actionPath(dare.id);
  const reason = closedReason(dare, deps.clock());
  return {
    type: 'action',
    icon: `${origin}${href}/icon.svg`,
    title: dare.title,
    description: dareDescription(dare),
    label: 'Back this dare',
    ...(reason ? { disabled: true, error: { message: reason } } : {}),
    links: {
      actions: [
        ...ACTION_AMOUNTS.map((amount) => ({
          type: 'transaction' as const,
          label: `Add ${amount} SOL`,
          href: `${href}?amount=${amount}`,
        })),
        {
          type: 'transaction' as const,
          label: 'Add to Pool',
          href: `${href}?amount={amount}`,
          parameters: [
            {
              type: 'number' as const,
              name: 'amount',
              label: `SOL (${POOL_ADD_MIN_SOL} to ${ACTION_AMOUNT_MAX_SOL})`,
              required: true,
              min: Number(POOL_ADD_MIN_SOL),
              max: Number(ACTION_AMOUNT_MAX_SOL),
            },
          ],
        },
      ],
    },
  };
}
