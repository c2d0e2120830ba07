// `kaboodle admin grant|revoke <email>` against the real product (`--target=all` on embedded engines),
// the way an operator uses it: the account verifies its address from the mailed link, the operator
// stops Kaboodle (the embedded database is one process's), grants, starts it again; later revokes.
// Admin rights follow: search's admin rebuild is open to the admin's token, and the revoked admin's
// token (whose claim still says admin) is refused at once, as is the admin call after signing in again.
// With Postgres and Kafka (make engines-up), the same while every service runs in its own process:
// search, in another process, refuses the revoked admin's token within moments of the command.
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { tokenOf, waitForMail } from '../../services/auth/src/testing/mail-folder.ts';
import { runKaboodle, startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';
import type { KaboodleProcess } from '../support/kaboodle-process.ts';

const data = tempDataDir('kaboodle-admin-cmd-');
const env = {
  KABOODLE_DATA_DIR: data.dir,
  DATABASE_URL: '',
  KAFKA_BROKERS: '',
  S3_ENDPOINT: '',
  ELASTICSEARCH_URL: '',
  ADMIN_EMAILS: '',
};
const EMAIL = 'operator.pick@example.com';
const PASSWORD = 'chosen by the operator';
const json = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };

let running: KaboodleProcess | undefined;
afterAll(async () => {
  await running?.stop();
  data.remove();
});

async function start(): Promise<KaboodleProcess> {
  running = await startKaboodleProcess({ target: 'all', env });
  return running;
}
async function stop(): Promise<void> {
  await running?.stop();
  running = undefined;
}
const post = (url: string, body: unknown, bearer?: string) =>
  fetch(url, {
    method: 'POST',
    headers: { ...json, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify(body),
  });
async function signIn(url: string): Promise<{ token: string; role: string }> {
  const res = await post(`${url}/api/auth/login`, { email: EMAIL, password: PASSWORD });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { token: string; user: { role: string } };
  return { token: body.token, role: body.user.role };
}
const rebuild = (url: string, token: string) => post(`${url}/api/search/admin/rebuild`, {}, token);
/**
 * An admin's rebuild, once the one search may run by itself at start (an empty index is filled from
 * the catalogue) is over: while that runs, a rebuild is rightly refused with 409.
 */
async function rebuildWhenIdle(url: string, token: string): Promise<Response> {
  await expect
    .poll(
      async () => {
        const res = await fetch(`${url}/api/search/admin/rebuild`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.status).toBe(200);
        return ((await res.json()) as { running: boolean }).running;
      },
      { timeout: 30_000, interval: 100 },
    )
    .toBe(false);
  return rebuild(url, token);
}

describe('kaboodle admin grant|revoke', () => {
  it(
    'grants admin to a verified account and revokes it, ending its sessions',
    { timeout: 600_000 },
    async () => {
      // 1. An account, verified from the link in the local mail folder; not an admin.
      let app = await start();
      expect(
        (await post(`${app.url}/api/auth/register`, { email: EMAIL, password: PASSWORD, name: 'Pick' }))
          .status,
      ).toBe(201);
      const before = await signIn(app.url);
      expect(before.role).toBe('user');
      expect((await rebuild(app.url, before.token)).status).toBe(403);
      // a grant before the address is verified is refused, with what to do
      await stop();
      const early = await runKaboodle(['admin', 'grant', EMAIL], env);
      expect(early.code).toBe(1);
      expect(early.stderr).toContain(`kaboodle: ${EMAIL} has not verified its address yet`);
      app = await start();
      const mail = await waitForMail(path.join(data.dir, 'mail'), EMAIL, /Verify your Kaboodle email/);
      // (the link carries the address of the run that sent it; tests listen on a new port each run)
      expect(new URL(mail.link!).pathname).toBe('/verify-email');
      expect((await post(`${app.url}/api/auth/verify-email`, { token: tokenOf(mail.link) })).status).toBe(
        200,
      );

      // 2. While Kaboodle runs on the embedded database, the command says why it cannot work.
      const busy = await runKaboodle(['admin', 'grant', EMAIL], env);
      expect(busy.code).toBe(1);
      expect(busy.stderr).toMatch(/is in use by process \d+/);
      await stop();

      // 3. Stopped: grant, start, sign in as an admin.
      const granted = await runKaboodle(['admin', 'grant', EMAIL.toUpperCase()], env);
      expect({ code: granted.code, stderr: granted.stderr }).toEqual({ code: 0, stderr: '' });
      expect(granted.stdout.trim()).toBe(
        `${EMAIL} is an admin (sessions already open see it at their next refresh).`,
      );
      app = await start();
      const admin = await signIn(app.url);
      expect(admin.role).toBe('admin');
      expect((await rebuildWhenIdle(app.url, admin.token)).status).toBe(202);
      await stop();

      // 4. Revoke: every session ends; the old admin token (its claim says admin) is refused.
      const revoked = await runKaboodle(['admin', 'revoke', EMAIL], env);
      expect(revoked.code).toBe(0);
      expect(revoked.stdout.trim()).toMatch(
        new RegExp(
          `^${EMAIL.replace('.', '\\.')} is not an admin \\(ADMIN_EMAILS no longer makes it one\\); [1-9]\\d* sessions? ended\\.$`,
        ),
      );
      app = await start();
      expect((await rebuild(app.url, admin.token)).status).toBe(401);
      const after = await signIn(app.url);
      expect(after.role).toBe('user');
      expect((await rebuild(app.url, after.token)).status).toBe(403);

      // 5. An address without an account is named.
      await stop();
      const ghost = await runKaboodle(['admin', 'revoke', 'ghost@example.com'], env);
      expect(ghost.code).toBe(1);
      expect(ghost.stderr.trim()).toBe('kaboodle: No account uses the address ghost@example.com');
    },
  );
});

const split = process.env.KAFKA_BROKERS && process.env.DATABASE_URL;
describe.skipIf(!split)('kaboodle admin revoke while services run split (Postgres, Kafka)', () => {
  // made in the test, so a skipped suite leaves no folder behind
  let splitData: ReturnType<typeof tempDataDir> | undefined;
  const procs: KaboodleProcess[] = [];
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    splitData?.remove();
  });

  it('search, in another process, refuses the revoked admin at once', { timeout: 600_000 }, async () => {
    splitData = tempDataDir('kaboodle-admin-split-');
    const env = { KABOODLE_DATA_DIR: splitData.dir, ADMIN_EMAILS: '' };
    const auth = await startKaboodleProcess({ target: 'auth', env });
    const processing = await startKaboodleProcess({ target: 'processing', env });
    procs.push(auth, processing);
    const grpc = (p: KaboodleProcess) => p.grpcAddress!.replace(/^0\.0\.0\.0:/, '127.0.0.1:');
    const peers = { ...env, AUTH_URL: auth.url, PROCESSING_GRPC_ADDRESS: grpc(processing) };
    const catalogue = await startKaboodleProcess({ target: 'catalogue', env: peers });
    procs.push(catalogue);
    const search = await startKaboodleProcess({
      target: 'search',
      env: { ...peers, CATALOGUE_GRPC_ADDRESS: grpc(catalogue) },
    });
    procs.push(search);

    const email = `split-admin-${randomUUID()}@example.com`;
    const signInAt = async () => {
      const res = await post(`${auth.url}/api/auth/login`, { email, password: PASSWORD });
      return (await res.json()) as { token: string; user: { role: string } };
    };
    expect(
      (await post(`${auth.url}/api/auth/register`, { email, password: PASSWORD, name: 'Split' })).status,
    ).toBe(201);
    const mail = await waitForMail(path.join(splitData.dir, 'mail'), email, /Verify your Kaboodle email/);
    expect((await post(`${auth.url}/api/auth/verify-email`, { token: tokenOf(mail.link) })).status).toBe(200);
    // Postgres serves every process at once: the command runs beside the services.
    expect((await runKaboodle(['admin', 'grant', email, '--target=auth'], env)).code).toBe(0);
    const admin = await signInAt();
    expect(admin.user.role).toBe('admin');
    expect((await rebuildWhenIdle(search.url, admin.token)).status).toBe(202);

    const revoked = await runKaboodle(['admin', 'revoke', email, '--target=auth'], env);
    expect(revoked.code).toBe(0);
    const since = Date.now();
    // The revocation travels outbox → Kafka → search's revocation list.
    await expect
      .poll(async () => (await rebuild(search.url, admin.token)).status, { timeout: 15_000, interval: 100 })
      .toBe(401);
    console.log(
      `[admin-command] search refused the revoked admin's token ${Date.now() - since} ms after the command returned`,
    );
    const after = await signInAt();
    expect(after.user.role).toBe('user');
    expect((await rebuild(search.url, after.token)).status).toBe(403);
  });
});
