/** Token secrets: `prl_` + 32 base62 characters + a 6-character base62 CRC32 checksum, stored only as SHA-256. */
import { createHash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const ABILITIES = ['push', 'pull', 'read', 'write', 'manage'] as const;
export type Ability = (typeof ABILITIES)[number];
/** What a CI job that only moves files needs; also the default for a new token (least privilege). */
export const DEPLOY_ABILITIES: readonly Ability[] = ['push', 'pull', 'read'];

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const PREFIX = 'prl_';
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const TOKEN_PATTERN = /^prl_[0-9A-Za-z]{38}$/;

function base62(value: number, width: number): string {
  let out = '';
  let rest = value;
  while (rest > 0) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out.padStart(width, '0');
}

function checksum(body: string): string {
  return base62(crc32(body), CHECKSUM_LENGTH);
}

export function generateTokenSecret(): string {
  let body = '';
  for (let i = 0; i < BODY_LENGTH; i++) body += BASE62[randomInt(62)];
  return `${PREFIX}${body}${checksum(body)}`;
}

export type TokenShape = 'ok' | 'malformed';

/** Checks the shape and checksum without touching the database, so typos and truncations fail fast. */
export function checkTokenShape(secret: string): TokenShape {
  if (!TOKEN_PATTERN.test(secret)) return 'malformed';
  const body = secret.slice(PREFIX.length, PREFIX.length + BODY_LENGTH);
  return secret.slice(PREFIX.length + BODY_LENGTH) === checksum(body) ? 'ok' : 'malformed';
}

export function hashTokenSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** What lists show instead of the secret: enough to recognise a token, not to use it. */
export function displayPrefix(secret: string): string {
  return secret.slice(0, PREFIX.length + 6);
}

export function isAbility(value: string): value is Ability {
  return (ABILITIES as readonly string[]).includes(value);
}
