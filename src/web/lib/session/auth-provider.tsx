import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { PublicUser } from '#contract/users';
import { toast } from '#web/components/ui/use-toast';
import { onSessionEnded } from '#web/lib/api-client';
import { clearSession, onSessionChangedElsewhere, readToken, readUser, writeSession } from '#web/lib/storage';
import { disconnectWallet } from '#web/lib/wallet/connected-wallet';
import { getMe } from './api/get-me';
import { logout as revokeSession } from './api/logout';
import { register as createAccount } from './api/register';

/** A verified wallet without an account, waiting in the Registration dialog (docs/product.md#sign-in-states). */
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
  /**
   * docs/product.md#sign-in-states: creates the pending wallet's account, logs it in, closes the Registration
   * dialog and clears the pending wallet. Toasts the auth flow's texts (docs/product.md#sign-in-toasts) and
   * re-throws a failure so the dialog can show the reason beside its fields.
   */
  register(input: { username: string; password: string }): Promise<PublicUser>;
  /** Revokes the token, disconnects the wallet, clears storage; toasts 'Logged Out' unless silent. */
  logout(options?: { silent?: boolean }): Promise<void>;
  /** The top bar's Refresh: replaces the stored user with the server's current record. */
  refresh(): Promise<void>;
  /** Whether the Connect Wallet dialog is open. */
  connectOpen: boolean;
  /** The server ended the session (expired or revoked): the sign-in prompt says so. */
  sessionEnded: boolean;
  openConnect(): void;
  /** Starts fetching the Connect Wallet dialog's code (pointer over or focus on a button that opens it). */
  preloadConnect(): void;
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

/**
 * The session for the whole app. The sign-in dialogs belong to the auth feature, which the app
 * wires in: `preloadConnect` fetches their code, the layout's slot renders them.
 */
export function AuthProvider({
  children,
  preloadConnect,
}: {
  children: ReactNode;
  preloadConnect: () => void;
}) {
  const queryClient = useQueryClient();
  // docs/product.md#browser-storage: a stored user is restored at start.
  const [user, setUser] = useState<PublicUser | null>(readUser);
  const [token, setToken] = useState<string | null>(readToken);
  const [connectOpen, setConnectOpen] = useState(false);
  const [sessionEnded, setSessionEnded] = useState(false);
  const [pendingRegistration, setPendingRegistration] = useState<PendingRegistration | null>(null);
  /** While logout revokes the token, its own 401 (a token already dead) is not news. */
  const loggingOut = useRef(false);

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
    setSessionEnded(false);
  }, []);

  const register = useCallback(
    // A failure is toasted with the spec's title and the server's reason ('Username already
    // taken'; 'Failed to create account' when it gave none), then re-thrown: the dialog also shows
    // it beside the form (docs/product.md#sign-in-toasts; issue 37, item 13).
    async ({ username, password }: { username: string; password: string }) => {
      if (!pendingRegistration) throw new Error('No wallet is waiting for registration');
      const session = await createAccount({
        username,
        password,
        walletAddress: pendingRegistration.walletAddress,
        registrationToken: pendingRegistration.registrationToken,
      }).catch((error: unknown) => {
        toast({
          title: 'Registration Failed',
          description: error instanceof Error && error.message ? error.message : 'Failed to create account',
          variant: 'destructive',
        });
        throw error;
      });
      setSession(session.user, session.token);
      setPendingRegistration(null);
      toast({ title: 'Registration Successful', description: 'Account created successfully!' });
      return session.user;
    },
    [pendingRegistration, setSession],
  );

  /** The logged-out state of docs/product.md#sign-in-states: no stored user or token, no pending wallet, no user data. */
  const signOutLocally = useCallback(async () => {
    // docs/product.md#sign-in-toasts: errors on wallet disconnect are only logged.
    await disconnectWallet().catch((error) => console.info('Wallet did not disconnect', error));
    clearSession();
    setUser(null);
    setToken(null);
    setPendingRegistration(null);
    queryClient.removeQueries({ predicate: (query) => query.queryKey.includes(USER_SCOPED) });
  }, [queryClient]);

  const logout = useCallback(
    async (options: { silent?: boolean } = {}) => {
      loggingOut.current = true;
      try {
        // Revoked on the server first, so the token stops working even if this browser is shared.
        if (readToken()) await revokeSession().catch(() => undefined);
        await signOutLocally();
      } finally {
        loggingOut.current = false;
      }
      if (!options.silent) toast({ title: 'Logged Out', description: 'You have been logged out.' });
    },
    [signOutLocally],
  );

  // Issue 13: a dead session shows as signed out, with the sign-in prompt open, rather than a
  // user who looks signed in while every action fails.
  useEffect(
    () =>
      onSessionEnded(() => {
        if (loggingOut.current) return;
        void signOutLocally();
        setSessionEnded(true);
        setConnectOpen(true);
      }),
    [signOutLocally],
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
      // docs/product.md#sign-in-toasts: errors on refresh are only logged.
      console.info('Refresh failed', error);
    }
  }, []);

  const openConnect = useCallback(() => setConnectOpen(true), []);
  const closeConnect = useCallback(() => {
    setConnectOpen(false);
    setSessionEnded(false);
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      token,
      isAdmin: user?.isAdmin === true,
      setSession,
      register,
      logout,
      refresh,
      connectOpen,
      sessionEnded,
      openConnect,
      preloadConnect,
      closeConnect,
      pendingRegistration,
      setPendingRegistration,
    }),
    [
      user,
      token,
      setSession,
      register,
      logout,
      refresh,
      connectOpen,
      sessionEnded,
      openConnect,
      preloadConnect,
      closeConnect,
      pendingRegistration,
    ],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used inside AuthProvider');
  return context;
}
