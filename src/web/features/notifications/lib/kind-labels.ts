import type { NotificationKind } from '#contract/notifications';

/** How Profile names each kind beside its email switch. */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  'proof-approved': 'My proof is approved',
  'proof-rejected': 'My proof is rejected',
  'winner-proposed': 'A winner is named on a dare I created, backed or entered',
  'proposal-vetoed': 'A named winner is vetoed',
  'prize-paid': 'My prize is paid',
  'refund-sent': 'My refund is sent',
  'dare-ending': 'A dare I created, backed or entered ends in 24 hours',
  'major-dare-started': 'A Major Dare opens',
};

/** The toast after PUT /api/profile/email. */
export const verificationSent = (email: string) =>
  `We sent a verification link to ${email}. Open it to receive emails; until then it gets nothing else.`;
