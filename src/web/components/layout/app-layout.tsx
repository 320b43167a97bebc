import { Flame } from 'lucide-react';
import { type ReactNode, Suspense, useState } from 'react';
import { Outlet } from 'react-router';
import { Sheet, SheetContent, SheetTitle } from '#web/components/ui/sheet';
import { Spinner } from '#web/components/ui/spinner';
import { SideMenu } from './side-menu';
import { TopBar } from './top-bar';

/**
 * The shell around every page: top bar, side menu (a drawer below md), the page, and `dialogs`,
 * the sign-in dialogs the router passes in, and `bell`, the top bar's notification bell (the shell
 * imports no feature).
 */
export function AppLayout({ dialogs, bell }: { dialogs?: ReactNode; bell?: ReactNode }) {
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <div className="min-h-dvh">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-primary px-3 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <TopBar onOpenMenu={() => setMenuOpen(true)} bell={bell} />
      <div className="flex">
        <aside className="sticky top-16 hidden h-[calc(100dvh-4rem)] w-64 shrink-0 flex-col border-r md:flex">
          <SideMenu />
        </aside>
        <Sheet open={menuOpen} onOpenChange={setMenuOpen}>
          {/* The menu is its own description: no aria-describedby, stated so Radix does not warn. */}
          <SheetContent side="left" closeLabel="Close menu" aria-describedby={undefined}>
            <div className="flex h-16 shrink-0 items-center gap-2 border-b px-4">
              <Flame className="size-6 text-primary" aria-hidden />
              <SheetTitle>Menu</SheetTitle>
            </div>
            <SideMenu onNavigate={() => setMenuOpen(false)} />
          </SheetContent>
        </Sheet>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 p-4 outline-none md:p-8">
          <Suspense fallback={<Spinner label="Loading page" />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
      {dialogs}
    </div>
  );
}
