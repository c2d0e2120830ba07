// Mail port contract (services/auth/src/mail): the same suite against both adapters. SMTP sends to a
// real SMTP server on loopback (smtp-server); the local adapter writes .eml files that are read back
// as a mail client would. A message must arrive once, whole, with its link intact, and no value in it
// may add headers or recipients.
import { mkdtemp, rm, stat, chmod, mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalMailer } from '@kaboodle/auth';
import { createSmtpMailer } from '@kaboodle/auth';
import type { Mailer } from '@kaboodle/auth';
import type { Logger } from '@kaboodle/platform';
import { readMailFolder } from '../../services/auth/src/testing/mail-folder.ts';
import type { ReceivedMail } from '../../services/auth/src/testing/mail-folder.ts';
import { startSmtpPeer } from './support/smtp-peer.ts';

const FROM = 'Kaboodle <no-reply@kaboodle.example>';

interface AdapterUnderTest {
  name: string;
  mailer: Mailer;
  received(): Promise<ReceivedMail[]>;
  cleanup(): Promise<void>;
}

const logLines: Array<Record<string, unknown> & { msg: string }> = [];
// What the local adapter logs, kept for the assertions (the Logger port's info(obj, msg) form).
const logger = {
  info: ((obj: Record<string, unknown>, msg: string) =>
    void logLines.push({ ...obj, msg })) as Logger['info'],
};

const peer = await startSmtpPeer();
const folder = await mkdtemp(path.join(tmpdir(), 'kaboodle-mail-contract-'));
const adapters: AdapterUnderTest[] = [
  {
    name: 'local folder',
    mailer: createLocalMailer({ dir: path.join(folder, 'mail'), from: FROM, logger }),
    received: () => readMailFolder(path.join(folder, 'mail')),
    cleanup: () => rm(folder, { recursive: true, force: true }),
  },
  {
    name: 'smtp (smtp-server on loopback)',
    mailer: createSmtpMailer({ url: peer.url, from: FROM, timeoutMs: 5_000 }),
    received: async () => [...peer.received],
    cleanup: () => peer.close(),
  },
];
afterAll(async () => {
  for (const a of adapters) {
    await a.mailer.close();
    await a.cleanup();
  }
});

const LINK = `http://localhost:8080/verify-email?token=${'Zq-9_'.repeat(8)}abc`;

describe.each(adapters)('Mail port: $name', (adapter) => {
  const fresh = async (send: () => Promise<unknown>) => {
    const before = (await adapter.received()).length;
    await send();
    const all = await adapter.received();
    return all.slice(before);
  };

  it('delivers one message whole: sender, recipient, subject, text with its link intact, HTML', async () => {
    const text = `Hello Ada,\n\nOpen this link to verify it:\n${LINK}\n\nIt works once.\n`;
    let sent: { messageId: string } | undefined;
    const got = await fresh(async () => {
      sent = await adapter.mailer.send({
        to: 'ada@example.com',
        subject: 'Verify your Kaboodle email address',
        text,
        html: `<p>Hello Ada</p><p><a href="${LINK}">Verify</a></p>`,
        link: LINK,
      });
    });
    expect(got).toHaveLength(1);
    const mail = got[0]!;
    expect(mail).toMatchObject({
      from: 'no-reply@kaboodle.example',
      to: 'ada@example.com',
      subject: 'Verify your Kaboodle email address',
      link: LINK,
    });
    expect(mail.text.trim()).toBe(text.trim());
    expect(mail.html).toContain(`href="${LINK}"`);
    expect(sent!.messageId).toMatch(/^<.+@.+>$/);
  });

  it('keeps non-ASCII subjects and bodies exactly', async () => {
    const subject = 'Bienvenue, Zoë: vérifiez votre adresse ✓';
    const text = 'Grüße aus Kaboodle — 東京 ✓\n';
    const [mail] = await fresh(() => adapter.mailer.send({ to: 'zoe@example.com', subject, text }));
    expect(mail!.subject).toBe(subject);
    expect(mail!.text.trim()).toBe(text.trim());
  });

  it('a subject or name with line breaks adds no header and no recipient', async () => {
    const [mail] = await fresh(() =>
      adapter.mailer.send({
        to: 'victim@example.com',
        subject: 'Hello\r\nBcc: thief@example.com\r\nX-Injected: yes',
        text: 'body\r\n.\r\nMAIL FROM:<thief@example.com>\r\n',
      }),
    );
    expect(mail!.to).toBe('victim@example.com');
    expect(mail!.subject).not.toMatch(/\r|\n/);
    if (adapter.name.startsWith('smtp')) expect(peer.envelopes.at(-1)).toEqual(['victim@example.com']);
    expect(mail!.headers).not.toMatch(/^(Bcc|X-Injected):/im);
    expect(mail!.headers).toMatch(/^Subject: /m);
  });

  it('sends many at once, each arriving exactly once', async () => {
    const got = await fresh(() =>
      Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          adapter.mailer.send({ to: `many${i}@example.com`, subject: `Message ${i}`, text: `number ${i}\n` }),
        ),
      ),
    );
    expect(got.map((m) => m.subject).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `Message ${i}`).sort(),
    );
  });

  it('refuses to send once closed', async () => {
    const closing =
      adapter.name === 'local folder'
        ? createLocalMailer({ dir: path.join(folder, 'closed'), from: FROM, logger })
        : createSmtpMailer({ url: peer.url, from: FROM });
    await closing.close();
    await closing.close(); // idempotent
    await expect(closing.send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toThrow(/closed/);
  });
});

describe('smtp adapter failures reject the send, in bounded time', () => {
  it('a recipient the server refuses', async () => {
    const mailer = createSmtpMailer({ url: peer.url, from: FROM });
    try {
      await expect(mailer.send({ to: 'nobody@refused.example', subject: 's', text: 't' })).rejects.toThrow(
        /^sending mail through SMTP: .*(550|No such mailbox|refused)/,
      );
    } finally {
      await mailer.close();
    }
  });

  it('wrong credentials', async () => {
    const mailer = createSmtpMailer({
      url: peer.url.replace('contract-suite-password', 'wrong'),
      from: FROM,
    });
    try {
      await expect(mailer.send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toThrow(
        /sending mail through SMTP: .*(Invalid|auth)/i,
      );
    } finally {
      await mailer.close();
    }
  });

  it('no server listening', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const mailer = createSmtpMailer({ url: `smtp://127.0.0.1:${port}`, from: FROM, timeoutMs: 2_000 });
    try {
      await expect(mailer.send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toThrow(
        /ECONNREFUSED/,
      );
    } finally {
      await mailer.close();
    }
  });

  it('a server that accepts the connection and never greets', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as AddressInfo).port;
    const mailer = createSmtpMailer({ url: `smtp://127.0.0.1:${port}`, from: FROM, timeoutMs: 500 });
    const started = Date.now();
    try {
      await expect(mailer.send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toThrow(
        /sending mail through SMTP/,
      );
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await mailer.close();
      sockets.forEach((s) => s.destroy());
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });
});

describe('local adapter specifics', () => {
  it('writes each message readable by its owner only, and logs where it is with its link', async () => {
    const dir = path.join(folder, 'mode');
    const mailer = createLocalMailer({ dir, from: FROM, logger });
    await mailer.send({
      to: 'ada@example.com',
      subject: 'Reset your Kaboodle password',
      text: `${LINK}\n`,
      link: LINK,
    });
    const [mail] = await readMailFolder(dir);
    expect(((await stat(mail!.file)).mode & 0o777).toString(8)).toBe('600');
    expect(((await stat(dir)).mode & 0o777).toString(8)).toBe('700');
    const line = logLines.find((l) => l.mailFile === mail!.file)!;
    expect(line.link).toBe(LINK);
    expect(line.msg).toContain(mail!.file);
    expect(line.msg).toContain(LINK);
  });

  it('a folder it cannot write rejects the send', async () => {
    if (process.getuid?.() === 0) {
      // root writes anywhere: make the target a file instead of a folder
      const file = path.join(folder, 'not-a-folder');
      await rm(file, { force: true });
      await import('node:fs/promises').then((fs) => fs.writeFile(file, 'x'));
      const mailer = createLocalMailer({ dir: file, from: FROM, logger });
      await expect(mailer.send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toThrow(
        /writing mail to/,
      );
      return;
    }
    const dir = path.join(folder, 'readonly');
    await mkdir(dir);
    await chmod(dir, 0o500);
    const mailer = createLocalMailer({ dir, from: FROM, logger });
    await expect(mailer.send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toThrow(
      /writing mail to/,
    );
  });
});
