/**
 * A plural key pushed once and pulled for ar (six categories), pl (four) and ja (one) in every format:
 * the plural formats write exactly the locale's CLDR categories, the others leave the key out and say why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPLEMENTED_FORMATS, getCodec } from '../../src/core/formats/index.js';
import { pluralCategories } from '../../src/core/plurals.js';
import { startService, waitForBatch, type TestService } from '../helpers/service.js';

let service: TestService;
let token: string;
beforeAll(async () => {
  // Sixty pulls and more in a minute: the rate limit is not what this file is about.
  service = await startService({ env: { RATE_LIMIT_PER_MINUTE: '10000' } });
  const project = await service.runtime.organisations.createProject({ organisationId: service.organisationId, name: 'Plurals', sourceLocale: 'en', targetLocales: ['ar', 'pl', 'ja'] });
  token = await service.mintToken({ projectId: project.id });
  const res = await service.api('/v1/push', {
    token,
    method: 'POST',
    json: {
      keys: [
        { key: 'title', source: 'Your cart' },
        { key: 'items', plurals: { one: '{count} item in your cart', other: '{count} items in your cart' } },
      ],
    },
  });
  expect(res.status).toBe(202);
  const batch = (await res.json()) as { id: string };
  expect((await waitForBatch(service, batch.id, token)).status).toBe('completed');
});
afterAll(async () => {
  await service?.stop();
});

describe.each(['ar', 'pl', 'ja'])('pulling a plural key for %s', (locale) => {
  it.each(IMPLEMENTED_FORMATS)('in %s', async (format) => {
    const codec = getCodec(format)!;
    const res = await service.api(`/v1/pull?locale=${locale}&format=${format}`, { token });
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const entries = codec.parse(bytes);
    const plural = entries.find((e) => e.plurals);
    if (format === 'po') {
      // A PO file's entries are its msgids; the target's forms are the msgstr[n] slots of its Plural-Forms header.
      const text = new TextDecoder().decode(bytes);
      const slots = pluralCategories(locale).length;
      expect(text).toMatch(new RegExp(`Plural-Forms: nplurals=${slots};`));
      const message = text.split(/\n\n/).find((block) => block.includes('msgid_plural'))!;
      expect([...message.matchAll(/^msgstr\[(\d+)\] "(.*)"$/gm)].map((m) => Number(m[1]))).toEqual([...Array(slots).keys()]);
      for (const m of message.matchAll(/^msgstr\[\d+\] "(.*)"$/gm)) expect(m[1]).toContain('{count}');
    } else if (codec.plurals) {
      expect(plural, 'the plural entry').toBeDefined();
      expect(Object.keys(plural!.plurals!).sort()).toEqual([...pluralCategories(locale)].sort());
      for (const form of Object.values(plural!.plurals!)) expect(form).toContain('{count}');
      expect(res.headers.get('x-parlance-refused-count')).toBeNull();
    } else {
      expect(plural).toBeUndefined();
      expect(entries.some((e) => e.source.includes('items in your cart') || e.key === 'items')).toBe(false);
      expect(res.headers.get('x-parlance-refused-reason')).toBe('format_cannot_express_plural');
      expect(res.headers.get('x-parlance-refused-keys')).toBe('items');
    }
    expect(entries.some((e) => !e.plurals)).toBe(true);
  });
});

it('the batch translated each target category from the matching source form', async () => {
  const batches = (await (await service.api('/v1/batches?limit=1', { token })).json()) as { items: { words: { spent: number } }[] };
  // "Your cart" (2 words) + plural forms "{count} item in your cart" and "{count} items in your cart" (4 + 4) per locale.
  expect(batches.items[0]!.words.spent).toBe(3 * (2 + 8));
  const { db } = service.runtime;
  const rows = await db.selectFrom('translations as t').innerJoin('keys as k', 'k.id', 't.key_id').select(['t.locale', 't.plurals']).where('k.key', '=', 'items').execute();
  const ar = rows.find((r) => r.locale === 'ar')!.plurals!;
  expect(Object.keys(ar).sort()).toEqual(['few', 'many', 'one', 'other', 'two', 'zero']);
  // ar's `one` starts from the English `one` form, every other category from English `other`.
  expect(ar.one).toContain('{count} îţéɱ îñ');
  for (const category of ['zero', 'two', 'few', 'many', 'other'] as const) expect(ar[category]).toContain('{count} îţéɱš îñ');
});
