import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AdminDelivery, NotificationItem } from '#contract/notifications';
import { DeliveryRow } from './notification-deliveries';
import { NotificationRow } from './notification-row';

const item = (readAt: string | null): NotificationItem => ({
  id: 7,
  kind: 'winner-proposed',
  dareId: 4,
  title: 'A winner was named on "<i>Juggle</i>"',
  body: '0.3 SOL will be paid on 30 Nov 02:47 unless vetoed',
  link: '/dare/4',
  createdAt: '2026-11-29T08:00:00.000Z',
  readAt,
});

describe('NotificationRow', () => {
  it('marks an unread notification, for the eye and for screen readers', () => {
    const html = renderToStaticMarkup(<NotificationRow notification={item(null)} onOpen={() => {}} />);
    expect(html).toContain('data-unread="true"');
    expect(html).toContain('Unread: ');
    expect(html).toContain('&lt;i&gt;Juggle&lt;/i&gt;');
    expect(html).toContain('0.3 SOL will be paid');
  });

  it('shows a read one plainly', () => {
    const html = renderToStaticMarkup(
      <NotificationRow notification={item('2026-11-29T09:00:00.000Z')} onOpen={() => {}} />,
    );
    expect(html).toContain('data-unread="false"');
    expect(html).not.toContain('Unread: ');
  });
});

describe('DeliveryRow', () => {
  const delivery: AdminDelivery = {
    id: 'd-1',
    channel: 'webhook',
    event: 'winner-proposed',
    dareId: 4,
    target: 'https://hooks.example',
    status: 'pending',
    attempts: 2,
    lastError: 'HTTP 500',
    nextAttemptAt: '2026-11-29T08:05:00.000Z',
    deliveredAt: null,
    createdAt: '2026-11-29T08:00:00.000Z',
  };

  it('lists channel, event, target, status, attempts and the last error', () => {
    const html = renderToStaticMarkup(<DeliveryRow delivery={delivery} />);
    for (const text of [
      'webhook',
      'winner-proposed',
      'https://hooks.example',
      'pending',
      '2 attempts',
      'HTTP 500',
      'next try',
    ])
      expect(html).toContain(text);
  });

  it('leaves out the target when the server gives none', () => {
    const html = renderToStaticMarkup(
      <DeliveryRow delivery={{ ...delivery, target: null, lastError: null }} />,
    );
    expect(html).not.toContain('>to ');
    expect(html).not.toContain('Last error');
  });
});
