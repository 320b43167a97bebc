import type { Dare } from '#contract/dares';
import { type CreateMajorDareRequest, type MajorDareForm, majorDareFormSchema } from '#contract/major-dare';
import { normalizeSol } from '#contract/money';
import type { Cluster } from '#contract/network';
import { checkDeadline } from '#web/lib/deadline';
import {
  type EscrowFundingDeps,
  type EscrowFundingEvents,
  type PaidStake,
  runEscrowFunding,
} from '#web/lib/payments/escrow-funding-flow';

export type MajorDareField = keyof MajorDareForm;
export type MajorDareFormErrors = Partial<Record<MajorDareField, string>>;

/**
 * The create dialog's fields (docs/product.md#major-dare-form-rules) with the contract's messages, and the deadline
 * rules the server applies, checked before the admin's wallet pays the prize.
 */
export function validateMajorDareForm(
  form: MajorDareForm,
  now: Date = new Date(),
): { ok: true; value: MajorDareForm } | { ok: false; errors: MajorDareFormErrors } {
  const errors: MajorDareFormErrors = {};
  const parsed = majorDareFormSchema.safeParse(form);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors[issue.path[0] as MajorDareField] ??= issue.message;
  }
  const deadline = errors.deadline ? null : checkDeadline(form.deadline, now);
  if (deadline && !deadline.ok) errors.deadline = deadline.error;
  if (!parsed.success || !deadline?.ok || Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      ...parsed.data,
      prizeAmount: normalizeSol(parsed.data.prizeAmount),
      deadline: deadline.deadline.toISOString(),
    },
  };
}

export interface CreateMajorDareDeps extends EscrowFundingDeps {
  createMajorDare(request: CreateMajorDareRequest): Promise<Dare>;
}

/**
 * A major dare is funded like any dare: the admin's wallet stakes the prize into a fresh escrow
 * (the seven steps), then POST /api/admin/major-dare records it with the payment's signature.
 */
export async function runCreateMajorDare(
  input: {
    form: MajorDareForm;
    walletAddress: string;
    cluster: Cluster;
    vaultRentSol: string;
    networkFeeSol?: string;
    paid?: PaidStake | null;
  },
  deps: CreateMajorDareDeps,
  events: EscrowFundingEvents,
): Promise<{ dare: Dare; signature: string }> {
  const { form, walletAddress, cluster } = input;
  const { result, signature } = await runEscrowFunding(
    {
      amount: form.prizeAmount,
      walletAddress,
      cluster,
      vaultRentSol: input.vaultRentSol,
      networkFeeSol: input.networkFeeSol,
      vault: { deadline: form.deadline, kind: 'major' },
      dare: { title: form.title, description: form.description },
      paid: input.paid,
    },
    deps,
    events,
    (paid) =>
      deps.createMajorDare({
        ...form,
        userWallet: walletAddress,
        transactionSignature: paid.signature,
        escrowWalletAddress: paid.escrowWalletAddress,
      }),
  );
  return { dare: result, signature };
}
