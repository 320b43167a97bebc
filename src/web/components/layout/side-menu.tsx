import { ExternalLink } from 'lucide-react';
import { NavLink } from 'react-router';
import { networkLabel } from '#contract/network';
import { WalletBalanceSlot } from '#web/components/payments/wallet-balance-slot';
import { useConfig } from '#web/lib/config';
import { useAuth } from '#web/lib/session/auth-provider';
import { cn } from '#web/lib/utils';
import { SIDE_MENU, SOCIAL_URL, visibleItems } from './nav-items';

const itemClass =
  'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors text-muted-foreground hover:bg-accent hover:text-foreground';

/** The side menu: inline from the md breakpoint, inside the drawer below it. */
export function SideMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { isAdmin, user } = useAuth();
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      {onNavigate && user?.walletAddress && (
        // A phone's top bar keeps only the balance chip: the menu carries the name and Get test SOL.
        <section aria-label="Wallet" className="mx-3 mt-3 space-y-1 rounded-lg border p-2">
          <p className="truncate px-1 text-sm font-medium">{user.username}</p>
          <WalletBalanceSlot className="flex flex-wrap items-center gap-1" testSolLabel="" />
        </section>
      )}
      <nav aria-label="Main" className="flex-1 space-y-1 overflow-y-auto p-3">
        {visibleItems(SIDE_MENU, isAdmin).map(({ to, label, icon: Icon }) => (
          // NavLink sets aria-current="page" on the current route's link.
          <NavLink
            key={to}
            to={to}
            end={to === '/'}
            onClick={onNavigate}
            className={({ isActive }) =>
              cn(
                itemClass,
                isActive &&
                  'bg-primary text-primary-foreground hover:bg-primary/90 hover:text-primary-foreground',
              )
            }
          >
            <Icon className="size-4" aria-hidden />
            {label}
          </NavLink>
        ))}
        {isAdmin && (
          <a href={SOCIAL_URL} target="_blank" rel="noopener noreferrer" className={itemClass}>
            <ExternalLink className="size-4" aria-hidden />
            Follow us on X<span className="sr-only"> (opens in a new tab)</span>
          </a>
        )}
      </nav>
      <StatusCard />
    </div>
  );
}

/** docs/product.md#navigation: the menu's fixed footer card, a static label and an 'Online' status. */
function StatusCard() {
  const { data: config } = useConfig();
  return (
    <div className="m-3 shrink-0 rounded-lg border bg-muted/40 p-3 text-sm">
      <p className="font-semibold">DarePool on Solana</p>
      <p className="mt-1 flex items-center gap-2 text-muted-foreground">
        <span className="size-2 rounded-full bg-success" aria-hidden />
        <span>Online</span>
        {config && (
          <span className="ml-auto rounded border px-1.5 text-xs" title="Solana cluster">
            {networkLabel(config.cluster)}
          </span>
        )}
      </p>
    </div>
  );
}
