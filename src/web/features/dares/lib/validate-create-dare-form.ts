import { type CreateDareForm, createDareFormSchema } from '#contract/dares';
import { normalizeSol } from '#contract/money';
import { checkDeadline } from '#web/lib/deadline';

export type CreateDareField = keyof CreateDareForm;
export type CreateDareFormErrors = Partial<Record<CreateDareField, string>>;

/** The form once valid: the stake in canonical SOL text, the deadline an ISO instant. */
export type ValidCreateDareForm = CreateDareForm;

/**
 * docs/product.md#create-dare-form-rules with the contract's messages, plus the deadline rules the server applies when
 * the dare is recorded. Those are checked here, before any SOL moves: the server can only judge
 * the deadline at step 7, after the stake is already paid.
 */
export function validateCreateDareForm(
  form: CreateDareForm,
  now: Date = new Date(),
): { ok: true; value: ValidCreateDareForm } | { ok: false; errors: CreateDareFormErrors } {
  const errors: CreateDareFormErrors = {};
  const parsed = createDareFormSchema.safeParse(form);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors[issue.path[0] as CreateDareField] ??= issue.message;
  }
  let deadline: Date | null = null;
  if (!errors.deadline) {
    const checked = checkDeadline(form.deadline, now);
    if (checked.ok) deadline = checked.deadline;
    else errors.deadline = checked.error;
  }
  if (!parsed.success || !deadline || Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      ...parsed.data,
      stakeAmount: normalizeSol(parsed.data.stakeAmount),
      deadline: deadline.toISOString(),
    },
  };
}
