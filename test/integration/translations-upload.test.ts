/** POST /v1/translations/upload over HTTP: existing target files become human translations, gated, all or nothing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.js';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { filePush, startService, waitForBatch, type BatchBody, type TestService } from '../helpers/service.js';

let service: TestService;
let mock: MockOpenAI;

const SOURCE_PATH = 'locales/en/common.json';
const SOURCE = { title: 'My shop', greet: 'Hello {name}', bye: 'Goodbye', cart: 'Cart' };

interface Report {
  path: string;
  locale: string;
  dry_run: boolean;
  uploaded: string[];
  unchanged: number;
  refused: { key: string; reason: string }[];
  unknown_keys: string[];
}
interface Row {
  key: string;
  locale: string;
  state: string;
  text: string;
  plurals: Record<string, string> | null;
  origin: string;
  failures: { gate: string; reason: string }[];
}

async function push(path: string, content: string, name: string) {
  const res = await service.api('/v1/push', { method: 'POST', body: filePush(content, { path }, name) });
  expect(res.status, await res.clone().text()).toBe(202);
  const done = await waitForBatch(service, ((await res.json()) as BatchBody).id);
  expect(done.status).toBe('completed');
  return done;
}

function upload(fields: Record<string, string>, content: string, name = 'common.json') {
  return service.api('/v1/translations/upload', { method: 'POST', body: filePush(content, fields, name) });
}

/** The translation.updated events a person's writes sent (batches send them too, with origin 'batch'). */
async function humanEvents(): Promise<{ count: number; locales: string[]; translations: { key: string; locale: string; state: string }[] }[]> {
  const rows = await service.runtime.db.selectFrom('events').select('payload').where('project_id', '=', service.projectId).where('type', '=', 'translation.updated').orderBy('created_at').execute();
  return rows.map((r) => (JSON.parse(r.payload) as { data: { origin: string; count: number; locales: string[]; translations: { key: string; locale: string; state: string }[] } }).data).filter((d) => d.origin === 'human');
}

async function row(key: string, locale: string, path = SOURCE_PATH): Promise<Row | undefined> {
  const res = await service.api(`/v1/translations?key=${encodeURIComponent(key)}&locale=${locale}&path=${encodeURIComponent(path)}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: Row[] }).items[0];
}

beforeAll(async () => {
  mock = await startMockOpenAI();
  service = await startService({ env: { TRANSLATION_PROVIDER: 'openai', OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'mock-1', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' } });
  // A subscriber, so that the service keeps its events (nothing listens there; the deliveries just fail).
  const hook = await service.api('/v1/webhooks', { method: 'POST', json: { url: 'http://127.0.0.1:9/hook', events: ['translation.updated'] } });
  expect(hook.status, await hook.clone().text()).toBe(201);
  await push(SOURCE_PATH, JSON.stringify(SOURCE, null, 2), 'common.json');
});
afterAll(async () => {
  await service?.stop();
  await mock?.close();
});

describe('POST /v1/translations/upload', () => {
  it('reports uploaded, unchanged, refused and unknown keys; a dry run writes nothing, the upload writes human translations', async () => {
    const machineBye = (await row('bye', 'de'))!;
    expect(machineBye.origin).not.toBe('human');
    const file = JSON.stringify({ title: 'Mein Laden', greet: 'Hallo', bye: machineBye.text, cart: '', extra: 'Übrig' }, null, 2);
    const expected = { path: SOURCE_PATH, locale: 'de', uploaded: ['title'], unchanged: 1, refused: [{ key: 'greet', reason: expect.stringContaining('{name}') }], unknown_keys: ['extra'] };

    const dry = await upload({ path: SOURCE_PATH, locale: 'de', dry_run: 'true' }, file);
    expect(dry.status, await dry.clone().text()).toBe(200);
    expect(await dry.json()).toEqual({ ...expected, dry_run: true });
    expect((await row('title', 'de'))!.text).not.toBe('Mein Laden');
    expect((await row('greet', 'de'))!.origin).not.toBe('human');
    expect(await humanEvents()).toEqual([]);

    const res = await upload({ path: SOURCE_PATH, locale: 'de' }, file);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ...expected, dry_run: false });
    expect(await row('title', 'de')).toMatchObject({ state: 'human', origin: 'human', text: 'Mein Laden', failures: [] });
    // A refused value is kept as the importers keep a reviewed translation a gate failed: human, with its failure.
    const greet = (await row('greet', 'de'))!;
    expect(greet).toMatchObject({ state: 'human', text: 'Hallo' });
    expect(greet.failures.map((f) => f.gate)).toEqual(['placeholders']);
    // The empty value is no translation: the machine's stays.
    expect((await row('cart', 'de'))!.origin).not.toBe('human');
    expect(await row('extra', 'de')).toBeUndefined();
    // One event for the upload, as PUT sends one per edit.
    expect(await humanEvents()).toEqual([
      {
        origin: 'human',
        batch_id: null,
        count: 2,
        locales: ['de'],
        translations: [
          { key: 'title', path: SOURCE_PATH, locale: 'de', state: 'human' },
          { key: 'greet', path: SOURCE_PATH, locale: 'de', state: 'human' },
        ],
        truncated: false,
      },
    ]);

    const pulled = JSON.parse(await (await service.api(`/v1/pull?path=${encodeURIComponent(SOURCE_PATH)}&locale=de`)).text()) as Record<string, string>;
    expect(pulled).toMatchObject({ title: 'Mein Laden', greet: 'Hallo', bye: machineBye.text });

    const again = (await (await upload({ path: SOURCE_PATH, locale: 'de' }, file)).json()) as Report;
    expect(again).toMatchObject({ uploaded: [], unchanged: 3, refused: [], unknown_keys: ['extra'] });
  });

  it('keeps human translations through a later machine pass: only the changed key is translated again', async () => {
    const before = mock.rows.length;
    await upload({ path: SOURCE_PATH, locale: 'fr' }, JSON.stringify({ title: 'Ma boutique', bye: 'Au revoir' }));
    const done = await push(SOURCE_PATH, JSON.stringify({ ...SOURCE, bye: 'Goodbye for now', help: 'Help' }, null, 2), 'common.json');
    expect(done.keys).toMatchObject({ added: 1, changed: 1 });
    // bye (changed) and help (new) in de, fr and ja; title's human translations are not touched.
    expect(mock.rows.length - before).toBe(6);
    expect(await row('title', 'de')).toMatchObject({ state: 'human', text: 'Mein Laden' });
    expect(await row('title', 'fr')).toMatchObject({ state: 'human', text: 'Ma boutique' });
    const bye = (await row('bye', 'fr'))!;
    expect(bye.origin).not.toBe('human');
    expect(bye.text).not.toBe('Au revoir');
  });

  it('refuses an unparsable file naming line and column, and writes nothing of it', async () => {
    const res = await upload({ path: SOURCE_PATH, locale: 'ja' }, '{\n  "title": "店",\n  "bye": \n}');
    expect(res.status).toBe(422);
    const body = (await res.json()) as { code: string; detail: string; line: number; column: number; path: string };
    expect(body).toMatchObject({ code: 'file_unparsable', path: SOURCE_PATH, line: 4 });
    expect(body.detail).toMatch(new RegExp(`^${SOURCE_PATH}:4:\\d+: `));
    expect((await row('title', 'ja'))!.origin).not.toBe('human');
  });

  it('answers 404 for a path never pushed, 422 for a locale that is not a target, 403 without push or write', async () => {
    const missing = await upload({ path: 'locales/en/nope.json', locale: 'de' }, '{}');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'path_not_found', detail: expect.stringContaining("'locales/en/nope.json'") });
    for (const locale of ['es', 'en']) {
      const res = await upload({ path: SOURCE_PATH, locale }, '{}');
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ code: 'locale_not_in_project', detail: expect.stringContaining(`'${locale}'`) });
    }
    const readOnly = await service.mintToken({ abilities: ['pull', 'read'] });
    const refused = await service.api('/v1/translations/upload', { method: 'POST', token: readOnly, body: filePush('{}', { path: SOURCE_PATH, locale: 'de' }) });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'ability_missing', detail: expect.stringContaining("'push' or 'write'") });
    // A deploy token (push, pull, read: what CI's `parlance sync` holds) may upload a repository's existing translations.
    const deploy = await service.mintToken({ abilities: ['push', 'pull', 'read'] });
    const dry = await service.api('/v1/translations/upload', { method: 'POST', token: deploy, body: filePush('{}', { path: SOURCE_PATH, locale: 'de', dry_run: 'true' }) });
    expect(dry.status).toBe(200);
  });

  it('uploads plural forms (through the client), gating each form', async () => {
    const path = 'app/src/main/res/values/strings.xml';
    const xml = (items: string, title: string) =>
      `<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="title">${title}</string>\n    <plurals name="messages">\n${items}    </plurals>\n</resources>\n`;
    await push(path, xml('        <item quantity="one">%d message</item>\n        <item quantity="other">%d messages</item>\n', 'Inbox'), 'strings.xml');
    const client = createClient({ baseUrl: service.url, token: service.token });
    const de = xml('        <item quantity="one">%d Nachricht</item>\n        <item quantity="other">%d Nachrichten</item>\n', 'Posteingang');
    const report = await client.uploadTranslations({ path, locale: 'de', content: new TextEncoder().encode(de) });
    expect(report).toEqual({ path, locale: 'de', dry_run: false, uploaded: ['title', 'messages'], unchanged: 0, refused: [], unknown_keys: [] });
    expect(await row('messages', 'de', path)).toMatchObject({ state: 'human', plurals: { one: '%d Nachricht', other: '%d Nachrichten' } });

    // Japanese has only `other`; a form that drops the count is refused by the placeholder gate, and kept for review.
    const ja = xml('        <item quantity="other">メッセージ</item>\n', 'Inbox');
    const jaReport = await client.uploadTranslations({ path, locale: 'ja', content: new TextEncoder().encode(ja), dryRun: true });
    // The machine wrote `ja: INBOX`, so the file's 'Inbox' is a change too.
    expect(jaReport).toEqual({ path, locale: 'ja', dry_run: true, uploaded: ['title'], unchanged: 0, refused: [{ key: 'messages', reason: expect.stringContaining('%d') }], unknown_keys: [] });
    expect((await row('messages', 'ja', path))!.origin).not.toBe('human');
  });

  it('reads a gettext catalog by its msgstr: plural slots by the locale\'s layout, fuzzy and empty messages left out', async () => {
    const path = 'po/messages.pot';
    const pot = [
      'msgid ""',
      'msgstr ""',
      '"Content-Type: text/plain; charset=UTF-8\\n"',
      '',
      'msgid "Save"',
      'msgstr ""',
      '',
      'msgid "Cancel"',
      'msgstr ""',
      '',
      'msgid "Delete"',
      'msgstr ""',
      '',
      'msgid "%d file"',
      'msgid_plural "%d files"',
      'msgstr[0] ""',
      'msgstr[1] ""',
      '',
    ].join('\n');
    await push(path, pot, 'messages.pot');
    const de = [
      'msgid ""',
      'msgstr ""',
      '"Language: de\\n"',
      '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
      '',
      'msgid "Save"',
      'msgstr "Speichern"',
      '',
      '#, fuzzy',
      'msgid "Cancel"',
      'msgstr "Abbruch"',
      '',
      'msgid "Delete"',
      'msgstr ""',
      '',
      'msgid "%d file"',
      'msgid_plural "%d files"',
      'msgstr[0] "%d Datei"',
      'msgstr[1] "%d Dateien"',
      '',
    ].join('\n');
    const res = await upload({ path, locale: 'de' }, de, 'de.po');
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ path, locale: 'de', dry_run: false, uploaded: ['Save', '%d file'], unchanged: 0, refused: [], unknown_keys: [] });
    expect(await row('%d file', 'de', path)).toMatchObject({ state: 'human', plurals: { one: '%d Datei', other: '%d Dateien' } });
    expect((await row('Cancel', 'de', path))!.origin).not.toBe('human');
    const pulled = await (await service.api(`/v1/pull?path=${encodeURIComponent(path)}&locale=de`)).text();
    expect(pulled).toContain('msgstr "Speichern"');
    expect(pulled).toContain('msgstr[1] "%d Dateien"');

    const bad = await upload({ path, locale: 'de' }, 'msgid "Save"\nmsgstr "Speichern\n', 'de.po');
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ code: 'file_unparsable', path, line: expect.any(Number), column: expect.any(Number) });
  });

  it('refuses formats whose files keep the source beside the translation', async () => {
    const res = await upload({ path: SOURCE_PATH, locale: 'de', format: 'xliff12' }, '<xliff/>', 'de.xlf');
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'format_not_uploadable', detail: expect.stringContaining('xliff12') });
  });

  it('is described in the OpenAPI document with the upload body limit', async () => {
    const doc = (await (await service.api('/v1/openapi.json', { token: null })).json()) as { paths: Record<string, Record<string, { 'x-body-limit'?: number }>> };
    expect(doc.paths['/v1/translations/upload']?.post?.['x-body-limit']).toBe(service.config.maxUploadBytes);
  });
});
