// A real SMTP server for the Mail contract suite (the `smtp-server` package, from nodemailer's
// authors) on a loopback port: it requires a login, refuses recipients at refused.example, and keeps
// every message it accepts, parsed as a mail client would.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { parseMail } from '../../../services/auth/src/testing/mail-folder.ts';
import type { ReceivedMail } from '../../../services/auth/src/testing/mail-folder.ts';

export interface SmtpPeer {
  /** smtp://user:pass@127.0.0.1:port */
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Envelope recipients of each accepted message, in order. */
  envelopes: string[][];
  close(): Promise<void>;
}

export const SMTP_USER = 'kaboodle';
export const SMTP_PASSWORD = 'contract-suite-password';

export async function startSmtpPeer(): Promise<SmtpPeer> {
  const received: ReceivedMail[] = [];
  const envelopes: string[][] = [];
  const server = new SMTPServer({
    // Loopback only, so plain text is fine here; STARTTLS off (its certificate would be self-signed).
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: SMTP_USER });
      else callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@refused.example')) {
        const err = new Error('No such mailbox') as Error & { responseCode: number };
        err.responseCode = 550;
        callback(err);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        void parseMail(Buffer.concat(chunks)).then(
          (mail) => {
            received.push(mail);
            envelopes.push(session.envelope.rcptTo.map((r) => r.address));
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`,
    port,
    received,
    envelopes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
