import { createHmac } from 'node:crypto';

export type WebhookFormat = 'json' | 'slack' | 'discord';

/** A webhook receiver that answered other than 2xx, or not in time. */
export class WebhookError extends Error {}

const WEBHOOK_TIMEOUT_MS = 10_000;

/** Slack's incoming-webhook text: & < > escaped, so user text cannot form links or mentions. */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

interface WebhookBody {
  id: string;
  event: string;
  dareId?: number | null;
  vault?: string | null;
  winners?: { wallet: string; amount: string }[];
  executesAt?: string | null;
  signature?: string | null;
  at: string;
  [key: string]: unknown;
}

/** The event in one line of text (Slack, Discord); `title` is the dare's (user text). */
export function eventText(body: WebhookBody, title: string | null): string {
  const parts = [`DarePool ${body.event}`];
  if (body.dareId != null) parts.push(`dare ${body.dareId}${title ? ` “${title}”` : ''}`);
  if (body.winners && body.winners.length > 0)
    parts.push(`winners: ${body.winners.map((w) => `${w.wallet} ${w.amount} SOL`).join(', ')}`);
  if (body.executesAt) parts.push(`executes at ${body.executesAt}`);
  if (typeof body.wallet === 'string')
    parts.push(`wallet ${body.wallet} holds ${String(body.balance)} SOL (minimum ${String(body.minimum)})`);
  if (body.signature) parts.push(`transaction ${body.signature}`);
  return parts.join(' · ');
}

/** The exact bytes a receiver gets for an event in the configured format. */
export function webhookBody(body: WebhookBody, title: string | null, format: WebhookFormat): string {
  if (format === 'slack') return JSON.stringify({ text: escapeSlack(eventText(body, title)) });
  if (format === 'discord')
    // No mass mention (@everyone, @here) nor any other can come from user text.
    return JSON.stringify({
      content: eventText(body, title).slice(0, 2000),
      allowed_mentions: { parse: [] },
    });
  return JSON.stringify(body);
}

export const signBody = (raw: string, secret: string) =>
  `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

/** POSTs one event to one receiver; throws WebhookError unless it answers 2xx within the timeout. */
export async function postWebhook(
  url: string,
  raw: string,
  headers: { deliveryId: string; secret: string | null; event: string },
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      body: raw,
      redirect: 'manual',
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'DarePool-Webhook/1',
        'x-darepool-delivery': headers.deliveryId,
        'x-darepool-event': headers.event,
        ...(headers.secret ? { 'x-darepool-signature': signBody(raw, headers.secret) } : {}),
      },
    });
  } catch (error) {
    throw new WebhookError(`no answer: ${(error as Error).message}`);
  }
  await response.body?.cancel().catch(() => {});
  if (response.status < 200 || response.status > 299) throw new WebhookError(`answered ${response.status}`);
}
