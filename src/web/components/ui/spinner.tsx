import { Loader2 } from 'lucide-react';
import { cn } from '#web/lib/utils';

/** A loading indicator announced to screen readers by its label. */
export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <output aria-label={label} className={cn('flex justify-center p-8', className)}>
      <Loader2 className="size-8 animate-spin text-primary motion-reduce:animate-none" aria-hidden />
    </output>
  );
}
