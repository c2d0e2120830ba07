// Mail adapter for a real SMTP server (SMTP_URL), through nodemailer: smtp:// with STARTTLS when the
// server offers it, smtps:// for TLS from the first byte; credentials in the URL.
import { createTransport } from 'nodemailer';
import type { Mailer } from './mailer.ts';

export interface SmtpMailerOptions {
  /** smtp://user:pass@host:587 or smtps://user:pass@host:465 */
  url: string;
  /** The From header: an address or "Name <address>". */
  from: string;
  /** Ceiling for connecting, the greeting and each socket read (default 15 s): a dead server fails the send, not the request forever. */
  timeoutMs?: number;
}

export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  const timeout = options.timeoutMs ?? 15_000;
  const transport = createTransport(
    {
      url: options.url,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      // nodemailer logs through its own logger only when asked; our callers log the outcome.
      logger: false,
    },
    { from: options.from },
  );
  let closed = false;
  return {
    kind: 'smtp',
    async send(message) {
      if (closed) throw new Error('sending mail: the SMTP mailer is closed');
      try {
        const info = await transport.sendMail({
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html ? { html: message.html } : {}),
        });
        if (info.rejected.length > 0) throw new Error(`the server refused ${info.rejected.join(', ')}`);
        return { messageId: info.messageId };
      } catch (err) {
        throw new Error(`sending mail through SMTP: ${(err as Error).message}`, { cause: err });
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      transport.close();
    },
  };
}
