import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { PublicUser } from '../../../contract/users';
import { toast } from '../../components/ui/use-toast';
import {
  clearSession,
  onSessionChangedElsewhere,
  readToken,
  readUser,
  writeSession,
} from '../../lib/storage';
import { getMe } from './api/get-me';
import { logout as revokeSession } from './api/logout';
import { disconnectWallet } from './lib/sign-in';

/** A verified wallet without an account, waiting in the Registration dialog (spec section 4). */
export interface PendingRegistration {
  walletAddress: string;
  registrationToken: string;
}

export interface AuthContextValue {
  user: PublicUser | null;
  token: string | null;
  isAdmin: boolean;
  /** After a successful sign-in or registration: stores and shows the user. */
  setSession(user: PublicUser, token: string): void;
  /** Revokes the token, disconnects the wallet, clears storage; toasts 'Logged Out' unless silent. */
  logout(options?: { silent?: boolean }): Promise<void>;
  /** The top bar's Refresh: replaces the stored user with the server's current record. */
  refresh(): Promise<void>;
  /** Whether the Connect Wallet dialog is open. */
  connectOpen: boolean;
  openConnect(): void;
  closeConnect(): void;
  pendingRegistration: PendingRegistration | null;
  setPendingRegistration(pending: PendingRegistration | null): void;
}

/**
 * Query keys that hold one user's data carry this part, so logout can drop them without
 * touching public reads.
 */
export const USER_SCOPED = 'user-scoped';

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  // Spec section 3: a stored user is restored at start.
  const [user, setUser] = useState<PublicUser | null>(readUser);
  const [token, setToken] = useState<string | null>(readToken);
  const [connectOpen, setConnectOpen] = useState(false);
  const [pendingRegistration, setPendingRegistration] = useState<PendingRegistration | null>(null);

  useEffect(
    () =>
      onSessionChangedElsewhere(() => {
        setUser(readUser());
        setToken(readToken());
      }),
    [],
  );

  const setSession = useCallback((next: PublicUser, nextToken: string) => {
    writeSession(next, nextToken);
    setUser(next);
    setToken(nextToken);
  }, []);

  const logout = useCallback(
    async (options: { silent?: boolean } = {}) => {
      // Revoked on the server first, so the token stops working even if this browser is shared.
      if (readToken()) await revokeSession().catch(() => undefined);
      // Spec section 8: errors on wallet disconnect are only logged.
      await disconnectWallet().catch((error) => console.info('Wallet did not disconnect', error));
      clearSession();
      setUser(null);
      setToken(null);
      setPendingRegistration(null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey.includes(USER_SCOPED) });
      if (!options.silent) toast({ title: 'Logged Out', description: 'You have been logged out.' });
    },
    [queryClient],
  );

  const refresh = useCallback(async () => {
    try {
      const fresh = await getMe();
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

  const openConnect = useCallback(() => setConnectOpen(true), []);
  const closeConnect = useCallback(() => setConnectOpen(false), []);

  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      token,
      isAdmin: user?.isAdmin === true,
      setSession,
      logout,
      refresh,
      connectOpen,
      openConnect,
      closeConnect,
      pendingRegistration,
      setPendingRegistration,
    }),
    [user, token, setSession, logout, refresh, connectOpen, openConnect, closeConnect, pendingRegistration],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used inside AuthProvider');
  return context;
}
