/**
 * Escrow v2's error codes (Custom(n) in a failed instruction). 1-30 mean what they mean in
 * version 1 (19 now names the canceller; 21, settle's window, is never returned); 31 on are new.
 */
import { ESCROW_ERRORS, errorLookups } from '#server/chain/escrow-program/errors';

export { customErrorCode } from '#server/chain/escrow-program/errors';

export const ESCROW_V2_ERRORS = {
  ...ESCROW_ERRORS,
  13: ['InvalidRefundAfter', 'Refunds must open between the deadline and 60 days after it'],
  19: ['NotCanceller', "Only the dare's canceller may do this"],
  31: ['InvalidJudges', 'A vault needs 1 to 5 distinct judges and a threshold between 1 and their number'],
  32: ['InvalidPayoutWindow', 'The payout window must be between 1 hour and 7 days'],
  33: ['DeadlineTooFar', 'The deadline is more than 400 days away'],
  34: ['NotAJudge', 'A signer of the proposal is not a judge of this dare'],
  35: ['NotEnoughJudges', 'Not enough judges signed the proposal'],
  36: ['WrongWinnerCount', 'A community dare names one winner, a major dare two'],
  37: ['ProposalPending', 'Winners have been named: the payout window is running'],
  38: ['ProposalTooLate', 'Too late to name winners: the payout window would end after refunds open'],
  39: ['NoProposal', 'No winners have been named'],
  40: ['WindowNotPassed', 'The payout window has not passed yet'],
  41: ['WindowPassed', 'The payout window has passed: too late to veto'],
  42: ['NotGuardian', "Only the dare's guardian may veto"],
  43: ['WrongWinner', 'The accounts are not the proposed winners'],
  44: ['UnpayableWinner', 'The winner account cannot receive SOL (it is executable)'],
} as const satisfies Record<number, readonly [string, string]>;

export type EscrowV2ErrorCode = keyof typeof ESCROW_V2_ERRORS;
export type EscrowV2ErrorName = (typeof ESCROW_V2_ERRORS)[EscrowV2ErrorCode][0];

const lookups = errorLookups(ESCROW_V2_ERRORS);
export const ESCROW_V2_ERROR_CODE = lookups.codes;
export const escrowV2ErrorName = lookups.name;
export const escrowV2ErrorMessage = lookups.message;
