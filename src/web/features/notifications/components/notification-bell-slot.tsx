import { lazy, Suspense } from 'react';
import { useAuth } from '#web/lib/session/auth-provider';

// The bell (popover, list, live updates) is its own chunk: a page paints before it loads.
const NotificationBell = lazy(() => import('./notification-bell'));

/** Mounted by the top bar: the bell of the signed-in user, nothing for a visitor. */
export function NotificationBellSlot() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <Suspense fallback={null}>
      <NotificationBell key={user.id} userId={user.id} />
    </Suspense>
  );
}
