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
    const time = async (fn: () => Promise<unknown>) => {
      const t = performance.now();
      for (let i = 0; i < 5; i++) await fn();
      return performance.now() - t;
    };
    const real = await time(() => hasher.verify(h, 'wrong'));
    const dummy = await time(() => hasher.verifyDummy('wrong'));
    // Same parameters, same work: within a generous factor on a shared 2-core machine.
    expect(dummy).toBeGreaterThan(real / 3);
    expect(dummy).toBeLessThan(real * 3);
  });
});
