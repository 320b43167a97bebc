import { Flame, LogOut, Menu, RefreshCw } from 'lucide-react';
import { Link, NavLink } from 'react-router';
import { useAuth } from '../../features/auth/auth-provider';
import { ConnectWalletButton } from '../../features/auth/components/connect-wallet-button';
import { cn } from '../../lib/utils';
import { Button } from '../ui/button';
import { TOP_BAR } from './nav-items';

export function TopBar({ onOpenMenu }: { onOpenMenu: () => void }) {
  const { user, isAdmin, logout, refresh } = useAuth();
  return (
    <header className="sticky top-0 z-40 flex h-16 items-center gap-3 border-b bg-background/95 px-4 backdrop-blur">
      <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open menu" onClick={onOpenMenu}>
        <Menu aria-hidden />
      </Button>
      <Link to="/" className="flex items-center gap-2 font-bold text-lg">
        <Flame className="size-6 text-primary" aria-hidden />
        <span>DarePool</span>
        <span className="hidden text-xs font-normal text-muted-foreground lg:inline">
          Dare platform on Solana
        </span>
      </Link>
      <nav aria-label="Top" className="ml-6 hidden items-center gap-1 lg:flex">
        {TOP_BAR.filter((item) => !item.adminOnly || isAdmin).map(({ to, label }) => (
          <NavLink
            key={to}
            to={to}
            end={to === '/'}
            className={({ isActive }) =>
              cn(
                'rounded-md px-3 py-2 text-sm',
                isActive ? 'text-primary' : 'text-muted-foreground hover:text-foreground',
              )
            }
          >
            {label}
          </NavLink>
        ))}
      </nav>
      <div className="ml-auto flex items-center gap-2">
        {user ? (
          <>
            <span
              className="hidden max-w-32 truncate text-sm font-medium sm:inline"
              data-testid="current-username"
            >
              {user.username}
            </span>
            <Button variant="outline" size="sm" onClick={() => void refresh()} aria-label="Refresh">
              <RefreshCw aria-hidden />
              <span className="hidden sm:inline">Refresh</span>
            </Button>
            <Button variant="secondary" size="sm" onClick={() => void logout()}>
              <LogOut aria-hidden />
              Logout
            </Button>
          </>
        ) : (
          <ConnectWalletButton />
        )}
      </div>
    </header>
  );
}
