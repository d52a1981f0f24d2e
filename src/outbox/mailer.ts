import nodemailer from 'nodemailer';
import type { MailAddress, MailMessage } from './enqueue.ts';
import type { OutboxRef, SentAttachment, Transport } from './worker.ts';

/**
 * The outbox worker's SMTP transport (nodemailer). `SMTP_URL` is a connection
 * URL: `smtp://user:pass@host:587` (STARTTLS when the server offers it),
 * `smtps://host:465` (implicit TLS); nodemailer's options can ride in the query
 * string (e.g. `?requireTLS=true`). The From address is `SMTP_FROM` (a bare
 * address or `Name <address>`), default `Sheaf <sheaf@localhost>`; replies go to
 * the message's `reply_to` (the person who sent it).
 *
 * Every attempt at one outbox message carries the same Message-ID
 * (messageIdFor), so when a message goes out twice (the worker died after the
 * server accepted it but before it was marked sent) the copies are the same
 * message to the recipient's mail system, which may drop the second, and to a
 * mail client, which threads or hides it.
 */

export const DEFAULT_FROM = 'Sheaf <sheaf@localhost>';

export interface SmtpTransport extends Transport {
  close(): void;
}

/**
 * The Message-ID of an outbox message: `<outbox id.workspace id@domain>`, the
 * domain being the From address's (SMTP_FROM), `localhost` without one. The
 * ids are UUIDs, so it is unique without a random part and the same on every
 * attempt.
 */
export function messageIdFor(ref: OutboxRef, from: string = DEFAULT_FROM): string {
  return `<${ref.outboxId}.${ref.companyId}@${domainOf(from)}>`;
}

/** The domain of `Name <local@domain>` or `local@domain`; `localhost` when there is no usable one. */
export function domainOf(from: string): string {
  const domain = /@([^@\s<>]+)>?\s*$/.exec(from)?.[1];
  return domain && /^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(domain) ? domain.toLowerCase() : 'localhost';
}

const address = (a: MailAddress) => (a.name ? { name: a.name, address: a.email } : a.email);

export function createSmtpTransport(url: string, options: { from?: string } = {}): SmtpTransport {
  const transporter = nodemailer.createTransport({
    url,
    // Fail a send in bounded time, so one unreachable server never stalls the worker.
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 120_000,
  });
  const from = options.from || DEFAULT_FROM;
  return {
    async send(message: MailMessage, attachments: SentAttachment[], ref: OutboxRef) {
      await transporter.sendMail({
        messageId: messageIdFor(ref, from),
        from,
        to: message.to.map(address),
        cc: message.cc?.length ? message.cc.map(address) : undefined,
        bcc: message.bcc?.length ? message.bcc.map(address) : undefined,
        replyTo: message.reply_to ? address(message.reply_to) : undefined,
        subject: message.subject,
        text: message.text,
        attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
      });
    },
    close: () => transporter.close(),
  };
}
