import { Loader2 } from 'lucide-react';
import { cn } from '../../lib/utils';

export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <output aria-label={label} className="flex justify-center p-8">
      <Loader2 className={cn('size-8 animate-spin text-primary', className)} aria-hidden />
    </output>
  );
}
