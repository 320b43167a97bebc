/** What our Actions offer and say: the amounts, the spec version they follow, their messages. */
import { POOL_ADD_MIN_SOL, STAKE_MAX_SOL } from '#contract/limits';

/** The amounts offered as buttons; the field takes any amount Add to Pool takes, up to the max. */
export const ACTION_AMOUNTS = ['0.05', '0.1', '0.5'] as const;
export const ACTION_AMOUNT_MAX_SOL = STAKE_MAX_SOL;
/** The Actions specification version these answers follow (the X-Action-Version header). */
export const ACTION_VERSION = '2.4';

export const ACTION_MESSAGES = {
  dareNotFound: 'Dare not found',
  invalidAmount: `Enter an amount from ${POOL_ADD_MIN_SOL} to ${ACTION_AMOUNT_MAX_SOL} SOL`,
  invalidAccount: 'account must be a Solana address (base58)',
  invalidSignature: 'signature must be a transaction signature (base58)',
  notCredited: 'This transaction put nothing into this dare from that account',
  notConfirmed: 'The transaction is not confirmed yet; it will be credited once it is',
  failed: 'The transaction failed on chain; nothing was added',
} as const;
