import { CheckCircle2, MailWarning } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  NOTIFICATION_KINDS,
  type NotificationKind,
  type NotificationSettings,
  setEmailRequestSchema,
} from '#contract/notifications';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Input } from '#web/components/ui/input';
import { FieldError, Label } from '#web/components/ui/label';
import { Spinner } from '#web/components/ui/spinner';
import { Switch } from '#web/components/ui/switch';
import { toast } from '#web/components/ui/use-toast';
import { useAuth } from '#web/lib/session/auth-provider';
import {
  useNotificationSettings,
  useSetEmail,
  useUpdateNotificationSettings,
} from '../api/notification-settings';
import { NOTIFICATION_KIND_LABELS } from '../lib/kind-labels';

/** The Major Dare's start goes to those who opted in (its own switch, below), not a per-kind email. */
const EMAIL_KINDS = NOTIFICATION_KINDS.filter((kind) => kind !== 'major-dare-started');

/**
 * Profile's Notifications card (issue 35): the email address (a verification mail is sent; nothing
 * else goes to it until its link is opened), the verified state, one email switch per kind, and
 * the Major Dare opt-in. In-app notifications (the bell) are always on.
 */
export default function NotificationSettingsCard() {
  const { user } = useAuth();
  if (!user) return null;
  return <SettingsCard userId={user.id} />;
}

function SettingsCard({ userId }: { userId: number }) {
  const settings = useNotificationSettings(userId);
  useVerifiedNotice();
  return (
    <Card role="region" aria-label="Notification settings">
      <CardHeader>
        <CardTitle>Notifications</CardTitle>
        <CardDescription>
          The bell at the top tells you about your proofs, winners named on your dares, payouts and refunds.
          Add an email address to receive them by mail too.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {settings.isPending ? (
          <Spinner label="Loading notification settings" className="p-4" />
        ) : settings.isError ? (
          <p role="alert" className="text-sm text-destructive">
            Notification settings could not be loaded: {settings.error.message}
          </p>
        ) : (
          <>
            <EmailField userId={userId} email={settings.data.email} />
            <Preferences userId={userId} settings={settings.data} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** The verification mail's link lands on /profile?email=verified: said once, then taken off the URL. */
function useVerifiedNotice() {
  const [params, setParams] = useSearchParams();
  const verified = params.get('email') === 'verified';
  const told = useRef(false);
  useEffect(() => {
    if (!verified || told.current) return;
    told.current = true;
    toast({ title: 'Email verified', description: 'Notifications you switched on will be mailed to you.' });
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('email');
        return next;
      },
      { replace: true },
    );
  }, [verified, setParams]);
}

function EmailField({ userId, email }: { userId: number; email: NotificationSettings['email'] }) {
  const id = useId();
  const [value, setValue] = useState(email.address ?? '');
  const [error, setError] = useState<string | undefined>();
  const setEmail = useSetEmail(userId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = setEmailRequestSchema.safeParse({ email: value });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    setEmail.mutate(parsed.data.email);
  };

  return (
    <form onSubmit={submit} className="grid gap-2" noValidate>
      <Label htmlFor={`${id}-email`}>Email address</Label>
      <div className="flex flex-wrap gap-2">
        <Input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          className="min-w-0 flex-1 basis-56"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : `${id}-state`}
        />
        <Button type="submit" disabled={setEmail.isPending || value.trim() === ''}>
          {email.address ? 'Change email' : 'Save email'}
        </Button>
      </div>
      <FieldError id={`${id}-error`} message={error} />
      <p id={`${id}-state`} className="flex items-center gap-1.5 text-sm" data-testid="email-state">
        {email.address === null ? (
          <span className="text-muted-foreground">No email address: notifications stay in the app.</span>
        ) : email.verified ? (
          <>
            <CheckCircle2 className="size-4 text-success" aria-hidden />
            <span>
              <span className="font-medium">{email.address}</span> is verified.
            </span>
          </>
        ) : (
          <>
            <MailWarning className="size-4 text-destructive" aria-hidden />
            <span>
              <span className="font-medium">{email.address}</span> is not verified yet: open the link we
              mailed to it. Until then it receives nothing else.
            </span>
          </>
        )}
      </p>
    </form>
  );
}

function Preferences({ userId, settings }: { userId: number; settings: NotificationSettings }) {
  const id = useId();
  const update = useUpdateNotificationSettings(userId);
  const emailOn = (kind: NotificationKind) => settings.preferences.email[kind] ?? true;
  // The whole map is sent with the one switch changed: the server keeps exactly what it is sent.
  const setEmailOn = (kind: NotificationKind, checked: boolean) =>
    update.mutate({
      email: {
        ...Object.fromEntries(NOTIFICATION_KINDS.map((each) => [each, emailOn(each)])),
        [kind]: checked,
      } as Record<NotificationKind, boolean>,
    });
  const canMail = settings.email.address !== null && settings.email.verified;
  return (
    <div className="grid gap-4">
      <fieldset className="grid gap-3">
        <legend className="mb-2 text-sm font-medium">Email me when</legend>
        {!canMail && (
          <p className="text-sm text-muted-foreground">These apply once your email address is verified.</p>
        )}
        {EMAIL_KINDS.map((kind) => (
          <div key={kind} className="flex items-center justify-between gap-4">
            <Label htmlFor={`${id}-${kind}`} className="font-normal leading-snug">
              {NOTIFICATION_KIND_LABELS[kind]}
            </Label>
            <Switch
              id={`${id}-${kind}`}
              checked={emailOn(kind)}
              disabled={update.isPending}
              onCheckedChange={(checked) => setEmailOn(kind, checked)}
            />
          </div>
        ))}
      </fieldset>
      <div className="flex items-center justify-between gap-4 rounded-md border p-4">
        <div className="grid gap-1">
          <Label htmlFor={`${id}-major`}>Tell me when a Major Dare opens</Label>
          <p id={`${id}-major-description`} className="text-sm text-muted-foreground">
            Off unless you opt in: then in the app, and by email too if you choose.
          </p>
        </div>
        <Switch
          id={`${id}-major`}
          checked={settings.majorDareOptIn}
          disabled={update.isPending}
          onCheckedChange={(checked) => update.mutate({ majorDareOptIn: checked })}
          aria-describedby={`${id}-major-description`}
        />
      </div>
      {settings.majorDareOptIn && (
        <div className="flex items-center justify-between gap-4">
          <Label htmlFor={`${id}-major-email`} className="font-normal leading-snug">
            Email me too when a Major Dare opens
          </Label>
          <Switch
            id={`${id}-major-email`}
            checked={emailOn('major-dare-started')}
            disabled={update.isPending}
            onCheckedChange={(checked) => setEmailOn('major-dare-started', checked)}
          />
        </div>
      )}
    </div>
  );
}
