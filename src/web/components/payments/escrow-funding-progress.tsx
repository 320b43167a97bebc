import { Check, Circle, Loader2, X } from 'lucide-react';
import {
  CREATE_DARE_STEPS,
  type StepStatus,
  type StepStatuses,
} from '#web/lib/payments/escrow-funding-steps';
import { cn } from '#web/lib/utils';

const STATUS_TEXT: Record<StepStatus, string> = {
  pending: 'Waiting',
  running: 'In progress',
  done: 'Done',
  failed: 'Failed',
};

function StatusIcon({ status }: { status: StepStatus }) {
  const className = 'size-4 shrink-0';
  if (status === 'running')
    return (
      <Loader2
        className={cn(className, 'animate-spin text-primary motion-reduce:animate-none')}
        aria-hidden
      />
    );
  if (status === 'done') return <Check className={cn(className, 'text-success')} aria-hidden />;
  if (status === 'failed') return <X className={cn(className, 'text-destructive')} aria-hidden />;
  return <Circle className={cn(className, 'text-muted-foreground')} aria-hidden />;
}

/**
 * The seven steps of docs/product.md#create-dare-flow as they run (a dare's stake or a major dare's prize): which one is under way (also `aria-current`),
 * which are done, which failed. Each state is written out, not only drawn, for screen readers.
 */
export function EscrowFundingProgress({ steps }: { steps: StepStatuses }) {
  return (
    <ol aria-label="Create dare progress" className="grid gap-2 rounded-lg border bg-card p-4 text-sm">
      {CREATE_DARE_STEPS.map(({ id, label }, index) => {
        const status = steps[id];
        return (
          <li
            key={id}
            data-status={status}
            aria-current={status === 'running' ? 'step' : undefined}
            className="flex items-center gap-2"
          >
            <StatusIcon status={status} />
            <span className={cn('flex-1', status === 'pending' && 'text-muted-foreground')}>
              {index + 1}. {label}
            </span>
            <span
              className={cn(
                'text-xs',
                status === 'failed' ? 'text-destructive' : 'text-muted-foreground',
                status === 'done' && 'text-success',
              )}
            >
              {STATUS_TEXT[status]}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
