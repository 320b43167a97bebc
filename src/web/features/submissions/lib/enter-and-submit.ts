import {
  type EnterTransactionRequest,
  SUBMISSION_MESSAGES,
  type Submission,
  type SubmitVideoRequest,
} from '#contract/submissions';
import { ApiError } from '#web/lib/api-client';
import type { PaymentSigner } from '#web/lib/payments/payment-wallet';
import { signBase64Transaction } from '#web/lib/payments/sign-transaction';

export interface EnterAndSubmitDeps {
  requestEntry(dareId: number, body: EnterTransactionRequest): Promise<{ transaction: string }>;
  connectWallet(walletAddress: string): Promise<PaymentSigner>;
  submit(dareId: number, body: SubmitVideoRequest): Promise<Submission>;
}

export type EnterStage = 'entering' | 'signing' | 'submitting';

/**
 * Submit Video's last part (docs/product.md#submit-video-rules): the server builds the user's
 * entry of the dare on chain, the wallet signs it ('Sign to enter this dare on chain: only
 * entrants can be paid'), and the proof goes with it; the server relays the entry and records the
 * proof once it is on chain. A user who entered already (a retry after the entry landed) submits
 * without signing again.
 */
export async function enterAndSubmit(
  input: { dareId: number; walletAddress: string; videoUrl: string; description: string },
  deps: EnterAndSubmitDeps,
  onStage: (stage: EnterStage) => void = () => {},
): Promise<Submission> {
  const { dareId, walletAddress, videoUrl, description } = input;
  onStage('entering');
  let signedEntryTransaction: string | undefined;
  try {
    // The entry carries the fingerprint of this very video (decision 038).
    const { transaction } = await deps.requestEntry(dareId, { videoUrl });
    onStage('signing');
    const signer = await deps.connectWallet(walletAddress);
    signedEntryTransaction = await signBase64Transaction(signer, transaction);
  } catch (error) {
    const entered =
      error instanceof ApiError &&
      error.status === 409 &&
      error.message === SUBMISSION_MESSAGES.alreadyEntered;
    if (!entered) throw error;
  }
  onStage('submitting');
  return deps.submit(dareId, { videoUrl, description, signedEntryTransaction });
}
