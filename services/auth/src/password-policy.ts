// The password rule for every new password (register, change, reset), after NIST SP 800-63B:
// at least 8 characters and not one of the passwords people pick most often. No composition rules
// (they make passwords harder to remember, not harder to guess). Sign-in never applies it, so
// accounts made under the old rule keep working until their owners choose a new password.
import { dictionary } from '@zxcvbn-ts/language-common';

export const MIN_PASSWORD_LENGTH = 8;
/** The cap keeps argon2 from being fed megabytes. */
export const MAX_PASSWORD_LENGTH = 1024;

// ~49,000 of the most common passwords from public breach corpora, shipped by zxcvbn-ts.
const COMMON = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));

/** True for a password on the common list, in any letter case ("Password1" is as weak as "password1"). */
export function isCommonPassword(password: string): boolean {
  return COMMON.has(password.toLowerCase());
}

export const passwordTooShort = (label: string) =>
  `${label} must be at least ${MIN_PASSWORD_LENGTH} characters`;
export const passwordTooCommon = (label: string) =>
  `${label} is one of the most common passwords: choose one that is harder to guess`;
