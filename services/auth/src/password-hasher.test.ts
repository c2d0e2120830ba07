import { describe, expect, it } from 'vitest';
import { createArgon2PasswordHasher } from './password-hasher.ts';

describe('argon2id password hasher', () => {
  const hasher = createArgon2PasswordHasher();

  it('produces salted argon2id hashes with the OWASP baseline parameters', async () => {
    const a = await hasher.hash('correct horse');
    const b = await hasher.hash('correct horse');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b); // random salt
    expect(a).not.toContain('correct horse');
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const h = await hasher.hash('pässwörd ✓');
    await expect(hasher.verify(h, 'pässwörd ✓')).resolves.toBe(true);
    await expect(hasher.verify(h, 'passwörd ✓')).resolves.toBe(false);
    await expect(hasher.verify(h, '')).resolves.toBe(false);
  });

  it('treats a corrupt stored hash as a failed check, never as a pass', async () => {
    await expect(hasher.verify('not-a-hash', 'x')).resolves.toBe(false);
    await expect(hasher.verify('$argon2id$v=19$m=1,t=1,p=1$$', 'x')).resolves.toBe(false);
  });

  it('spends about as long on the dummy check (unknown email) as on a real one', async () => {
    const h = await hasher.hash('secret');
    await hasher.verifyDummy('warm-up');
    const real: number[] = [];
    const dummy: number[] = [];
    // Interleaved and compared by median, so load from other processes hits both sides alike.
    for (let i = 0; i < 12; i++) {
      let t = performance.now();
      await hasher.verify(h, 'wrong');
      real.push(performance.now() - t);
      t = performance.now();
      await hasher.verifyDummy('wrong');
      dummy.push(performance.now() - t);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // Same parameters, same work: within a generous factor on a shared 2-core machine.
    expect(median(dummy)).toBeGreaterThan(median(real) / 3);
    expect(median(dummy)).toBeLessThan(median(real) * 3);
  });
});
