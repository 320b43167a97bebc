import type { CreateDareRequest, Dare } from '../../../../contract/dares';
import { CREATE_DARE_DEFAULTS } from '../../../../contract/limits';
import { type Cluster, networkLabel } from '../../../../contract/network';
import type { CreateTransactionResponse } from '../../../../contract/payments';
import { balanceUnavailableMessage, checkAffordable } from '../../payments/lib/balance-check';
import { PaymentError } from '../../payments/lib/payment-errors';
import type { PaymentSigner } from '../../payments/lib/payment-wallet';
import { signBase64Transaction } from '../../payments/lib/sign-transaction';
import type { CreateDareStepId, StepStatus } from './steps';
import type { ValidCreateDareForm } from './validate-form';

/** A stake that reached the escrow but whose dare was not recorded yet (step 7 failed). */
export interface PaidStake {
  walletAddress: string;
  stakeAmount: string;
  escrowWalletAddress: string;
  signature: string;
}

/** The calls the flow makes; the hook passes the real ones, tests pass fakes. */
export interface CreateDareFlowDeps {
  connectWallet(walletAddress: string): Promise<PaymentSigner>;
  checkBalance(walletAddress: string): Promise<bigint>;
  createEscrowWallet(): Promise<{ publicKey: string }>;
  createTransaction(request: {
    fromWallet: string;
    toWallet: string;
    amount: string;
  }): Promise<CreateTransactionResponse>;
  sendTransaction(signedTransaction: string): Promise<string>;
  createDare(request: CreateDareRequest): Promise<Dare>;
}

export interface CreateDareFlowEvents {
  onStep(step: CreateDareStepId, status: StepStatus): void;
  /** After step 6: the stake is on chain; keep it so a retry only repeats step 7. */
  onPaid(paid: PaidStake): void;
}

const PAID_STEPS: readonly CreateDareStepId[] = ['connect', 'balance', 'escrow', 'build', 'sign', 'send'];

/**
 * Spec section 4 'Create dare flow': connect, check the balance, reserve an escrow, build the
 * transfer, sign it in the wallet, send it, then record the dare with the signature. Reports each
 * step as it starts, ends or fails. With `paid` (same wallet and stake) it goes straight to step
 * 7: the server answers a repeated signature with the same dare, so this never pays twice.
 */
export async function runCreateDare(
  input: { form: ValidCreateDareForm; walletAddress: string; cluster: Cluster; paid?: PaidStake | null },
  deps: CreateDareFlowDeps,
  events: CreateDareFlowEvents,
): Promise<{ dare: Dare; signature: string }> {
  const { form, walletAddress, cluster } = input;
  let current: CreateDareStepId | null = null;
  async function step<T>(id: CreateDareStepId, work: () => Promise<T>): Promise<T> {
    current = id;
    events.onStep(id, 'running');
    const result = await work();
    events.onStep(id, 'done');
    return result;
  }

  try {
    let paid =
      input.paid?.walletAddress === walletAddress && input.paid.stakeAmount === form.stakeAmount
        ? input.paid
        : null;
    if (paid) {
      for (const id of PAID_STEPS) events.onStep(id, 'done');
    } else {
      const signer = await step('connect', () => deps.connectWallet(walletAddress));
      await step('balance', async () => {
        const balance = await deps.checkBalance(walletAddress).catch(() => {
          throw new PaymentError(balanceUnavailableMessage(walletAddress));
        });
        const problem = checkAffordable({
          balance,
          amount: form.stakeAmount,
          network: networkLabel(cluster),
          walletAddress,
        });
        if (problem) throw new PaymentError(problem);
      });
      const escrow = await step('escrow', () => deps.createEscrowWallet());
      const built = await step('build', () =>
        deps.createTransaction({
          fromWallet: walletAddress,
          toWallet: escrow.publicKey,
          amount: form.stakeAmount,
        }),
      );
      const signed = await step('sign', () => signBase64Transaction(signer, built.transaction));
      const signature = await step('send', () => deps.sendTransaction(signed));
      paid = {
        walletAddress,
        stakeAmount: form.stakeAmount,
        escrowWalletAddress: escrow.publicKey,
        signature,
      };
      events.onPaid(paid);
    }
    const { signature, escrowWalletAddress } = paid;
    const dare = await step('record', () =>
      deps.createDare({
        ...form,
        maxParticipants: CREATE_DARE_DEFAULTS.maxParticipants,
        isPublic: CREATE_DARE_DEFAULTS.isPublic,
        tags: [],
        imageUrl: null,
        userWallet: walletAddress,
        transactionSignature: signature,
        network: cluster,
        escrowWalletAddress,
      }),
    );
    return { dare, signature };
  } catch (error) {
    if (current) events.onStep(current, 'failed');
    throw error;
  }
}
