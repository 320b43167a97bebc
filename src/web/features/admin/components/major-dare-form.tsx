import type { FormEvent, ReactNode } from 'react';
import { DARE_LIMITS } from '#contract/dares';
import type { MajorDareForm as MajorDareFormValues } from '#contract/major-dare';
import {
  DareField,
  DareFieldset,
  DeadlineField,
  DescriptionField,
  DifficultyField,
  SolAmountField,
  TitleField,
} from '#web/components/common/dare-fieldset';
import { Button } from '#web/components/ui/button';
import { Input } from '#web/components/ui/input';
import type { MajorDareField, MajorDareFormErrors } from '../lib/create-major-dare';

/**
 * docs/product.md#major-dare-form-rules: title, category (free text), description, difficulty,
 * prizeAmount (min 0.01, step 0.01), maxParticipants (min 1), deadline. Controlled by the dialog;
 * `noValidate` lets the contract's messages show instead of the browser's.
 */
export function MajorDareForm({
  values,
  errors,
  onChange,
  onSubmit,
  isPending,
  prizeHint,
  children,
}: {
  values: MajorDareFormValues;
  errors: MajorDareFormErrors;
  onChange: <F extends MajorDareField>(field: F, value: MajorDareFormValues[F]) => void;
  onSubmit: () => void;
  isPending: boolean;
  /** Beside the prize's label: the wallet's available balance. */
  prizeHint?: ReactNode;
  children?: ReactNode;
}) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!isPending) onSubmit();
  }

  return (
    <form className="grid gap-4" aria-label="Create major dare" onSubmit={submit} noValidate>
      <DareFieldset errors={errors} disabled={isPending} className="gap-3">
        <TitleField value={values.title} onChange={(value) => onChange('title', value)} />
        <DareField name="category" label="Category">
          {(control) => (
            <Input
              value={values.category}
              maxLength={40}
              placeholder="e.g. Fitness"
              onChange={(event) => onChange('category', event.target.value)}
              {...control}
            />
          )}
        </DareField>
        <DescriptionField
          rows={3}
          value={values.description}
          onChange={(value) => onChange('description', value)}
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <DifficultyField value={values.difficulty} onChange={(value) => onChange('difficulty', value)} />
          <SolAmountField
            name="prizeAmount"
            label="Prize Amount (SOL)"
            hint={prizeHint}
            value={values.prizeAmount}
            onChange={(value) => onChange('prizeAmount', value)}
          />
          <DareField name="maxParticipants" label="Max Participants">
            {(control) => (
              <Input
                type="number"
                inputMode="numeric"
                step="1"
                min={1}
                max={DARE_LIMITS.maxParticipantsMax}
                value={Number.isNaN(values.maxParticipants) ? '' : values.maxParticipants}
                onChange={(event) => onChange('maxParticipants', event.target.valueAsNumber)}
                {...control}
              />
            )}
          </DareField>
          <DeadlineField value={values.deadline} onChange={(value) => onChange('deadline', value)} />
        </div>
      </DareFieldset>
      {children}
      <Button type="submit" disabled={isPending}>
        {isPending ? 'Creating Major Dare...' : 'Create Major Dare'}
      </Button>
    </form>
  );
}
