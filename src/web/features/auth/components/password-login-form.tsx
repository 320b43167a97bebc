import { type FormEvent, useState } from 'react';
import { Button } from '#web/components/ui/button';
import { Input } from '#web/components/ui/input';
import { Label } from '#web/components/ui/label';
import { toast } from '#web/components/ui/use-toast';
import { useAuth } from '#web/lib/session/auth-provider';
import { login } from '../api/login';

export function PasswordLoginForm() {
  const auth = useAuth();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    try {
      const { user, token } = await login({ username, password });
      auth.setSession(user, token);
      auth.closeConnect();
      toast({ title: 'Login Successful', description: 'Welcome back!' });
    } catch {
      // docs/product.md#sign-in-toasts: any login error reads 'Invalid credentials'.
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
          onChange={(event) => setUsername(event.target.value)}
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
          onChange={(event) => setPassword(event.target.value)}
          required
        />
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? 'Logging in...' : 'Log In'}
      </Button>
    </form>
  );
}
