import { useQuery } from '@tanstack/react-query';
import { Wallet } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { registrationFormSchema } from '../../../../contract/auth';
import type { PublicConfig } from '../../../../contract/config';
import type { PublicUser } from '../../../../contract/users';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { FieldError, Label } from '../../../components/ui/label';
import { toast } from '../../../components/ui/use-toast';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { useAuth } from '../auth-provider';
import { createLocalDevWallet } from '../lib/dev-wallet';
import { disconnectWallet, signInWithWallet } from '../lib/sign-in';
import { listWallets, onWalletsChanged, type SigningWallet } from '../lib/wallets';

function welcome(user: PublicUser) {
  toast({
    title: 'Wallet Connected',
    description: `Welcome back, ${user.username}!${user.isAdmin ? ' (Admin)' : ''}`,
  });
}

function useInstalledWallets(): SigningWallet[] {
  const [wallets, setWallets] = useState(listWallets);
  useEffect(() => onWalletsChanged(() => setWallets(listWallets())), []);
  return wallets;
}

function ConnectWalletDialog() {
  const auth = useAuth();
  const wallets = useInstalledWallets();
  const { data: config } = useQuery<PublicConfig>({ queryKey: ['/api/config'] });
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    if (listWallets().length === 0) {
      toast({
        title: 'Phantom Wallet Not Found',
        description: 'Please install Phantom wallet to continue.',
        variant: 'destructive',
      });
    }
  }, []);

  async function connect(getWallet: () => Promise<SigningWallet> | SigningWallet, name: string) {
    setBusy(name);
    try {
      const wallet = await getWallet();
      const result = await signInWithWallet(wallet, () => {
        void auth.logout({ silent: true });
        toast({ title: 'Disconnected', description: 'You can now connect with a different wallet.' });
      });
      auth.closeConnect();
      if (result.kind === 'signed-in') {
        auth.setSession(result.user, result.token);
        welcome(result.user);
      } else {
        auth.setPendingRegistration({
          walletAddress: result.walletAddress,
          registrationToken: result.registrationToken,
        });
        toast({ title: 'New Wallet Detected', description: 'Please complete registration to continue.' });
      }
    } catch (error) {
      await disconnectWallet().catch(() => undefined);
      toast({
        title: 'Connection Failed',
        description: error instanceof Error && error.message ? error.message : 'Failed to connect to wallet',
        variant: 'destructive',
      });
    } finally {
      setBusy(null);
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && auth.closeConnect()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Connect Wallet</DialogTitle>
          <DialogDescription>Choose how to sign in.</DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          {wallets.map((wallet) => (
            <Button
              key={wallet.name}
              variant="outline"
              className="justify-start"
              disabled={busy !== null}
              onClick={() => void connect(() => wallet, wallet.name)}
            >
              <img src={wallet.icon} alt="" className="size-5" />
              {busy === wallet.name ? 'Connecting...' : wallet.name}
            </Button>
          ))}
          {wallets.length === 0 && (
            <p className="text-sm text-muted-foreground">
              No Solana wallet found in this browser.{' '}
              <a
                className="text-primary underline"
                href="https://phantom.app/download"
                target="_blank"
                rel="noopener noreferrer"
              >
                Install Phantom
              </a>{' '}
              and reload the page.
            </p>
          )}
          {config?.embeddedChain && (
            <Button
              variant="secondary"
              className="justify-start"
              disabled={busy !== null}
              onClick={() => void connect(createLocalDevWallet, 'local')}
            >
              <Wallet aria-hidden />
              {busy === 'local' ? 'Connecting...' : 'Local dev wallet (this browser only, test SOL)'}
            </Button>
          )}
        </div>
        <PasswordLoginForm />
      </DialogContent>
    </Dialog>
  );
}

function PasswordLoginForm() {
  const auth = useAuth();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    try {
      const { user, token } = await apiRequest<{ user: PublicUser; token: string }>(
        'POST',
        '/api/auth/login',
        {
          username,
          password,
        },
      );
      auth.setSession(user, token);
      auth.closeConnect();
      toast({ title: 'Login Successful', description: 'Welcome back!' });
    } catch {
      toast({ title: 'Login Failed', description: 'Invalid credentials', variant: 'destructive' });
    } finally {
      setPending(false);
    }
  }

  return (
    <form
      onSubmit={submit}
      className="grid gap-3 border-t pt-4"
      aria-label="Log in with username and password"
    >
      <p className="text-sm font-medium">Or log in with username and password</p>
      <div className="grid gap-1.5">
        <Label htmlFor="login-username">Username</Label>
        <Input
          id="login-username"
          autoComplete="username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          required
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="login-password">Password</Label>
        <Input
          id="login-password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
        />
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? 'Logging in...' : 'Log In'}
      </Button>
    </form>
  );
}

type Field = 'username' | 'password' | 'confirmPassword';

function RegistrationDialog() {
  const auth = useAuth();
  const pending = auth.pendingRegistration!;
  const [form, setForm] = useState<Record<Field, string>>({
    username: '',
    password: '',
    confirmPassword: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [submitting, setSubmitting] = useState(false);

  const edit = (field: Field, value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    // Spec section 5: a field's error clears when the user edits it.
    setErrors((current) => ({ ...current, [field]: undefined }));
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
      const { user, token } = await apiRequest<{ user: PublicUser; token: string }>(
        'POST',
        '/api/auth/register',
        {
          username: parsed.data.username,
          password: parsed.data.password,
          walletAddress: pending.walletAddress,
          registrationToken: pending.registrationToken,
        },
      );
      auth.setSession(user, token);
      auth.setPendingRegistration(null);
      toast({ title: 'Registration Successful', description: `Welcome to DarePool, ${user.username}!` });
    } catch (error) {
      if (error instanceof ApiError && error.fields)
        setErrors(error.fields as Partial<Record<Field, string>>);
      toast({
        title: 'Registration Failed',
        description: error instanceof Error && error.message ? error.message : 'Please try again',
        variant: 'destructive',
      });
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
        onChange={(e) => edit(name, e.target.value)}
      />
      <FieldError id={`register-${name}-error`} message={errors[name]} />
    </div>
  );

  return (
    <Dialog open onOpenChange={(open) => !open && void cancel()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Complete Registration</DialogTitle>
          <DialogDescription>
            Your wallet is connected. Please complete your profile to continue.
          </DialogDescription>
        </DialogHeader>
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
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => void cancel()}>
              Cancel
            </Button>
            <Button type="submit" disabled={submitting}>
              {submitting ? 'Creating Account...' : 'Complete Registration'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Loaded on demand: everything that talks to wallets stays out of the first page load. */
export default function AuthDialogs() {
  const { connectOpen, pendingRegistration } = useAuth();
  return (
    <>
      {connectOpen && <ConnectWalletDialog />}
      {pendingRegistration && <RegistrationDialog />}
    </>
  );
}
