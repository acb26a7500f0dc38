/**
 * Archive limits through the service, as configured (MAX_INFLATED_BYTES, MAX_ARCHIVE_ENTRIES): an .xlsx zip bomb pushed
 * to POST /v1/push is answered 413 `archive_too_large` naming the file, the entry and the limit; each platform's export
 * with a bomb in it fails its import saying the same; an .xlsx inside an export spends what the export left of the limit.
 */
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xlsxCodec } from '../../src/core/formats/xlsx.js';
import { buildZip, deflatedZeros, type ZipEntrySpec } from '../helpers/build-zip.js';
import { importFixture } from '../helpers/import-fixture.js';
import { crowdinArchive } from '../helpers/platform-mocks/crowdin.js';
import { lokaliseArchive } from '../helpers/platform-mocks/lokalise.js';
import { phraseArchive } from '../helpers/platform-mocks/phrase.js';
import { poeditorArchive } from '../helpers/platform-mocks/poeditor.js';
import { tolgeeArchive } from '../helpers/platform-mocks/tolgee.js';
import { transifexArchive } from '../helpers/platform-mocks/transifex.js';
import { filePush, startService, type TestService } from '../helpers/service.js';

const MIB = 1024 * 1024;
const LIMIT = 32 * MIB;
const LIMIT_TEXT = '33,554,432 bytes (MAX_INFLATED_BYTES)';

let service: TestService;
beforeAll(async () => {
  service = await startService({ env: { MAX_INFLATED_BYTES: String(LIMIT), MAX_ARCHIVE_ENTRIES: '500', RATE_LIMIT_PER_MINUTE: '100000' } });
});
afterAll(async () => {
  await service?.stop();
});

const entriesOf = (archive: Uint8Array): ZipEntrySpec[] => Object.entries(unzipSync(archive)).map(([name, content]) => ({ name, content }));
/** A workbook of one string, with `extra` entries beside its parts. */
const workbook = (...extra: ZipEntrySpec[]) => buildZip([...entriesOf(xlsxCodec.renderFresh([{ key: 'hello', value: 'Hello' }])), ...extra]);
const exceeded = (entry: string) => `Archive entry '${entry}' inflates past the limit of ${LIMIT_TEXT}; the archive's entries together may inflate to at most that.`;

interface Problem {
  status: number;
  code: string;
  detail: string;
  path?: string;
  entry?: string | null;
  limit?: number;
  setting?: string;
}

async function push(bytes: Uint8Array, path = 'sheets/en.xlsx'): Promise<{ status: number; body: Problem }> {
  const res = await service.api('/v1/push', { method: 'POST', body: filePush(bytes, { format: 'xlsx', path, locales: 'de' }, 'en.xlsx') });
  return { status: res.status, body: (await res.json()) as Problem };
}

describe('POST /v1/push with format=xlsx', () => {
  it('answers 413 archive_too_large to a zip bomb, naming the file, the entry and the limit', async () => {
    const bomb = workbook({ name: 'xl/sharedStrings.xml', deflated: deflatedZeros(256 * MIB) });
    expect(bomb.length).toBeLessThan(300_000);
    const { status, body } = await push(bomb);
    expect(status).toBe(413);
    expect(body).toMatchObject({ code: 'archive_too_large', path: 'sheets/en.xlsx', entry: 'xl/sharedStrings.xml', limit: LIMIT, setting: 'MAX_INFLATED_BYTES' });
    expect(body.detail).toBe(`sheets/en.xlsx: ${exceeded('xl/sharedStrings.xml')}`);
  });

  it('stops a part whose declared size lies at the limit too', async () => {
    const { status, body } = await push(workbook({ name: 'xl/sharedStrings.xml', deflated: deflatedZeros(256 * MIB), declaredSize: 10 }));
    expect(status).toBe(413);
    expect(body.entry).toBe('xl/sharedStrings.xml');
  });

  it('answers 413 to a workbook with more entries than MAX_ARCHIVE_ENTRIES, counting media it does not inflate', async () => {
    const parts = entriesOf(xlsxCodec.renderFresh([{ key: 'hello', value: 'Hello' }])).length;
    const { status, body } = await push(workbook(...Array.from({ length: 500 }, (_, i) => ({ name: `xl/media/image${i}.png`, content: 'png' }))));
    expect(status).toBe(413);
    expect(body).toMatchObject({ code: 'archive_too_large', entry: null, limit: 500, setting: 'MAX_ARCHIVE_ENTRIES' });
    expect(body.detail).toBe(`sheets/en.xlsx: The archive has ${parts + 500} entries; at most 500 are read (MAX_ARCHIVE_ENTRIES).`);
  });

  it('takes a workbook within the limits, media past them left compressed', async () => {
    const res = await service.api('/v1/push', { method: 'POST', body: filePush(workbook({ name: 'xl/media/image1.png', deflated: deflatedZeros(256 * MIB) }), { format: 'xlsx', path: 'ok/en.xlsx', locales: 'de' }, 'en.xlsx') });
    expect(res.status, await res.clone().text()).toBe(202);
  });
});

interface ImportBody {
  status: string;
  error: string | null;
}

async function importArchive(platform: string, bytes: Uint8Array): Promise<ImportBody> {
  const form = new FormData();
  form.set('platform', platform);
  form.set('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), `${platform}-export.zip`);
  const res = await service.api('/v1/imports', { method: 'POST', body: form });
  const queued = (await res.json()) as { id: string };
  expect(res.status, JSON.stringify(queued)).toBe(202);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const body = (await (await service.api(`/v1/imports/${queued.id}`)).json()) as ImportBody;
    if (['completed', 'failed', 'cancelled'].includes(body.status)) return body;
    if (Date.now() > deadline) throw new Error(`import ${queued.id} still ${body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const fixture = importFixture();
const EXPORTS = { crowdin: crowdinArchive, lokalise: lokaliseArchive, phrase: phraseArchive, transifex: transifexArchive, tolgee: tolgeeArchive, poeditor: poeditorArchive };

describe('imports from an export', () => {
  it.each(Object.entries(EXPORTS))('%s: an export with a zip bomb in it fails, naming the file, the entry and the limit', async (platform, archiveOf) => {
    const bomb = buildZip([...entriesOf(archiveOf(fixture)), { name: 'locales/bomb.json', deflated: deflatedZeros(256 * MIB) }]);
    const result = await importArchive(platform, bomb);
    expect(result.status).toBe('failed');
    expect(result.error).toBe(`${platform}-export.zip: ${exceeded('locales/bomb.json')}`);
  });

  it('fails an export with more entries than MAX_ARCHIVE_ENTRIES', async () => {
    const result = await importArchive('tolgee', buildZip(Array.from({ length: 501 }, (_, i) => ({ name: `${i}/en.json`, content: '{}' }))));
    expect(result.error).toBe('tolgee-export.zip: The archive has 501 entries; at most 500 are read (MAX_ARCHIVE_ENTRIES).');
  });

  // 20 MiB beside the workbook and 20 MiB inside it: each under the 32 MiB limit, over it together.
  const padding: ZipEntrySpec = { name: 'padding.txt', deflated: deflatedZeros(20 * MIB) };
  const nested = () => workbook({ name: 'xl/sharedStrings.xml', deflated: deflatedZeros(20 * MIB) });
  // What the readers that wrap a file's parse error say, before the limit's own sentence.
  const inner = exceeded('xl/sharedStrings.xml').slice(0, -1);
  const NESTED: [string, ZipEntrySpec[], string][] = [
    ['crowdin', [padding, { name: 'strings.xlsx', content: nested() }], `strings.xlsx in crowdin-export.zip cannot be read as xlsx: ${inner}`],
    ['lokalise', [padding, { name: 'en/strings.xlsx', content: nested() }], `lokalise-export.zip: en/strings.xlsx: ${exceeded('xl/sharedStrings.xml')}`],
    [
      'phrase',
      [padding, { name: '.phrase.yml', content: 'phrase:\n  push:\n    sources:\n      - file: ./strings.xlsx\n        params:\n          locale_id: en\n' }, { name: 'strings.xlsx', content: nested() }],
      `Phrase archive: strings.xlsx is not a readable xlsx file: ${inner}`,
    ],
    [
      'transifex',
      [
        padding,
        { name: '.tx/config', content: '[main]\nhost = https://app.transifex.com\n\n[o:acme:p:web:r:strings]\nfile_filter = translations/<lang>/strings.xlsx\nsource_file = strings.xlsx\nsource_lang = en\ntype = XLSX\n' },
        { name: 'strings.xlsx', content: nested() },
      ],
      `strings.xlsx in the Transifex archive cannot be read as xlsx: ${inner}`,
    ],
  ];

  it('crowdin: the same .xlsx without the padding beside it is read', async () => {
    const result = await importArchive('crowdin', buildZip([{ name: 'strings.xlsx', content: nested() }]));
    expect(result).toMatchObject({ status: 'completed', error: null });
  });

  it.each(NESTED)('%s: an .xlsx in the export spends what the export left of the limit', async (platform, entries, error) => {
    const result = await importArchive(platform, buildZip(entries));
    expect(result.status).toBe('failed');
    expect(result.error).toBe(error);
  });
});
