import { Bell } from 'lucide-react';
import { useNavigate } from 'react-router';
import type { NotificationItem } from '#contract/notifications';
import { ConnectPrompt } from '#web/components/common/connect-prompt';
import { ConnectWalletButton } from '#web/components/common/connect-wallet-button';
import { EmptyState } from '#web/components/common/empty-state';
import { PageHeader } from '#web/components/common/page-header';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { Spinner } from '#web/components/ui/spinner';
import { useAuth } from '#web/lib/session/auth-provider';
import { useNotificationPages, useNotifications } from './api/list-notifications';
import { useMarkRead } from './api/mark-read';
import { NotificationRow } from './components/notification-row';
import { appPath } from './lib/notification-cache';

/** /notifications: every notification of the signed-in user, newest first, 50 at a time. */
export default function NotificationsPage() {
  const { user } = useAuth();
  if (!user) {
    return (
      <div>
        <PageHeader title="Notifications" />
        <ConnectPrompt
          text="Please connect your wallet to see your notifications"
          action={<ConnectWalletButton />}
        />
      </div>
    );
  }
  return <SignedInNotifications userId={user.id} />;
}

function SignedInNotifications({ userId }: { userId: number }) {
  const navigate = useNavigate();
  const pages = useNotificationPages(userId);
  // The unread count is the bell's, kept live by its frames.
  const unread = useNotifications(userId).data?.unread ?? pages.data?.pages[0]?.unread ?? 0;
  const markRead = useMarkRead(userId);
  const items = pages.data?.pages.flatMap((page) => page.items) ?? [];

  const openNotification = (notification: NotificationItem) => {
    if (notification.readAt === null) markRead.mutate([notification.id]);
    void navigate(appPath(notification.link));
  };

  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader
        title="Notifications"
        description={unread > 0 ? `${unread} unread` : 'All read'}
        actions={
          <Button
            variant="outline"
            disabled={unread === 0 || markRead.isPending}
            onClick={() => markRead.mutate(undefined)}
          >
            Mark all as read
          </Button>
        }
      />
      {pages.isPending ? (
        <Spinner label="Loading notifications" />
      ) : pages.isError ? (
        <EmptyState title="Failed to load notifications" description={pages.error.message} />
      ) : items.length === 0 ? (
        <EmptyState
          icon={Bell}
          title="No notifications yet"
          description="Reviews of your proofs, winners named on your dares, payouts and refunds show here."
        />
      ) : (
        <Card className="overflow-hidden p-0">
          <ul aria-label="Notifications" className="divide-y">
            {items.map((notification) => (
              <li key={notification.id}>
                <NotificationRow notification={notification} onOpen={openNotification} />
              </li>
            ))}
          </ul>
        </Card>
      )}
      {pages.hasNextPage && (
        <div className="mt-4 flex justify-center">
          <Button
            variant="outline"
            disabled={pages.isFetchingNextPage}
            onClick={() => void pages.fetchNextPage()}
          >
            {pages.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        </div>
      )}
    </div>
  );
}
