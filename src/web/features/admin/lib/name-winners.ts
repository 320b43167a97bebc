import type { LandedProposal, ProposeTransaction } from '#contract/judging';
import type { PaymentSigner } from '#web/lib/payments/payment-wallet';
import { signBase64Transaction } from '#web/lib/payments/sign-transaction';

/**
 * What mark-winner (or a Major Dare pick) answered (MarkWinnerResponse): a v2 vault's three shapes, or anything else
 * from a v1 vault (a claim by the old rules, or a Major Dare's first pick recorded).
 */
export type NamingStep =
  | { kind: 'confirm'; propose: ProposeTransaction }
  | { kind: 'proposed'; proposal: LandedProposal }
  | { kind: 'signaturesNeeded'; signaturesNeeded: number }
  | { kind: 'recorded' };

export function readNamingAnswer(answer: unknown): NamingStep {
  const value = (answer ?? {}) as Record<string, unknown>;
  if (value.proposal && typeof value.proposal === 'object')
    return { kind: 'proposed', proposal: value.proposal as LandedProposal };
  if (typeof value.signaturesNeeded === 'number')
    return { kind: 'signaturesNeeded', signaturesNeeded: value.signaturesNeeded };
  if ('winners' in value && 'executesAt' in value && typeof value.transaction === 'string')
    return { kind: 'confirm', propose: value as unknown as ProposeTransaction };
  return { kind: 'recorded' };
}

export interface SignAndRelayDeps {
  /** A wallet holding one of the judges' addresses; throws noJudgeWallet otherwise. */
  connectJudge(judges: readonly string[]): Promise<PaymentSigner>;
  /** The same call that answered the transaction, now with `signedTransaction`. */
  send(signedTransaction: string): Promise<unknown>;
}

/**
 * The judge's half of naming winners (issue 24): the wallet must be one of the dare's judges
 * (checked before anything is signed), signs the propose as the server prepared it, and the same
 * call relays it; the answer is the landed proposal, or how many more judges must sign.
 */
export async function signAndRelay(
  input: { transaction: string; judges: readonly string[] },
  deps: SignAndRelayDeps,
): Promise<NamingStep> {
  const signer = await deps.connectJudge(input.judges);
  const signed = await signBase64Transaction(signer, input.transaction);
  const step = readNamingAnswer(await deps.send(signed));
  // A signed propose never comes back for confirming again: that would be a loop, not progress.
  if (step.kind === 'confirm') throw new Error('The server asked for the same signature again');
  return step;
}

/** The toast after a step that finished (web-only wording beside the contract's). */
export function describeNamed(
  step: Exclude<NamingStep, { kind: 'confirm' }>,
  words: { paysOn: (executesAt: string) => string; recorded: string },
): { title: string; description?: string } {
  if (step.kind === 'proposed')
    return { title: 'Winner named', description: words.paysOn(step.proposal.executesAt) };
  if (step.kind === 'signaturesNeeded')
    return {
      title: 'Your signature is in',
      description: `${step.signaturesNeeded} more ${step.signaturesNeeded === 1 ? 'judge' : 'judges'} must sign in the admin panel's Payout proposals`,
    };
  return { title: words.recorded };
}
