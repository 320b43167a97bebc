import type { FormEvent, ReactNode } from 'react';
import { type CreateDareForm as CreateDareFormValues, DARE_VISIBILITIES } from '#contract/dares';
import { CATEGORIES } from '#contract/limits';
import {
  ChoiceField,
  DareFieldset,
  DeadlineField,
  DescriptionField,
  DifficultyField,
  SolAmountField,
  TitleField,
} from '#web/components/common/dare-fieldset';
import { Button } from '#web/components/ui/button';
import { Card, CardContent } from '#web/components/ui/card';
import type { CreateDareField, CreateDareFormErrors } from '../lib/validate-create-dare-form';

/**
 * docs/product.md#create-dare: title, description, stake (SOL, step 0.01, min 0.01), difficulty,
 * category, deadline (datetime-local) and 'Create Dare' / 'Creating Dare...'. Controlled, so the
 * page can reset it after a dare is created; `noValidate` lets the messages of docs/product.md#create-dare-form-rules (from the
 * contract) show instead of the browser's own.
 */
export function CreateDareForm({
  values,
  errors,
  onChange,
  onSubmit,
  isPending,
  stakeHint,
  children,
}: {
  values: CreateDareFormValues;
  errors: CreateDareFormErrors;
  onChange: <F extends CreateDareField>(field: F, value: CreateDareFormValues[F]) => void;
  onSubmit: () => void;
  isPending: boolean;
  /** Beside the stake's label: the wallet's available balance. */
  stakeHint?: ReactNode;
  /** Shown between the fields and the button: the progress of a running creation. */
  children?: ReactNode;
}) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!isPending) onSubmit();
  }

  return (
    <Card>
      <CardContent className="pt-5">
        <form
          className="grid grid-cols-[minmax(0,1fr)] gap-4"
          aria-label="Create dare"
          onSubmit={submit}
          noValidate
        >
          <DareFieldset errors={errors} disabled={isPending} className="gap-4">
            <TitleField value={values.title} onChange={(value) => onChange('title', value)} />
            <DescriptionField
              rows={4}
              value={values.description}
              onChange={(value) => onChange('description', value)}
            />
            <SolAmountField
              name="stakeAmount"
              label="Stake Amount (SOL)"
              hint={stakeHint}
              value={values.stakeAmount}
              onChange={(value) => onChange('stakeAmount', value)}
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <DifficultyField
                value={values.difficulty}
                onChange={(value) => onChange('difficulty', value)}
              />
              <ChoiceField
                name="category"
                label="Category"
                options={CATEGORIES}
                placeholder="Choose a category"
                value={values.category}
                onChange={(value) => onChange('category', value)}
              />
            </div>
            <DeadlineField value={values.deadline} onChange={(value) => onChange('deadline', value)} />
            <ChoiceField
              name="visibility"
              label="Visibility"
              options={DARE_VISIBILITIES}
              value={values.visibility}
              onChange={(value) => onChange('visibility', value)}
            />
            <p className="-mt-2 text-xs text-muted-foreground">
              A private dare is left out of the lists and search: only people with its link find it.
            </p>
          </DareFieldset>
          {children}
          <Button type="submit" disabled={isPending}>
            {isPending ? 'Creating Dare...' : 'Create Dare'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
