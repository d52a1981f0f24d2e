import nodemailer from 'nodemailer';
import type { MailAddress, MailMessage } from './enqueue.ts';
import type { SentAttachment, Transport } from './worker.ts';

/**
 * The outbox worker's SMTP transport (nodemailer). `SMTP_URL` is a connection
 * URL: `smtp://user:pass@host:587` (STARTTLS when the server offers it),
 * `smtps://host:465` (implicit TLS); nodemailer's options can ride in the query
 * string (e.g. `?requireTLS=true`). The From address is `SMTP_FROM` (a bare
 * address or `Name <address>`), default `Sheaf <sheaf@localhost>`; replies go to
 * the message's `reply_to` (the person who sent it).
 */

export const DEFAULT_FROM = 'Sheaf <sheaf@localhost>';

export interface SmtpTransport extends Transport {
  close(): void;
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
    async send(message: MailMessage, attachments: SentAttachment[]) {
      await transporter.sendMail({
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
