// Picks the Mail adapter from the configuration: SMTP when SMTP_URL is set, else the local folder.
import path from 'node:path';
import type { Logger } from '@kaboodle/platform';
import { createLocalMailer } from './local-mailer.ts';
import { DEFAULT_MAIL_FROM } from './mailer.ts';
import type { Mailer } from './mailer.ts';
import { createSmtpMailer } from './smtp-mailer.ts';

export interface OpenMailerOptions {
  smtpUrl: string | null;
  from: string | null;
  /** KABOODLE_DATA_DIR: the local adapter writes to its mail/ folder. */
  dataDir: string;
  logger: Pick<Logger, 'info'>;
}

export function openMailer(options: OpenMailerOptions): Mailer {
  const from = options.from ?? DEFAULT_MAIL_FROM;
  if (options.smtpUrl) return createSmtpMailer({ url: options.smtpUrl, from });
  return createLocalMailer({ dir: path.join(options.dataDir, 'mail'), from, logger: options.logger });
}
