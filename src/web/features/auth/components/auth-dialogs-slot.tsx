import { lazy, Suspense } from 'react';
import { useAuth } from '#web/lib/session/auth-provider';

const loadAuthDialogs = () => import('./auth-dialogs');
const AuthDialogs = lazy(loadAuthDialogs);

/** Starts fetching the dialogs' code early (pointer over or focus on a Connect Wallet button). */
export function preloadAuthDialogs() {
  void loadAuthDialogs();
}

/** Mounted once by the app layout; loads the sign-in dialogs the first time one opens. */
export function AuthDialogsSlot() {
  const { connectOpen, pendingRegistration } = useAuth();
  if (!connectOpen && !pendingRegistration) return null;
  return (
    <Suspense fallback={null}>
      <AuthDialogs />
    </Suspense>
  );
}
