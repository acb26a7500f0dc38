/** AES-256-GCM sealing of the GitHub App's secrets: round trip, fresh IVs, tamper and context detection, PARLANCE_SECRET_KEY forms. */
import { createDecipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig, secretKeyFromEnv } from '../../server/config.js';
import { openSecret, parseSecretKey, sealSecret, SecretDecryptionError } from '../../server/github-app/crypto.js';

const key = randomBytes(32);
const TOKEN = 'prl_0123456789ABCDEFGHIJKLMNOPQRSTUVabcdef';
const CONTEXT = 'github_links:ghl_1:token';

/** The sealed value with one base64url character of part `index` (1 iv, 2 ciphertext, 3 tag) changed. */
function flip(sealed: string, index: 1 | 2 | 3): string {
  const parts = sealed.split('.');
  const part = parts[index]!;
  parts[index] = (part[0] === 'A' ? 'B' : 'A') + part.slice(1);
  return parts.join('.');
}

describe('sealSecret / openSecret', () => {
  it('round-trips, and the sealed text shows nothing of the plaintext', () => {
    const sealed = sealSecret(key, TOKEN, CONTEXT);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(sealed).not.toContain(TOKEN);
    expect(sealed).not.toContain(Buffer.from(TOKEN).toString('base64url').slice(0, 12));
    expect(openSecret(key, sealed, CONTEXT)).toBe(TOKEN);
  });

  it('is standard AES-256-GCM: the parts decrypt with node:crypto directly', () => {
    const [, iv, body, tag] = sealSecret(key, TOKEN, CONTEXT).split('.') as [string, string, string, string];
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(CONTEXT));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    expect(Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString()).toBe(TOKEN);
  });

  it('uses a fresh IV every time, so equal secrets do not look equal', () => {
    const a = sealSecret(key, TOKEN, CONTEXT);
    const b = sealSecret(key, TOKEN, CONTEXT);
    expect(a.split('.')[1]).not.toBe(b.split('.')[1]);
    expect(a).not.toBe(b);
  });

  it.each([1, 2, 3] as const)('detects a change to part %i (iv, ciphertext, tag)', (index) => {
    const tampered = flip(sealSecret(key, TOKEN, CONTEXT), index);
    expect(() => openSecret(key, tampered, CONTEXT)).toThrow(SecretDecryptionError);
    expect(() => openSecret(key, tampered, CONTEXT)).toThrow(/failed authentication.*altered/);
  });

  it('refuses a value sealed for another row or column, and one sealed under another key', () => {
    const sealed = sealSecret(key, TOKEN, CONTEXT);
    expect(() => openSecret(key, sealed, 'github_links:ghl_2:token')).toThrow(/'github_links:ghl_2:token' failed authentication/);
    expect(() => openSecret(key, sealed, 'github_links:ghl_1:webhook_secret')).toThrow(SecretDecryptionError);
    expect(() => openSecret(randomBytes(32), sealed, CONTEXT)).toThrow(/PARLANCE_SECRET_KEY changed/);
  });

  it('names the malformed part instead of decrypting garbage', () => {
    expect(() => openSecret(key, TOKEN, CONTEXT)).toThrow(/malformed: expected 'v1\.<iv>\.<ciphertext>\.<tag>'/);
    const [v, iv, body, tag] = sealSecret(key, TOKEN, CONTEXT).split('.') as [string, string, string, string];
    expect(() => openSecret(key, [v, iv.slice(2), body, tag].join('.'), CONTEXT)).toThrow(/IV of 10 bytes and tag of 16 bytes, expected 12 and 16/);
    expect(() => openSecret(key, ['v2', iv, body, tag].join('.'), CONTEXT)).toThrow(/malformed/);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => sealSecret(randomBytes(16), TOKEN, CONTEXT)).toThrow('AES-256-GCM needs a 32-byte key, got 16 bytes');
  });
});

describe('PARLANCE_SECRET_KEY', () => {
  it('accepts 64 hex digits and base64 of 32 bytes in either alphabet, with or without padding', () => {
    for (const text of [key.toString('hex'), key.toString('hex').toUpperCase(), key.toString('base64'), key.toString('base64url'), `${key.toString('base64')}\n`]) {
      const parsed = parseSecretKey(text);
      expect(parsed.ok && parsed.key.equals(key), text).toBe(true);
    }
  });

  it('refuses other lengths and forms without quoting the value', () => {
    const short = randomBytes(16).toString('base64');
    for (const text of [short, 'x'.repeat(64), randomBytes(33).toString('hex'), 'correct horse battery staple']) {
      const parsed = parseSecretKey(text);
      expect(parsed.ok, text).toBe(false);
      if (!parsed.ok) {
        expect(parsed.problem).toContain(`a value of ${text.length} characters`);
        expect(parsed.problem).toContain("openssl rand -base64 32");
        expect(parsed.problem).not.toContain(text);
      }
    }
  });

  it('is optional in the configuration, and a bad one stops start-up with the value hidden', () => {
    expect(secretKeyFromEnv(undefined)).toEqual({ ok: true, key: undefined });
    expect(loadConfig({ PARLANCE_SECRET_KEY: key.toString('hex') }).secretKey?.equals(key)).toBe(true);
    expect(loadConfig({}).secretKey).toBeUndefined();
    expect(loadConfig({ PARLANCE_SECRET_KEY: '' }).secretKey).toBeUndefined();
    const failure = (() => {
      try {
        loadConfig({ PARLANCE_SECRET_KEY: 'hunter2hunter2' });
      } catch (error) {
        return (error as Error).message;
      }
      return 'no error';
    })();
    expect(failure).toMatch(/PARLANCE_SECRET_KEY=\(hidden\): a value of 14 characters/);
    expect(failure).not.toContain('hunter2');
  });
});
