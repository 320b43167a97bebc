/**
 * docs/product.md#create-dare-flow, in order; the progress list shows each one's state. A major
 * dare's prize is funded through the same steps, so they are named once, after the product's flow (docs/product.md#create-dare-flow).
 */
export const CREATE_DARE_STEPS = [
  { id: 'connect', label: 'Connect wallet' },
  { id: 'balance', label: 'Check balance' },
  { id: 'escrow', label: 'Create escrow wallet' },
  { id: 'build', label: 'Build transaction' },
  { id: 'sign', label: 'Sign in your wallet' },
  { id: 'send', label: 'Send transaction' },
  { id: 'record', label: 'Create dare record' },
] as const;

export type CreateDareStepId = (typeof CREATE_DARE_STEPS)[number]['id'];
export type StepStatus = 'pending' | 'running' | 'done' | 'failed';
export type StepStatuses = Record<CreateDareStepId, StepStatus>;

export function initialStepStatuses(): StepStatuses {
  return Object.fromEntries(CREATE_DARE_STEPS.map(({ id }) => [id, 'pending'])) as StepStatuses;
}
