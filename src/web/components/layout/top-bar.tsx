import { Flame, LogOut, Menu, RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { ConnectWalletButton } from '#web/components/common/connect-wallet-button';
import { WalletBalanceSlot } from '#web/components/payments/wallet-balance-slot';
import { Button } from '#web/components/ui/button';
import { useAuth } from '#web/lib/session/auth-provider';
import { cn } from '#web/lib/utils';
import { TOP_BAR, visibleItems } from './nav-items';

/**
 * docs/product.md#navigation: brand, links, and the session controls; `bell` is the notification
 * bell the router passes in (it renders nothing for a visitor).
 */
export function TopBar({ onOpenMenu, bell }: { onOpenMenu: () => void; bell?: ReactNode }) {
  const { user, isAdmin, logout, refresh } = useAuth();
  return (
    <header className="sticky top-0 z-40 flex h-16 items-center gap-2 border-b bg-background/95 px-3 backdrop-blur sm:gap-3 sm:px-4">
      <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open menu" onClick={onOpenMenu}>
        <Menu aria-hidden />
      </Button>
      <Brand />
      <nav aria-label="Top" className="ml-4 hidden items-center gap-1 lg:flex">
        {visibleItems(TOP_BAR, isAdmin).map(({ to, label }) => (
          <NavLink
            key={to}
            to={to}
            end={to === '/'}
            className={({ isActive }) =>
              cn(
                'rounded-md px-3 py-2 text-sm font-medium transition-colors',
                isActive ? 'text-primary' : 'text-muted-foreground hover:text-foreground',
              )
            }
          >
            {label}
          </NavLink>
        ))}
      </nav>
      <div className="ml-auto flex min-w-0 items-center gap-2">
        {user ? (
          <>
            {/* On a phone: the balance chip stays, Get test SOL and the name move to the menu. */}
            <WalletBalanceSlot testSolClassName="hidden sm:inline-flex" />
            <span
              className="hidden max-w-20 truncate text-sm font-medium sm:inline sm:max-w-32"
              data-testid="current-username"
            >
              {user.username}
            </span>
            {bell}
            {/* Icon-only below sm, keeping their names for screen readers: a phone fits them all. */}
            <Button variant="outline" size="sm" onClick={() => void refresh()}>
              <RefreshCw aria-hidden />
              <span className="sr-only sm:not-sr-only">Refresh</span>
            </Button>
            <Button variant="secondary" size="sm" onClick={() => void logout()}>
              <LogOut aria-hidden />
              <span className="sr-only sm:not-sr-only">Logout</span>
            </Button>
          </>
        ) : (
          <ConnectWalletButton size="sm" />
        )}
      </div>
    </header>
  );
}

/** docs/product.md#navigation: the header shows the product as a dare platform. */
function Brand() {
  return (
    <Link to="/" className="flex shrink-0 items-center gap-2 rounded-md" aria-label="DarePool home">
      <Flame className="size-7 text-primary" aria-hidden />
      <span className="flex flex-col leading-tight">
        {/* Icon-only on the narrowest phones: the top bar's room goes to the wallet balance. */}
        <span className="hidden text-lg font-extrabold tracking-tight min-[400px]:block">DarePool</span>
        <span className="hidden text-xs text-muted-foreground sm:block">The dare platform on Solana</span>
      </span>
    </Link>
  );
}
