/** Secrets at rest for the GitHub App: AES-256-GCM with the operator's PARLANCE_SECRET_KEY, bound to what each secret belongs to. */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const KEY_BYTES = 32;
/** 96-bit nonces are what GCM is specified for; anything else is hashed into one and weakens the bound on reuse. */
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';
const HEX_KEY = /^[0-9a-fA-F]{64}$/;
/** 32 bytes are 43 base64 characters and one '=' of padding; the padding is optional and either alphabet is accepted. */
const BASE64_KEY = /^[A-Za-z0-9+/_-]{43}=?$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

export const SECRET_KEY_HINT = "32 random bytes as 64 hex digits or 44 base64 characters; generate one with 'openssl rand -base64 32'";

/** A sealed value that does not open: tampered with, sealed for something else, or sealed under another key. */
export class SecretDecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretDecryptionError';
  }
}

/**
 * The 32-byte key in PARLANCE_SECRET_KEY, as hex or base64 (standard or URL-safe). Messages describe the value's
 * shape, never the value: it is the one secret that unlocks every other.
 */
export function parseSecretKey(text: string): { ok: true; key: Buffer } | { ok: false; problem: string } {
  const trimmed = text.trim();
  if (HEX_KEY.test(trimmed)) return { ok: true, key: Buffer.from(trimmed, 'hex') };
  if (BASE64_KEY.test(trimmed)) {
    // Node's base64 decoder reads both the standard and the URL-safe alphabet.
    const key = Buffer.from(trimmed, 'base64');
    if (key.length === KEY_BYTES) return { ok: true, key };
  }
  return { ok: false, problem: `a value of ${trimmed.length} characters that is neither 64 hex digits nor base64 of 32 bytes; expected ${SECRET_KEY_HINT}` };
}

/**
 * Encrypts `plaintext` under `key`. `context` (for example `github_links:ghl_…:token`) is authenticated but not
 * stored, so a ciphertext copied into another row or column fails to open instead of handing over the wrong secret.
 * The result is `v1.<iv>.<ciphertext>.<tag>` in base64url; a fresh random IV every time.
 */
export function sealSecret(key: Uint8Array, plaintext: string, context: string): string {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** The plaintext of a value {@link sealSecret} made with the same key and context; throws {@link SecretDecryptionError} otherwise. */
export function openSecret(key: Uint8Array, sealed: string, context: string): string {
  checkKey(key);
  const parts = sealed.split('.');
  const [version, iv, body, tag] = parts;
  if (parts.length !== 4 || version !== VERSION || iv === undefined || body === undefined || tag === undefined || ![iv, body, tag].every((p) => BASE64URL.test(p))) {
    throw new SecretDecryptionError(`Sealed value for '${context}' is malformed: expected '${VERSION}.<iv>.<ciphertext>.<tag>' in base64url`);
  }
  const ivBytes = Buffer.from(iv, 'base64url');
  const tagBytes = Buffer.from(tag, 'base64url');
  if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) {
    throw new SecretDecryptionError(`Sealed value for '${context}' is malformed: IV of ${ivBytes.length} bytes and tag of ${tagBytes.length} bytes, expected ${IV_BYTES} and ${TAG_BYTES}`);
  }
  const decipher = createDecipheriv('aes-256-gcm', key, ivBytes, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(tagBytes);
  try {
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretDecryptionError(
      `Sealed value for '${context}' failed authentication: it was altered, sealed for something else, or PARLANCE_SECRET_KEY changed since it was sealed`,
    );
  }
}

function checkKey(key: Uint8Array): void {
  if (key.length !== KEY_BYTES) throw new RangeError(`AES-256-GCM needs a ${KEY_BYTES}-byte key, got ${key.length} bytes`);
}
