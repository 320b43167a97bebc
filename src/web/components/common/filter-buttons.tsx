import { Button } from '#web/components/ui/button';

export interface FilterOption<T extends string> {
  value: T;
  label: string;
}

/** A row of toggle buttons choosing one filter; the pressed one is the current filter. */
export function FilterButtons<T extends string>({
  label,
  options,
  value,
  onChange,
}: {
  /** Names the group for screen readers, e.g. 'Filter dares'. */
  label: string;
  options: readonly FilterOption<T>[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset would need a visible legend; this is a toolbar of toggles.
    <div role="group" aria-label={label} className="flex flex-wrap gap-2">
      {options.map((option) => (
        <Button
          key={option.value}
          type="button"
          size="sm"
          variant={value === option.value ? 'default' : 'outline'}
          aria-pressed={value === option.value}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </Button>
      ))}
    </div>
  );
}
