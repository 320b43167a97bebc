import { ExternalLink } from 'lucide-react';
import { NavLink } from 'react-router';
import { useAuth } from '../../features/auth/auth-provider';
import { cn } from '../../lib/utils';
import { SIDE_MENU, SOCIAL_URL } from './nav-items';

export function SideMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { isAdmin } = useAuth();
  return (
    <div className="flex h-full flex-col">
      <nav aria-label="Main" className="flex-1 space-y-1 overflow-y-auto p-3">
        {SIDE_MENU.filter((item) => !item.adminOnly || isAdmin).map(({ to, label, icon: Icon }) => (
          <NavLink
            key={to}
            to={to}
            end={to === '/'}
            onClick={onNavigate}
            className={({ isActive }) =>
              cn(
                'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors',
                isActive
                  ? 'bg-primary text-primary-foreground'
                  : 'text-muted-foreground hover:bg-accent hover:text-foreground',
              )
            }
          >
            <Icon className="size-4" aria-hidden />
            {label}
          </NavLink>
        ))}
        {isAdmin && (
          <a
            href={SOCIAL_URL}
            target="_blank"
            rel="noopener noreferrer"
            className="flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:bg-accent hover:text-foreground"
          >
            <ExternalLink className="size-4" aria-hidden />
            Social Media
          </a>
        )}
      </nav>
      <div className="m-3 rounded-lg border bg-muted/40 p-3 text-sm">
        <p className="font-semibold">DarePool on Solana</p>
        <p className="mt-1 flex items-center gap-2 text-muted-foreground">
          <span className="size-2 rounded-full bg-success" aria-hidden />
          Online
        </p>
      </div>
    </div>
  );
}
