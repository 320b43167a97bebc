import { Search } from 'lucide-react';
import { useState } from 'react';
import { Input } from '#web/components/ui/input';
import { useDebouncedValue } from '#web/lib/use-debounced-value';
import { cn } from '#web/lib/utils';

const SEARCH_DEBOUNCE_MS = 250;

/** A search box's text and the query it settles to: trimmed, once typing pauses for 250 ms. */
export function useSearch() {
  const [text, setText] = useState('');
  const query = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  return { text, setText, query };
}

/** A search field with its magnifier; `label` names it for screen readers (and tests). */
export function SearchInput({
  label,
  placeholder,
  value,
  onChange,
  className,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  className?: string;
}) {
  return (
    <div className={cn('relative', className)}>
      <Search
        className="pointer-events-none absolute top-3 left-3 size-4 text-muted-foreground"
        aria-hidden
      />
      <Input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        className="pl-9"
        maxLength={100}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
