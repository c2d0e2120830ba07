// TEST ONLY: reads the messages the local mail adapter wrote (KABOODLE_DATA_DIR/mail/*.eml), parsed
// as a mail client would (mailparser), with the first link of each, for tests that follow links.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';

export interface ReceivedMail {
  file: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The first http(s) link of the plain-text body. */
  link: string | undefined;
  /** The header block as sent (before the first empty line). */
  headers: string;
}

const addresses = (a: unknown): string =>
  (Array.isArray(a) ? a : a ? [a] : [])
    .flatMap((x: { value?: { address?: string }[] }) => x.value ?? [])
    .map((v) => v.address ?? '')
    .join(', ');

export async function parseMail(raw: Buffer | string, file = ''): Promise<ReceivedMail> {
  const m = await simpleParser(raw);
  const text = m.text ?? '';
  const source = raw.toString();
  return {
    file,
    from: addresses(m.from),
    to: addresses(m.to),
    subject: m.subject ?? '',
    text,
    html: typeof m.html === 'string' ? m.html : '',
    link: /https?:\/\/\S+/.exec(text)?.[0],
    headers: source.slice(0, source.search(/\r?\n\r?\n/)),
  };
}

/** Every message in the folder, oldest first (the file names sort by time). */
export async function readMailFolder(dir: string): Promise<ReceivedMail[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml')).sort();
  return Promise.all(names.map(async (n) => parseMail(await readFile(path.join(dir, n)), path.join(dir, n))));
}

/** The newest message to `to` whose subject matches, waiting for it to arrive. */
export async function waitForMail(
  dir: string,
  to: string,
  subject: RegExp,
  options: { timeoutMs?: number; after?: number } = {},
): Promise<ReceivedMail> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const found = (await readMailFolder(dir))
      .slice(options.after ?? 0)
      .filter((m) => m.to.toLowerCase() === to.toLowerCase() && subject.test(m.subject));
    if (found.length > 0) return found[found.length - 1]!;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject} in ${dir}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The token of a link like https://…/verify-email?token=… */
export const tokenOf = (link: string | undefined): string => {
  const token = link ? new URL(link).searchParams.get('token') : null;
  if (!token) throw new Error(`no token in ${link}`);
  return token;
};
