// argon2id password hashing (@node-rs/argon2: a prebuilt native binary inside the npm package).
import { hash, verify } from '@node-rs/argon2';
import type { Algorithm } from '@node-rs/argon2';

// The package's `Algorithm` is an ambient const enum (not importable as a value under type stripping).
const ARGON2ID = 2 as Algorithm;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** Constant-time by construction (argon2 recomputes and compares); false for a malformed hash. */
  verify(passwordHash: string, password: string): Promise<boolean>;
  /**
   * Spends the same time as a real verify against a fixed hash: called for unknown emails and
   * password-less accounts so response timing does not reveal which emails have accounts.
   */
  verifyDummy(password: string): Promise<void>;
}

export interface Argon2Options {
  /** KiB of memory per hash (default 19456 = 19 MiB, OWASP's argon2id baseline). */
  memoryCost?: number;
  /** Passes (default 2). */
  timeCost?: number;
  parallelism?: number;
}

export function createArgon2PasswordHasher(options: Argon2Options = {}): PasswordHasher {
  const params = {
    algorithm: ARGON2ID,
    memoryCost: options.memoryCost ?? 19_456,
    timeCost: options.timeCost ?? 2,
    parallelism: options.parallelism ?? 1,
  };
  let dummyHash: Promise<string> | undefined;
  return {
    hash: (password) => hash(password, params),
    async verify(passwordHash, password) {
      try {
        return await verify(passwordHash, password);
      } catch {
        return false; // a corrupt stored hash must never let anyone in
      }
    },
    async verifyDummy(password) {
      // Same parameters as real hashes, so the work (and the time) is the same.
      dummyHash ??= hash('kaboodle-dummy-password-for-timing', params);
      await verify(await dummyHash, password).catch(() => false);
    },
  };
}
