import { type FormEvent, type ReactNode, useId } from 'react';
import { DARE_LIMITS } from '../../../../contract/dares';
import { DIFFICULTIES, STAKE_MAX_SOL, STAKE_MIN_SOL } from '../../../../contract/limits';
import type { MajorDareForm as MajorDareFormValues } from '../../../../contract/major-dare';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { FieldError, Label } from '../../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { Textarea } from '../../../components/ui/textarea';
import type { MajorDareField, MajorDareFormErrors } from '../lib/create-major-dare';

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * Spec section 5 'Major dare creation form': title, category (free text), description, difficulty,
 * prizeAmount (min 0.01, step 0.01), maxParticipants (min 1), deadline. Controlled by the dialog;
 * `noValidate` lets the contract's messages show instead of the browser's.
 */
export function MajorDareForm({
  values,
  errors,
  onChange,
  onSubmit,
  isPending,
  minDeadline,
  prizeHint,
  children,
}: {
  values: MajorDareFormValues;
  errors: MajorDareFormErrors;
  onChange: <F extends MajorDareField>(field: F, value: MajorDareFormValues[F]) => void;
  onSubmit: () => void;
  isPending: boolean;
  minDeadline: string;
  /** Beside the prize's label: the wallet's available balance. */
  prizeHint?: ReactNode;
  children?: ReactNode;
}) {
  const id = useId();
  const fieldId = (name: MajorDareField) => `${id}-${name}`;
  const errorId = (name: MajorDareField) => `${id}-${name}-error`;
  const described = (name: MajorDareField) => ({
    id: fieldId(name),
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? errorId(name) : undefined,
  });
  const field = (name: MajorDareField, label: string, control: ReactNode, hint?: ReactNode) => (
    <div className="grid gap-1.5">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <Label htmlFor={fieldId(name)}>{label}</Label>
        {hint}
      </div>
      {control}
      <FieldError id={errorId(name)} message={errors[name]} />
    </div>
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!isPending) onSubmit();
  }

  return (
    <form className="grid gap-4" aria-label="Create major dare" onSubmit={submit} noValidate>
      <fieldset disabled={isPending} className="grid min-w-0 gap-3">
        {field(
          'title',
          'Title',
          <Input
            value={values.title}
            maxLength={DARE_LIMITS.titleMax}
            onChange={(event) => onChange('title', event.target.value)}
            {...described('title')}
          />,
        )}
        {field(
          'category',
          'Category',
          <Input
            value={values.category}
            maxLength={40}
            placeholder="e.g. Fitness"
            onChange={(event) => onChange('category', event.target.value)}
            {...described('category')}
          />,
        )}
        {field(
          'description',
          'Description',
          <Textarea
            rows={3}
            value={values.description}
            maxLength={DARE_LIMITS.descriptionMax}
            onChange={(event) => onChange('description', event.target.value)}
            {...described('description')}
          />,
        )}
        <div className="grid gap-3 sm:grid-cols-2">
          {field(
            'difficulty',
            'Difficulty',
            <Select
              value={values.difficulty}
              onValueChange={(value) => onChange('difficulty', value as MajorDareFormValues['difficulty'])}
              disabled={isPending}
            >
              <SelectTrigger {...described('difficulty')}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {DIFFICULTIES.map((value) => (
                  <SelectItem key={value} value={value}>
                    {capitalize(value)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>,
          )}
          {field(
            'prizeAmount',
            'Prize Amount (SOL)',
            <Input
              type="number"
              inputMode="decimal"
              step="0.01"
              min={STAKE_MIN_SOL}
              max={STAKE_MAX_SOL}
              value={values.prizeAmount}
              onChange={(event) => onChange('prizeAmount', event.target.value)}
              {...described('prizeAmount')}
            />,
            prizeHint,
          )}
          {field(
            'maxParticipants',
            'Max Participants',
            <Input
              type="number"
              inputMode="numeric"
              step="1"
              min={1}
              max={DARE_LIMITS.maxParticipantsMax}
              value={Number.isNaN(values.maxParticipants) ? '' : values.maxParticipants}
              onChange={(event) => onChange('maxParticipants', event.target.valueAsNumber)}
              {...described('maxParticipants')}
            />,
          )}
          {field(
            'deadline',
            'Deadline',
            <Input
              type="datetime-local"
              min={minDeadline}
              value={values.deadline}
              onChange={(event) => onChange('deadline', event.target.value)}
              {...described('deadline')}
            />,
          )}
        </div>
      </fieldset>
      {children}
      <Button type="submit" disabled={isPending}>
        {isPending ? 'Creating Major Dare...' : 'Create Major Dare'}
      </Button>
    </form>
  );
}
