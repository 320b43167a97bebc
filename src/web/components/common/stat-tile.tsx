import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '#web/lib/utils';

/**
 * One number with its label. While its read is pending the tile shows `placeholder` (docs/product.md#home: the
 * zeros) and is marked busy, so the layout does not jump when the number arrives.
 */
export function StatTile({
  label,
  value,
  placeholder = '0',
  icon: Icon,
  hint,
  className,
}: {
  label: string;
  value: ReactNode | undefined;
  placeholder?: ReactNode;
  icon?: LucideIcon;
  /** A second line under the value, e.g. '3 active'. */
  hint?: ReactNode;
  className?: string;
}) {
  const isLoading = value === undefined;
  return (
    <div className={cn('rounded-lg border bg-card p-4', className)} aria-busy={isLoading || undefined}>
      <div className="flex items-center justify-between gap-2 text-sm text-muted-foreground">
        <span>{label}</span>
        {Icon && <Icon className="size-4 text-primary" aria-hidden />}
      </div>
      <p className={cn('mt-2 text-2xl font-bold tabular-nums', isLoading && 'text-muted-foreground')}>
        {isLoading ? placeholder : value}
      </p>
      {hint && <p className="mt-1 text-xs text-muted-foreground">{hint}</p>}
    </div>
  );
}
