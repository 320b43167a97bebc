import { type FormEvent, type ReactNode, useId } from 'react';
import { type CreateDareForm as CreateDareFormValues, DARE_LIMITS } from '../../../../contract/dares';
import { CATEGORIES, DIFFICULTIES, STAKE_MAX_SOL, STAKE_MIN_SOL } from '../../../../contract/limits';
import { Button } from '../../../components/ui/button';
import { Card, CardContent } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { FieldError, Label } from '../../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { Textarea } from '../../../components/ui/textarea';
import type { CreateDareField, CreateDareFormErrors } from '../lib/validate-form';

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * Spec section 2 'Create Dare': title, description, stake (SOL, step 0.01, min 0.01), difficulty,
 * category, deadline (datetime-local) and 'Create Dare' / 'Creating Dare...'. Controlled, so the
 * page can reset it after a dare is created; `noValidate` lets the spec's messages (from the
 * contract) show instead of the browser's own.
 */
export function CreateDareForm({
  values,
  errors,
  onChange,
  onSubmit,
  isPending,
  minDeadline,
  stakeHint,
  children,
}: {
  values: CreateDareFormValues;
  errors: CreateDareFormErrors;
  onChange: <F extends CreateDareField>(field: F, value: CreateDareFormValues[F]) => void;
  onSubmit: () => void;
  isPending: boolean;
  /** datetime-local value of now, so the picker offers no past dates. */
  minDeadline?: string;
  /** Beside the stake's label: the wallet's available balance. */
  stakeHint?: ReactNode;
  /** Shown between the fields and the button: the progress of a running creation. */
  children?: ReactNode;
}) {
  const id = useId();
  const fieldId = (name: CreateDareField) => `${id}-${name}`;
  const errorId = (name: CreateDareField) => `${id}-${name}-error`;
  const described = (name: CreateDareField) => ({
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? errorId(name) : undefined,
  });

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
          <fieldset disabled={isPending} className="grid min-w-0 gap-4">
            <div className="grid gap-1.5">
              <Label htmlFor={fieldId('title')}>Title</Label>
              <Input
                id={fieldId('title')}
                value={values.title}
                maxLength={DARE_LIMITS.titleMax}
                onChange={(event) => onChange('title', event.target.value)}
                {...described('title')}
              />
              <FieldError id={errorId('title')} message={errors.title} />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={fieldId('description')}>Description</Label>
              <Textarea
                id={fieldId('description')}
                rows={4}
                value={values.description}
                maxLength={DARE_LIMITS.descriptionMax}
                onChange={(event) => onChange('description', event.target.value)}
                {...described('description')}
              />
              <FieldError id={errorId('description')} message={errors.description} />
            </div>
            <div className="grid gap-1.5">
              <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                <Label htmlFor={fieldId('stakeAmount')}>Stake Amount (SOL)</Label>
                {stakeHint}
              </div>
              <Input
                id={fieldId('stakeAmount')}
                type="number"
                inputMode="decimal"
                step="0.01"
                min={STAKE_MIN_SOL}
                max={STAKE_MAX_SOL}
                value={values.stakeAmount}
                onChange={(event) => onChange('stakeAmount', event.target.value)}
                {...described('stakeAmount')}
              />
              <FieldError id={errorId('stakeAmount')} message={errors.stakeAmount} />
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="grid gap-1.5">
                <Label htmlFor={fieldId('difficulty')}>Difficulty</Label>
                <Select
                  value={values.difficulty}
                  onValueChange={(value) =>
                    onChange('difficulty', value as CreateDareFormValues['difficulty'])
                  }
                  disabled={isPending}
                >
                  <SelectTrigger id={fieldId('difficulty')} {...described('difficulty')}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {DIFFICULTIES.map((value) => (
                      <SelectItem key={value} value={value}>
                        {capitalize(value)}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
                <FieldError id={errorId('difficulty')} message={errors.difficulty} />
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor={fieldId('category')}>Category</Label>
                <Select
                  value={values.category}
                  onValueChange={(value) => onChange('category', value as CreateDareFormValues['category'])}
                  disabled={isPending}
                >
                  <SelectTrigger id={fieldId('category')} {...described('category')}>
                    <SelectValue placeholder="Choose a category" />
                  </SelectTrigger>
                  <SelectContent>
                    {CATEGORIES.map((value) => (
                      <SelectItem key={value} value={value}>
                        {capitalize(value)}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
                <FieldError id={errorId('category')} message={errors.category} />
              </div>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={fieldId('deadline')}>Deadline</Label>
              <Input
                id={fieldId('deadline')}
                type="datetime-local"
                min={minDeadline}
                value={values.deadline}
                onChange={(event) => onChange('deadline', event.target.value)}
                {...described('deadline')}
              />
              <FieldError id={errorId('deadline')} message={errors.deadline} />
            </div>
          </fieldset>
          {children}
          <Button type="submit" disabled={isPending}>
            {isPending ? 'Creating Dare...' : 'Create Dare'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
