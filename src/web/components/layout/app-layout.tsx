import * as DialogPrimitive from '@radix-ui/react-dialog';
import { lazy, Suspense, useState } from 'react';
import { Outlet } from 'react-router';
import { useAuth } from '../../features/auth/auth-provider';
import { SheetContent } from '../ui/dialog';
import { Spinner } from '../ui/spinner';
import { SideMenu } from './side-menu';
import { TopBar } from './top-bar';

// Wallet discovery and signing code loads only when someone connects.
const AuthDialogs = lazy(() => import('../../features/auth/components/auth-dialogs'));

export function AppLayout() {
  const [menuOpen, setMenuOpen] = useState(false);
  const { connectOpen, pendingRegistration } = useAuth();
  return (
    <div className="min-h-screen">
      <TopBar onOpenMenu={() => setMenuOpen(true)} />
      <div className="flex">
        <aside className="sticky top-16 hidden h-[calc(100vh-4rem)] w-64 shrink-0 border-r md:block">
          <SideMenu />
        </aside>
        <DialogPrimitive.Root open={menuOpen} onOpenChange={setMenuOpen}>
          <SheetContent title="Menu">
            <div className="h-16 shrink-0 border-b" />
            <SideMenu onNavigate={() => setMenuOpen(false)} />
          </SheetContent>
        </DialogPrimitive.Root>
        <main className="min-w-0 flex-1 p-4 md:p-8">
          <Suspense fallback={<Spinner />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
      {(connectOpen || pendingRegistration) && (
        <Suspense fallback={null}>
          <AuthDialogs />
        </Suspense>
      )}
    </div>
  );
}
