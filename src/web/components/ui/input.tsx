import type { ComponentProps } from 'react';
import { cn } from '#web/lib/utils';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return (
    <input
      className={cn(
        'flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-sm placeholder:text-muted-foreground aria-invalid:border-destructive disabled:cursor-not-allowed disabled:opacity-50 read-only:opacity-80',
        className,
      )}
      {...props}
    />
  );
}
