import { describe, expect, it } from 'vitest';
import { escapeHtml, notificationMail } from './email';
import { escapeSlack, webhookBody } from './webhooks';

const event = {
  id: 'd-1',
  event: 'winner-proposed',
  dareId: 4,
  vault: 'Vault111',
  winners: [{ wallet: 'Win111', amount: '0.3' }],
  executesAt: '2026-11-30T00:00:00.000Z',
  signature: 'Sig111',
  at: '2026-11-29T00:00:00.000Z',
};
const title = '<!channel> <@U123> & @everyone <https://evil.example|click>';

describe('webhook bodies', () => {
  it('sends the JSON event exactly as written', () => {
    expect(JSON.parse(webhookBody(event, title, 'json'))).toEqual(event);
  });

  it('escapes & < > in Slack text, so user text forms no mention nor link', () => {
    const { text } = JSON.parse(webhookBody(event, title, 'slack'));
    expect(text).toContain(
      '&lt;!channel&gt; &lt;@U123&gt; &amp; @everyone &lt;https://evil.example|click&gt;',
    );
    expect(text).not.toMatch(/<[!@h]/);
    expect(text).toContain('Win111 0.3 SOL');
    expect(escapeSlack('a&b<c>')).toBe('a&amp;b&lt;c&gt;');
  });

  it('lets Discord mention nobody', () => {
    const body = JSON.parse(webhookBody(event, title, 'discord'));
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.content).toContain('dare 4');
  });
});

describe('mail', () => {
  it('escapes user text in the HTML part', () => {
    const mail = notificationMail({
      to: 'a@example.test',
      deliveryId: 'x',
      title: 'Dare "<script>alert(1)</script>"',
      body: 'Reason: <img src=x onerror=alert(1)>',
      url: 'https://darepool.example/dare/1',
      unsubscribeUrl: 'https://darepool.example/u?token=1.a&kind=k',
      unsubscribeAllUrl: 'https://darepool.example/u?token=1.a',
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain(escapeHtml('<script>alert(1)</script>'));
    expect(mail.unsubscribeUrl).toContain('kind=k');
  });
});
