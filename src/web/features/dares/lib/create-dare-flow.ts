import type { CreateDareRequest, Dare } from '#contract/dares';
import { CREATE_DARE_DEFAULTS } from '#contract/limits';
import type { Cluster } from '#contract/network';
import {
  type EscrowFundingDeps,
  type EscrowFundingEvents,
  type PaidStake,
  runEscrowFunding,
} from '#web/lib/payments/escrow-funding-flow';
import type { ValidCreateDareForm } from './validate-create-dare-form';

export type { PaidStake } from '#web/lib/payments/escrow-funding-flow';

export interface CreateDareFlowDeps extends EscrowFundingDeps {
  createDare(request: CreateDareRequest): Promise<Dare>;
}

/** docs/product.md#create-dare-flow: the stake into a fresh escrow, then the dare with its signature. */
export async function runCreateDare(
  input: {
    form: ValidCreateDareForm;
    walletAddress: string;
    cluster: Cluster;
    vaultRentSol: string;
    networkFeeSol?: string;
    paid?: PaidStake | null;
  },
  deps: CreateDareFlowDeps,
  events: EscrowFundingEvents,
): Promise<{ dare: Dare; signature: string }> {
  const { form, walletAddress, cluster } = input;
  const { result, signature } = await runEscrowFunding(
    {
      amount: form.stakeAmount,
      walletAddress,
      cluster,
      vaultRentSol: input.vaultRentSol,
      networkFeeSol: input.networkFeeSol,
      vault: { deadline: form.deadline, kind: 'community' },
      dare: { title: form.title, description: form.description },
      paid: input.paid,
    },
    deps,
    events,
    (paid) =>
      deps.createDare({
        title: form.title,
        description: form.description,
        stakeAmount: form.stakeAmount,
        difficulty: form.difficulty,
        category: form.category,
        deadline: form.deadline,
        maxParticipants: CREATE_DARE_DEFAULTS.maxParticipants,
        isPublic: form.visibility !== 'private',
        tags: [],
        imageUrl: null,
        userWallet: walletAddress,
        transactionSignature: paid.signature,
        network: cluster,
        escrowWalletAddress: paid.escrowWalletAddress,
      }),
  );
  return { dare: result, signature };
}
