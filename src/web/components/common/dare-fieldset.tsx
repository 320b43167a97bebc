import { createContext, type ReactNode, useContext, useId } from 'react';
import { DARE_LIMITS } from '#contract/dares';
import { DIFFICULTIES, type Difficulty, STAKE_MAX_SOL, STAKE_MIN_SOL } from '#contract/limits';
import { Input } from '#web/components/ui/input';
import { FieldError, Label } from '#web/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select';
import { Textarea } from '#web/components/ui/textarea';
import { toLocalDateTimeValue } from '#web/lib/deadline';
import { cn } from '#web/lib/utils';

interface FieldsetState {
  idPrefix: string;
  errors: Partial<Record<string, string>>;
  disabled: boolean;
}

const FieldsetContext = createContext<FieldsetState | null>(null);

function useFieldset(): FieldsetState {
  const state = useContext(FieldsetContext);
  if (!state) throw new Error('A dare field must be inside a DareFieldset');
  return state;
}

/**
 * The fields of a dare form, shared by Create Dare and the admin's Create Major Dare: disabled
 * while the form's payment runs, each field labelled and tied to the contract's error message
 * for screen readers. Each form lays out its own fields inside.
 */
export function DareFieldset({
  errors,
  disabled,
  className,
  children,
}: {
  errors: Partial<Record<string, string>>;
  disabled: boolean;
  /** The gap between the fields. */
  className?: string;
  children: ReactNode;
}) {
  const idPrefix = useId();
  return (
    <FieldsetContext.Provider value={{ idPrefix, errors, disabled }}>
      <fieldset disabled={disabled} className={cn('grid min-w-0', className)}>
        {children}
      </fieldset>
    </FieldsetContext.Provider>
  );
}

/** What a field's control needs: its id for the label, and its error for screen readers. */
export interface ControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** One field: its label (with `hint` beside it, such as the wallet's balance), the control, its error. */
export function DareField({
  name,
  label,
  hint,
  children,
}: {
  name: string;
  label: string;
  hint?: ReactNode;
  children: (control: ControlProps) => ReactNode;
}) {
  const { idPrefix, errors } = useFieldset();
  const id = `${idPrefix}-${name}`;
  const errorId = `${id}-error`;
  const error = errors[name];
  const labelElement = <Label htmlFor={id}>{label}</Label>;
  return (
    <div className="grid gap-1.5">
      {hint ? (
        <div className="flex flex-wrap items-baseline justify-between gap-x-3">
          {labelElement}
          {hint}
        </div>
      ) : (
        labelElement
      )}
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': error ? errorId : undefined,
      })}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

export function TitleField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <DareField name="title" label="Title">
      {(control) => (
        <Input
          value={value}
          maxLength={DARE_LIMITS.titleMax}
          onChange={(event) => onChange(event.target.value)}
          {...control}
        />
      )}
    </DareField>
  );
}

export function DescriptionField({
  value,
  onChange,
  rows,
}: {
  value: string;
  onChange: (value: string) => void;
  rows: number;
}) {
  return (
    <DareField name="description" label="Description">
      {(control) => (
        <Textarea
          rows={rows}
          value={value}
          maxLength={DARE_LIMITS.descriptionMax}
          onChange={(event) => onChange(event.target.value)}
          {...control}
        />
      )}
    </DareField>
  );
}

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** A choice from a fixed list, each option shown capitalized. */
export function ChoiceField<T extends string>({
  name,
  label,
  options,
  value,
  onChange,
  placeholder,
}: {
  name: string;
  label: string;
  options: readonly T[];
  value: T;
  onChange: (value: T) => void;
  placeholder?: string;
}) {
  const { disabled } = useFieldset();
  return (
    <DareField name={name} label={label}>
      {(control) => (
        <Select value={value} onValueChange={(next) => onChange(next as T)} disabled={disabled}>
          <SelectTrigger {...control}>
            <SelectValue placeholder={placeholder} />
          </SelectTrigger>
          <SelectContent>
            {options.map((option) => (
              <SelectItem key={option} value={option}>
                {capitalize(option)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      )}
    </DareField>
  );
}

export function DifficultyField({
  value,
  onChange,
}: {
  value: Difficulty;
  onChange: (value: Difficulty) => void;
}) {
  return (
    <ChoiceField
      name="difficulty"
      label="Difficulty"
      options={DIFFICULTIES}
      value={value}
      onChange={onChange}
    />
  );
}

/** The SOL paid into the dare's escrow (a stake, a prize): step 0.01, within the stake limits. */
export function SolAmountField({
  name,
  label,
  hint,
  value,
  onChange,
}: {
  name: string;
  label: string;
  hint?: ReactNode;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <DareField name={name} label={label} hint={hint}>
      {(control) => (
        <Input
          type="number"
          inputMode="decimal"
          step="0.01"
          min={STAKE_MIN_SOL}
          max={STAKE_MAX_SOL}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          {...control}
        />
      )}
    </DareField>
  );
}

/** datetime-local in the user's time zone; its `min` is now, so the picker offers no past dates. */
export function DeadlineField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <DareField name="deadline" label="Deadline">
      {(control) => (
        <Input
          type="datetime-local"
          min={toLocalDateTimeValue(new Date())}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          {...control}
        />
      )}
    </DareField>
  );
}
