import type { AdminDelivery } from '#contract/notifications';
import { EmptyState } from '#web/components/common/empty-state';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Spinner } from '#web/components/ui/spinner';
import { formatDayTime } from '#web/lib/dates';
import { useNotificationDeliveries } from '../api/list-deliveries';

const STATUS_VARIANT = {
  delivered: 'success',
  pending: 'secondary',
  failed: 'destructive',
} as const satisfies Record<AdminDelivery['status'], 'success' | 'secondary' | 'destructive'>;

/**
 * The admin panel's list of email and webhook deliveries (issue 35): channel, event, target,
 * status, attempts, last error and time, newest first. A failing webhook shows here while it is
 * retried (for 24 h) and after it gave up.
 */
export default function NotificationDeliveries({ listClassName }: { listClassName?: string }) {
  const deliveries = useNotificationDeliveries();
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
        <div className="grid gap-1.5">
          <CardTitle>Notification deliveries</CardTitle>
          <CardDescription>
            Emails and webhook calls, newest first, with failures and retries.
          </CardDescription>
        </div>
        <Button
          size="sm"
          variant="outline"
          disabled={deliveries.isFetching}
          onClick={() => void deliveries.refetch()}
        >
          Reload
        </Button>
      </CardHeader>
      <CardContent>
        {deliveries.isPending ? (
          <Spinner label="Loading deliveries" />
        ) : deliveries.isError ? (
          <EmptyState title="Failed to load deliveries" description={deliveries.error.message} />
        ) : deliveries.data.items.length === 0 ? (
          <EmptyState
            title="No deliveries yet"
            description="Emails to verified addresses and calls to ALERT_WEBHOOK_URL show here."
          />
        ) : (
          <ul aria-label="Notification deliveries" className={`${listClassName ?? ''} divide-y text-sm`}>
            {deliveries.data.items.map((delivery) => (
              <DeliveryRow key={`${delivery.channel}:${delivery.id}`} delivery={delivery} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

export function DeliveryRow({ delivery }: { delivery: AdminDelivery }) {
  return (
    <li className="grid gap-1 py-2" data-status={delivery.status}>
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant="outline">{delivery.channel}</Badge>
        <span className="font-medium">{delivery.event}</span>
        <Badge variant={STATUS_VARIANT[delivery.status]}>{delivery.status}</Badge>
        <span className="text-muted-foreground">
          {delivery.attempts} {delivery.attempts === 1 ? 'attempt' : 'attempts'}
        </span>
        <time dateTime={delivery.createdAt} className="ml-auto text-xs text-muted-foreground">
          {formatDayTime(delivery.createdAt)}
        </time>
      </div>
      {delivery.target && <p className="break-all text-muted-foreground">to {delivery.target}</p>}
      {delivery.lastError && (
        <p className="break-words text-destructive">
          Last error: {delivery.lastError}
          {delivery.status === 'pending' && delivery.nextAttemptAt
            ? ` · next try ${formatDayTime(delivery.nextAttemptAt)}`
            : ''}
        </p>
      )}
    </li>
  );
}
