// Follows the verification link Kaboodle mailed to an address (the local mail adapter's folder under
// KABOODLE_DATA_DIR), as its owner would: what privileges tied to an address (ADMIN_EMAILS) need.
import path from 'node:path';
import { tokenOf, waitForMail } from '../../services/auth/src/testing/mail-folder.ts';

export async function verifyAddress(baseUrl: string, dataDir: string, email: string): Promise<void> {
  const mail = await waitForMail(path.join(dataDir, 'mail'), email, /Verify your Kaboodle email/);
  const res = await fetch(new URL('/api/auth/verify-email', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ token: tokenOf(mail.link) }),
  });
  if (res.status !== 200) throw new Error(`verifying ${email} answered ${res.status}: ${await res.text()}`);
}
