import nodemailer from 'nodemailer';

/** One mail as the delivery job sends it. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one-click unsubscribe URL (RFC 8058), on every mail but the verification one. */
  unsubscribeUrl?: string;
  /** The delivery id: the mail's Message-ID, so a re-send after a crash is the same message. */
  deliveryId: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** Mail through SMTP_URL (smtp:// or smtps://), with a timeout so a stuck server cannot stall the job. */
export function createMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl, {
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  } as never);
  const domain = /@([^>\s]+)/.exec(from)?.[1] ?? 'darepool.invalid';
  return {
    async send(mail) {
      await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: `<${mail.deliveryId}@${domain}>`,
        headers: mail.unsubscribeUrl
          ? {
              'List-Unsubscribe': `<${mail.unsubscribeUrl}>`,
              'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
            }
          : {},
      });
    },
    close: () => transport.close(),
  };
}

/** Text made safe inside HTML (user text: dare titles, reasons). */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A notification's mail: its title and body, a link to it, and how to stop these mails. */
export function notificationMail(input: {
  to: string;
  deliveryId: string;
  title: string;
  body: string;
  url: string;
  unsubscribeUrl: string;
  unsubscribeAllUrl: string;
}): Mail {
  return {
    to: input.to,
    deliveryId: input.deliveryId,
    subject: input.title.replace(/[\r\n]+/g, ' ').slice(0, 200),
    unsubscribeUrl: input.unsubscribeUrl,
    text: `${input.title}\n\n${input.body}\n\nOpen: ${input.url}\n\nStop these emails: ${input.unsubscribeUrl}\nStop all DarePool emails: ${input.unsubscribeAllUrl}\n`,
    html: `<!doctype html><html><body><h2>${escapeHtml(input.title)}</h2><p>${escapeHtml(input.body)}</p><p><a href="${escapeHtml(input.url)}">Open in DarePool</a></p><hr><p style="font-size:12px"><a href="${escapeHtml(input.unsubscribeUrl)}">Stop these emails</a> · <a href="${escapeHtml(input.unsubscribeAllUrl)}">Stop all DarePool emails</a></p></body></html>`,
  };
}

export function verificationMail(input: { to: string; deliveryId: string; url: string }): Mail {
  return {
    to: input.to,
    deliveryId: input.deliveryId,
    subject: 'Confirm your email address for DarePool',
    text: `Someone (hopefully you) asked DarePool to send notifications to this address.\nConfirm it: ${input.url}\n\nIf it was not you, ignore this mail: nothing more will be sent.\n`,
    html: `<!doctype html><html><body><p>Someone (hopefully you) asked DarePool to send notifications to this address.</p><p><a href="${escapeHtml(input.url)}">Confirm this address</a></p><p>If it was not you, ignore this mail: nothing more will be sent.</p></body></html>`,
  };
}
