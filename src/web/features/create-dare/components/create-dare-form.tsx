import { type FormEvent, useId } from 'react';
import {
  CATEGORIES,
  CREATE_DARE_DEFAULTS,
  DIFFICULTIES,
  STAKE_MAX_SOL,
  STAKE_MIN_SOL,
} from '../../../../contract/limits';
import { Button } from '../../../components/ui/button';
import { Card, CardContent } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { Textarea } from '../../../components/ui/textarea';

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * Spec section 2 'Create Dare'. The staking flow (balance check, escrow, signing, sending) comes
 * with the money issue through `onSubmit` and `isPending`; without it the form cannot be sent.
 */
export function CreateDareForm({
  onSubmit,
  isPending = false,
}: {
  onSubmit?: (form: FormData) => void;
  isPending?: boolean;
}) {
  const id = useId();
  const field = (name: string) => `${id}-${name}`;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSubmit?.(new FormData(event.currentTarget));
  }

  return (
    <Card>
      <CardContent className="pt-5">
        <form className="grid gap-4" aria-label="Create dare" onSubmit={submit}>
          <div className="grid gap-1.5">
            <Label htmlFor={field('title')}>Title</Label>
            <Input id={field('title')} name="title" required maxLength={200} />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={field('description')}>Description</Label>
            <Textarea id={field('description')} name="description" required rows={4} />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={field('stakeAmount')}>Stake Amount (SOL)</Label>
            <Input
              id={field('stakeAmount')}
              name="stakeAmount"
              type="number"
              inputMode="decimal"
              step="0.01"
              min={STAKE_MIN_SOL}
              max={STAKE_MAX_SOL}
              required
            />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-1.5">
              <Label htmlFor={field('difficulty')}>Difficulty</Label>
              <Select name="difficulty" defaultValue={CREATE_DARE_DEFAULTS.difficulty}>
                <SelectTrigger id={field('difficulty')}>
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
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={field('category')}>Category</Label>
              <Select name="category" defaultValue={CREATE_DARE_DEFAULTS.category}>
                <SelectTrigger id={field('category')}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {CATEGORIES.map((value) => (
                    <SelectItem key={value} value={value}>
                      {capitalize(value)}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={field('deadline')}>Deadline</Label>
            <Input id={field('deadline')} name="deadline" type="datetime-local" required />
          </div>
          <Button type="submit" disabled={!onSubmit || isPending}>
            {isPending ? 'Creating Dare...' : 'Create Dare'}
          </Button>
          {!onSubmit && (
            <p className="text-center text-sm text-muted-foreground">Creating dares is not open yet.</p>
          )}
        </form>
      </CardContent>
    </Card>
  );
}
