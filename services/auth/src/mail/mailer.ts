// The Mail port: how the auth service sends account e-mail (address verification, password reset).
// Adapters: smtp-mailer.ts (any SMTP server, through nodemailer) and local-mailer.ts (one machine:
// each message becomes a file under KABOODLE_DATA_DIR/mail/ and a log line with its link).

export interface MailMessage {
  /** One recipient address. */
  to: string;
  subject: string;
  /** The plain-text body (every message has one; mail clients without HTML show it). */
  text: string;
  html?: string;
  /** The link the message is about, so the local adapter can log it for a one-machine setup. */
  link?: string;
}

export interface SentMail {
  /** The Message-ID header the message went out with. */
  messageId: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'local';
  /** Resolves once the message was handed over (accepted by the SMTP server, or written); rejects otherwise. */
  send(message: MailMessage): Promise<SentMail>;
  /** Release connections; idempotent. */
  close(): Promise<void>;
}

/** The sender used when MAIL_FROM is not set (local adapter only: SMTP setups must name theirs). */
export const DEFAULT_MAIL_FROM = 'Kaboodle <kaboodle@localhost>';
