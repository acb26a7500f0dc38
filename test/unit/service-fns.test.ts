/** Pure helpers of the service: token format, delta, target paths, allowance periods, config, rate-limit windows. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { createMemoryRateLimiter } from '../../server/rate-limit/rate-limiter.js';
import { addMonths, periodContaining } from '../../server/services/plans.js';
import { computeDelta, sourceHash, type StoredKey } from '../../server/services/push-fns.js';
import { targetPath } from '../../server/services/pull-fns.js';
import { checkTokenShape, displayPrefix, generateTokenSecret, hashTokenSecret } from '../../server/services/tokens/token-fns.js';
import { newId } from '../../server/ids.js';

describe('token secrets', () => {
  it('have the prl_ prefix, 38 base62 characters and a valid checksum', () => {
    for (let i = 0; i < 200; i++) {
      const secret = generateTokenSecret();
      expect(secret).toMatch(/^prl_[0-9A-Za-z]{38}$/);
      expect(checkTokenShape(secret)).toBe('ok');
    }
  });

  it('detect a changed character, a truncation and a wrong prefix offline', () => {
    const secret = generateTokenSecret();
    const swapped = secret.slice(0, 20) + (secret[20] === 'x' ? 'y' : 'x') + secret.slice(21);
    expect(checkTokenShape(swapped)).toBe('malformed');
    expect(checkTokenShape(secret.slice(0, -1))).toBe('malformed');
    expect(checkTokenShape('ghp_' + secret.slice(4))).toBe('malformed');
  });

  it('are stored as SHA-256 and displayed by prefix only', () => {
    const secret = generateTokenSecret();
    expect(hashTokenSecret(secret)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashTokenSecret(secret)).not.toContain(secret.slice(4, 20));
    expect(displayPrefix(secret)).toBe(secret.slice(0, 10));
  });
});

describe('ids', () => {
  it('sort by creation, even within one millisecond', () => {
    const ids = Array.from({ length: 1000 }, () => newId('bat'));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(1000);
  });
});

describe('delta', () => {
  const stored = (key: string, source: string, position: number, state: 'active' | 'removed' = 'active'): StoredKey => ({
    id: `id_${key}`,
    key,
    source_hash: sourceHash({ key, source }),
    state,
    position,
    line: null,
  });

  it('classifies added, changed, unchanged and removed keys of a file push', () => {
    const delta = computeDelta(
      [stored('a', 'A', 0), stored('b', 'B', 1), stored('c', 'C', 2)],
      [
        { key: 'a', source: 'A' },
        { key: 'b', source: 'B2' },
        { key: 'd', source: 'D' },
      ],
      true,
    );
    expect(delta.added.map((a) => a.entry.key)).toEqual(['d']);
    expect(delta.changed.map((c) => c.entry.key)).toEqual(['b']);
    expect(delta.unchanged.map((u) => u.entry.key)).toEqual(['a']);
    expect(delta.removed.map((r) => r.key)).toEqual(['c']);
    expect(delta.added[0]!.position).toBe(2);
  });

  it('treats notes, context, max length and pass as part of the source', () => {
    const base = { key: 'k', source: 'Save' };
    const hashes = new Set([
      sourceHash(base),
      sourceHash({ ...base, notes: 'button' }),
      sourceHash({ ...base, context: 'menu' }),
      sourceHash({ ...base, maxLength: 10 }),
      sourceHash({ ...base, pass: 'careful' }),
    ]);
    expect(hashes.size).toBe(5);
    expect(sourceHash({ ...base, pass: 'fast' })).toBe(sourceHash(base));
  });

  it('a keys push appends new keys after the stored ones and removes nothing', () => {
    const delta = computeDelta([stored('a', 'A', 0), stored('b', 'B', 1)], [{ key: 'z', source: 'Z' }], false);
    expect(delta.removed).toEqual([]);
    expect(delta.added[0]!.position).toBe(2);
  });

  it('a removed key pushed again is unchanged but reactivated', () => {
    const delta = computeDelta([stored('a', 'A', 0, 'removed')], [{ key: 'a', source: 'A' }], true);
    expect(delta.unchanged[0]!.moved).toBe(true);
  });
});

describe('target paths', () => {
  it.each([
    ['locales/en.json', 'de', 'locales/de.json'],
    ['en/app.json', 'fr', 'fr/app.json'],
    ['src/i18n/en-US/messages.json', 'pt-BR', 'src/i18n/pt-BR/messages.json'],
    ['strings.json', 'ja', 'ja/strings.json'],
    ['lang/en.lang.json', 'de', 'lang/de.lang.json'],
    ['content/english/en.json', 'de', 'content/english/de.json'],
  ])('%s → %s for %s', (source, locale, expected) => {
    expect(targetPath(source, source.includes('en-US') ? 'en-US' : 'en', locale, '.json')).toBe(expected);
  });

  it('keeps the underscore spelling of the source', () => {
    expect(targetPath('res/en_US.json', 'en-US', 'pt-BR', '.json')).toBe('res/pt_BR.json');
  });

  it('puts an Android resource file of values/ in the values folder of the locale’s qualifier', () => {
    expect(targetPath('app/src/main/res/values/strings.xml', 'en', 'de', '.xml')).toBe('app/src/main/res/values-de/strings.xml');
    expect(targetPath('res/values/plurals.xml', 'en', 'pt-BR', '.xml')).toBe('res/values-pt-rBR/plurals.xml');
    expect(targetPath('values/strings.xml', 'en', 'sr-Latn', '.xml')).toBe('values-b+sr+Latn/strings.xml');
    // Not a values folder, or not XML: the general rule.
    expect(targetPath('config/values/en.json', 'en', 'de', '.json')).toBe('config/values/de.json');
  });

  it('names keys pushed without a file after the locale', () => {
    expect(targetPath('', 'en', 'de', '.json')).toBe('de.json');
  });
});

describe('allowance periods', () => {
  it('are calendar months from the anchor, clamped to short months', () => {
    const anchor = new Date('2026-01-31T10:00:00Z');
    expect(addMonths(anchor, 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    const p = periodContaining(anchor, new Date('2026-03-15T00:00:00Z'));
    expect(p.index).toBe(1);
    expect(p.start.toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(p.end.toISOString()).toBe('2026-03-31T10:00:00.000Z');
    expect(periodContaining(anchor, new Date('2026-01-31T10:00:00Z')).index).toBe(0);
  });
});

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8787);
    expect(config.database.kind).toBe('pglite');
    expect(config.redis).toBeUndefined();
    expect(config.rateLimitPerMinute).toBe(60);
    expect(config.providers).toEqual({ fast: { kind: 'pseudo' }, careful: { kind: 'pseudo' } });
  });

  it('names every bad variable with its value and the expected form', () => {
    try {
      loadConfig({ PORT: 'http', DATABASE_URL: 'mysql://x', TRANSLATION_PROVIDER: 'google' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toContain("PORT='http'");
      expect(message).toContain("DATABASE_URL='mysql://x'");
      expect(message).toContain('postgres://');
      expect(message).toContain("TRANSLATION_PROVIDER='google'");
    }
  });

  it('reads the console settings, and never prints an SMTP URL (it may hold a password)', () => {
    const config = loadConfig({ SESSION_TTL: '2h', CREDENTIAL_TTL: '5m', PARLANCE_SIGNUP: 'invite', SMTP_URL: 'smtp://u:secret@mail.example.com:587' });
    expect(config.people).toMatchObject({ sessionTtlMs: 7_200_000, credentialTtlMs: 300_000, invitationTtlMs: 7 * 86_400_000, signup: 'invite', smtp: { url: 'smtp://u:secret@mail.example.com:587' } });
    try {
      loadConfig({ SMTP_URL: 'http://u:secret@mail.example.com', SESSION_TTL: 'forever' });
      expect.unreachable();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('SMTP_URL=(hidden)');
      expect(message).not.toContain('secret');
      expect(message).toContain("SESSION_TTL='forever': expected a duration such as '12h'");
    }
  });

  it('switches to PostgreSQL and Redis when their URLs are set', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@h/db', REDIS_URL: 'redis://h:6379', DATABASE_SCHEMA: 'tenant_a' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@h/db', schema: 'tenant_a' });
    expect(config.redis).toEqual({ url: 'redis://h:6379', prefix: 'parlance' });
  });
});

describe('memory rate limiter', () => {
  it('counts per key in one-minute windows', async () => {
    const limiter = createMemoryRateLimiter(3);
    const t = 1_800_000_000_000;
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.hit('a', t + i));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
    expect((await limiter.hit('b', t)).allowed).toBe(true);
    expect((await limiter.hit('a', t + 60_000)).allowed).toBe(true);
    expect(results[3]!.retryAfter).toBe(60);
    expect(results[3]!.resetAt).toBe((t + 60_000) / 1000);
  });
});
