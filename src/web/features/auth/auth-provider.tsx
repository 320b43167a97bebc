import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import type { PublicUser } from '../../../contract/users';
import { toast } from '../../components/ui/use-toast';
import { apiRequest } from '../../lib/api-client';
import { clearSession, readToken, readUser, writeSession } from '../../lib/storage';
import { disconnectWallet } from './lib/sign-in';

interface AuthContextValue {
  user: PublicUser | null;
  token: string | null;
  isAdmin: boolean;
  setSession(user: PublicUser, token: string): void;
  logout(options?: { silent?: boolean }): Promise<void>;
  refresh(): Promise<void>;
  connectOpen: boolean;
  openConnect(): void;
  closeConnect(): void;
  /** A verified wallet without an account, waiting in the Registration dialog (spec section 4). */
  pendingRegistration: PendingRegistration | null;
  setPendingRegistration(pending: PendingRegistration | null): void;
}

export interface PendingRegistration {
  walletAddress: string;
  registrationToken: string;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  // Spec section 3: a stored user is restored at start.
  const [user, setUser] = useState<PublicUser | null>(() => readUser());
  const [token, setToken] = useState<string | null>(() => readToken());
  const [connectOpen, setConnectOpen] = useState(false);
  const [pendingRegistration, setPendingRegistration] = useState<PendingRegistration | null>(null);

  const setSession = useCallback((next: PublicUser, nextToken: string) => {
    writeSession(next, nextToken);
    setUser(next);
    setToken(nextToken);
  }, []);

  const logout = useCallback(
    async (options: { silent?: boolean } = {}) => {
      // Revoke on the server first so the token stops working, even if this browser is shared.
      if (readToken()) await apiRequest('POST', '/api/auth/logout').catch(() => undefined);
      await disconnectWallet().catch((error) => console.info('Wallet did not disconnect', error));
      clearSession();
      setUser(null);
      setToken(null);
      setPendingRegistration(null);
      queryClient.removeQueries({
        predicate: (query) => query.queryKey.some((part) => part === 'user-scoped'),
      });
      if (!options.silent) toast({ title: 'Logged Out', description: 'You have been logged out.' });
    },
    [queryClient],
  );

  const refresh = useCallback(async () => {
    try {
      const { user: fresh } = await apiRequest<{ user: PublicUser }>('GET', '/api/auth/me');
      writeSession(fresh);
      setUser(fresh);
      toast({
        title: 'User Data Refreshed',
        description: fresh.isAdmin ? 'Admin privileges now active!' : 'User data updated',
      });
    } catch (error) {
      // Spec section 8: errors on refresh are only logged.
      console.info('Refresh failed', error);
    }
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      token,
      isAdmin: user?.isAdmin === true,
      setSession,
      logout,
      refresh,
      connectOpen,
      openConnect: () => setConnectOpen(true),
      closeConnect: () => setConnectOpen(false),
      pendingRegistration,
      setPendingRegistration,
    }),
    [user, token, setSession, logout, refresh, connectOpen, pendingRegistration],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used inside AuthProvider');
  return context;
}
