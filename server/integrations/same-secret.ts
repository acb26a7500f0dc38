/** Comparing a secret a remote system sent (a token, a passcode, a signature) with the expected one. */
import { createHash, timingSafeEqual } from 'node:crypto';

/** Constant-time equality of two strings of any length: hashing first makes the lengths equal, so neither leaks. */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}
