/**
 * Every format through the API: a real file pushed with multipart (format given, and detected), the source
 * locale pulled back byte for byte, and a translated target pulled in the same shape that the codec reads back.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORMAT_IDS, detectFormat, getCodec } from '../../src/core/formats/index.js';
import { filePush, startService, waitForBatch, type BatchBody, type TestService } from '../helpers/service.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/formats');

/** One representative fixture per format: the first file in its folder, with the format's own extension, that has strings. */
function fixtureFor(format: string): { name: string; bytes: Uint8Array } {
  const codec = getCodec(format as (typeof FORMAT_IDS)[number])!;
  for (const name of readdirSync(join(FIXTURES, format)).sort()) {
    if (!codec.extensions.some((ext) => name.toLowerCase().endsWith(ext))) continue;
    const bytes = new Uint8Array(readFileSync(join(FIXTURES, format, name)));
    if (codec.parse(bytes).some((e) => e.translatable !== false)) return { name, bytes };
  }
  throw new Error(`no fixture with strings for ${format}`);
}

let service: TestService;
beforeAll(async () => {
  service = await startService({ env: { RATE_LIMIT_PER_MINUTE: '10000' } });
});
afterAll(async () => {
  await service?.stop();
});

describe.each([...FORMAT_IDS])('%s through the API', (format) => {
  it('pushes a file, pulls the source byte for byte and a translated target the codec reads back', async () => {
    const codec = getCodec(format)!;
    const { name, bytes } = fixtureFor(format);
    const path = `${format}/en/${name}`;
    const res = await service.api('/v1/push', { method: 'POST', body: filePush(bytes, { format, path, locales: 'de' }, name) });
    expect(res.status, await res.clone().text()).toBe(202);
    const batch = (await res.json()) as BatchBody;
    expect(batch.format).toBe(format);
    expect((await waitForBatch(service, batch.id)).status).toBe('completed');

    const source = await service.api(`/v1/pull?locale=en&path=${encodeURIComponent(path)}`);
    expect(source.status).toBe(200);
    expect(Buffer.from(await source.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);

    const target = await service.api(`/v1/pull?locale=de&path=${encodeURIComponent(path)}&missing=source`);
    expect(target.status).toBe(200);
    expect(target.headers.get('x-parlance-path')).toBe(`${format}/de/${name}`);
    const rendered = new Uint8Array(await target.arrayBuffer());
    expect(() => codec.parse(rendered)).not.toThrow();
    if (batch.rows.total > 0) expect(Buffer.from(rendered).equals(Buffer.from(bytes))).toBe(false);
  });
});

it('detects the format of a file pushed without one, for every format whose extension is its own', async () => {
  for (const format of ['android_xml', 'arb', 'ios_strings', 'ios_stringsdict', 'ios_xcstrings', 'po', 'properties', 'resx', 'yaml', 'markdown', 'xliff12', 'xliff2', 'xlsx'] as const) {
    const { name, bytes } = fixtureFor(format);
    expect(detectFormat(name, bytes), name).toBe(format);
  }
});
