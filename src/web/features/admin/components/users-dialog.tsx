import { Users } from 'lucide-react';
import { useState } from 'react';
import { REPUTATION_EXPLAINED } from '#contract/limits';
import { EmptyState } from '#web/components/common/empty-state';
import { SearchInput, useSearch } from '#web/components/common/search-input';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#web/components/ui/dialog';
import { Spinner } from '#web/components/ui/spinner';
import { countOf, formatSol, shortAddress } from '#web/lib/utils';
import { useAdminUsers } from '../api/list-admin-users';

/**
 * The Manage Users quick action (docs/product.md#admin-panel): every user, newest first,
 * searched on the server by username or wallet, with what moderation needs to know about them.
 * Admin rights are granted from the command line (`npm run admin`), never from the browser.
 */
export function UsersDialog({ listClassName }: { listClassName: string }) {
  const [open, setOpen] = useState(false);
  const { text: search, setText: setSearch, query: q } = useSearch();
  const users = useAdminUsers(q, open);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <Users aria-hidden /> Manage Users
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Users</DialogTitle>
          <DialogDescription>Everyone registered, newest first.</DialogDescription>
        </DialogHeader>
        <SearchInput
          label="Search users"
          placeholder="Search by username or wallet..."
          value={search}
          onChange={setSearch}
        />
        {users.isPending ? (
          <Spinner label="Loading users" />
        ) : users.isError ? (
          <EmptyState title="Failed to load users" description={users.error.message} />
        ) : users.data.length === 0 ? (
          <EmptyState title="No users match your search" />
        ) : (
          <ul className={`${listClassName} space-y-2`} aria-label="Users">
            {users.data.map((user) => (
              <li key={user.id} aria-label={user.username} className="rounded-md border p-3 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">{user.username}</span>
                  {user.isAdmin && <Badge>Admin</Badge>}
                  <span className="font-mono text-xs text-muted-foreground">
                    {user.walletAddress ? shortAddress(user.walletAddress) : 'No wallet'}
                  </span>
                </div>
                <p className="text-muted-foreground">
                  <span title={`Reputation: ${REPUTATION_EXPLAINED}`}>{user.reputation} reputation</span> ·{' '}
                  {countOf(user.dareWins, 'win')} · {formatSol(user.totalEarnings)} earned · joined{' '}
                  {new Date(user.createdAt).toLocaleDateString()}
                </p>
              </li>
            ))}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
