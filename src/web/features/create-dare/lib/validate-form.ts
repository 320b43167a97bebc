import {
  type CreateDareForm,
  createDareFormSchema,
  DARE_LIMITS,
  DARE_MESSAGES,
} from '../../../../contract/dares';
import { normalizeSol } from '../../../../contract/money';
import { parseLocalDateTime } from './deadline';

export type CreateDareField = keyof CreateDareForm;
export type CreateDareFormErrors = Partial<Record<CreateDareField, string>>;

/** The form once valid: the stake in canonical SOL text, the deadline an ISO instant. */
export type ValidCreateDareForm = CreateDareForm;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Spec section 5 with the contract's messages, plus the deadline rules the server applies when
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
    deadline = parseLocalDateTime(form.deadline);
    if (!deadline) errors.deadline = DARE_MESSAGES.deadlineFormat;
    else if (deadline.getTime() <= now.getTime()) errors.deadline = DARE_MESSAGES.deadlinePast;
    else if (deadline.getTime() > now.getTime() + DARE_LIMITS.deadlineMaxDays * DAY_MS)
      errors.deadline = DARE_MESSAGES.deadlineTooFar;
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
