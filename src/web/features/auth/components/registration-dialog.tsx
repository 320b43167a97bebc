import { type FormEvent, useState } from 'react';
import { AUTH_MESSAGES, registrationFormSchema } from '#contract/auth';
import { Button } from '#web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#web/components/ui/dialog';
import { Input } from '#web/components/ui/input';
import { FieldError, Label } from '#web/components/ui/label';
import { ApiError } from '#web/lib/api-client';
import { type PendingRegistration, useAuth } from '#web/lib/session/auth-provider';
import { useSystemSwitches } from '#web/lib/settings';
import { disconnectWallet } from '#web/lib/wallet/connected-wallet';

type Field = 'username' | 'password' | 'confirmPassword';

/** docs/product.md#registration-dialog: a connected wallet without an account. */
export function RegistrationDialog({ pending }: { pending: PendingRegistration }) {
  const auth = useAuth();
  const [form, setForm] = useState<Record<Field, string>>({
    username: '',
    password: '',
    confirmPassword: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  /** The server's reason when it is about no one field (e.g. 'Username already taken'). */
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // Switched off by an admin: said before the form, not after Submit (the server refuses anyway).
  const closed = useSystemSwitches().data?.registrationEnabled === false;

  const edit = (field: Field, value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    // docs/product.md#registration-rules: a field's error clears when the user edits it.
    setErrors((current) => ({ ...current, [field]: undefined }));
    setFormError(null);
  };

  async function cancel() {
    auth.setPendingRegistration(null);
    await disconnectWallet().catch(() => undefined);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = registrationFormSchema.safeParse(form);
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as Field] ??= issue.message;
      setErrors(next);
      return;
    }
    setSubmitting(true);
    try {
      // The auth flow creates the account and toasts (issue 13): the dialog only collects the form.
      await auth.register({ username: parsed.data.username, password: parsed.data.password });
    } catch (error) {
      if (error instanceof ApiError && error.fields)
        setErrors(error.fields as Partial<Record<Field, string>>);
      else setFormError(error instanceof Error && error.message ? error.message : 'Please try again');
    } finally {
      setSubmitting(false);
    }
  }

  const field = (name: Field, label: string, type: string, autoComplete: string) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`register-${name}`}>{label}</Label>
      <Input
        id={`register-${name}`}
        type={type}
        autoComplete={autoComplete}
        value={form[name]}
        aria-invalid={!!errors[name]}
        aria-describedby={errors[name] ? `register-${name}-error` : undefined}
        onChange={(event) => edit(name, event.target.value)}
      />
      <FieldError id={`register-${name}-error`} message={errors[name]} />
    </div>
  );

  return (
    <Dialog open onOpenChange={(open) => !open && void cancel()}>
      <DialogContent
        onOpenAutoFocus={(event) => {
          // Radix would focus the first input, the read-only address: start where the user types.
          event.preventDefault();
          (document.getElementById('register-username') ?? undefined)?.focus();
        }}
      >
        <DialogHeader>
          {/* Nothing to complete while registration is off (issue 37, item 13). */}
          <DialogTitle>{closed ? 'Registration Unavailable' : 'Complete Registration'}</DialogTitle>
          <DialogDescription>
            {closed
              ? `${AUTH_MESSAGES.registrationDisabled}: this wallet has no account yet, and new accounts cannot be created right now. An existing account can still sign in.`
              : 'Your wallet is connected. Please complete your profile to continue.'}
          </DialogDescription>
        </DialogHeader>
        {closed ? (
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => void cancel()}>
              Close
            </Button>
          </DialogFooter>
        ) : (
          <form onSubmit={submit} className="grid gap-4" noValidate>
            <div className="grid gap-1.5">
              <Label htmlFor="register-wallet">Wallet Address</Label>
              <Input
                id="register-wallet"
                value={pending.walletAddress}
                readOnly
                className="font-mono text-xs"
              />
            </div>
            {field('username', 'Username', 'text', 'username')}
            {field('password', 'Password', 'password', 'new-password')}
            {field('confirmPassword', 'Confirm Password', 'password', 'new-password')}
            {formError && (
              <p role="alert" className="text-sm text-destructive">
                {formError}
              </p>
            )}
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => void cancel()}>
                Cancel
              </Button>
              <Button type="submit" disabled={submitting}>
                {submitting ? 'Creating Account...' : 'Complete Registration'}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
