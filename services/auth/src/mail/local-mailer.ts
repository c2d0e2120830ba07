// Mail adapter for one machine (no SMTP_URL): each message is composed exactly as it would be sent
// (nodemailer's stream transport) and written as an .eml file under KABOODLE_DATA_DIR/mail/, and the
// log says where it is and which link it carries, so whoever runs Kaboodle locally can follow it.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTransport } from 'nodemailer';
import type { Logger } from '@kaboodle/platform';
import type { Mailer } from './mailer.ts';

export interface LocalMailerOptions {
  /** The folder messages are written to (created when missing). */
  dir: string;
  from: string;
  logger: Pick<Logger, 'info'>;
}

export function createLocalMailer(options: LocalMailerOptions): Mailer {
  const composer = createTransport(
    { streamTransport: true, buffer: true, newline: 'unix' },
    { from: options.from },
  );
  let closed = false;
  return {
    kind: 'local',
    async send(message) {
      if (closed) throw new Error('writing mail: the local mailer is closed');
      try {
        const info = await composer.sendMail({
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html ? { html: message.html } : {}),
        });
        // Sortable by time; the random part keeps two messages of one millisecond apart.
        const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
        const file = path.join(options.dir, name);
        // The messages carry sign-in links: readable by the owner only. Written under a temporary
        // name first, so a reader never sees half a message.
        await mkdir(options.dir, { recursive: true, mode: 0o700 });
        const partial = `${file}.part`;
        try {
          await writeFile(partial, info.message, { mode: 0o600 });
          await rename(partial, file);
        } catch (err) {
          await rm(partial, { force: true });
          throw err;
        }
        options.logger.info(
          { mailFile: file, to: message.to, subject: message.subject, link: message.link },
          `mail written to ${file} (SMTP_URL is not set)${message.link ? `: ${message.link}` : ''}`,
        );
        return { messageId: info.messageId };
      } catch (err) {
        throw new Error(`writing mail to ${options.dir}: ${(err as Error).message}`, { cause: err });
      }
    },
    async close() {
      closed = true;
    },
  };
}
