/**
 * Translation quality end to end over HTTP: the gates with their one corrective retry, held and flagged rows,
 * review, human edits, glossary, translation memory, TMX, QA runs and the careful pass. The provider is the
 * OpenAI wire mock, scripted per row.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mockTranslate, startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { filePush, startService, waitForBatch, type BatchBody, type BatchRowBody, type TestService } from '../helpers/service.js';

let service: TestService;
let mock: MockOpenAI;

beforeAll(async () => {
  mock = await startMockOpenAI();
  service = await startService({
    env: { TRANSLATION_PROVIDER: 'openai', OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'mock-fast', OPENAI_CAREFUL_MODEL: 'mock-careful', RATE_LIMIT_PER_MINUTE: '100000' },
  });
  expect((await service.api('/v1/languages', { method: 'POST', json: { tag: 'pl' } })).status).toBe(201);
});
afterAll(async () => {
  await service?.stop();
  await mock?.close();
});
beforeEach(() => {
  mock.script = undefined;
  mock.replies = [];
});

type Key = { key: string; source?: string; plurals?: Record<string, string>; notes?: string; context?: string; max_length?: number; pass?: 'fast' | 'careful' };

async function push(keys: Key[], locales: string[] = ['de'], path?: string): Promise<BatchBody> {
  const res = await service.api('/v1/push', { method: 'POST', json: { keys, locales, ...(path !== undefined ? { path } : {}) } });
  expect(res.status).toBe(202);
  const batch = (await res.json()) as BatchBody;
  return waitForBatch(service, batch.id);
}

function row(batch: BatchBody, key: string, locale = 'de'): BatchRowBody {
  const found = batch.row_outcomes.items.find((r) => r.key === key && r.locale === locale);
  if (!found) throw new Error(`no row ${key}/${locale} in ${JSON.stringify(batch.row_outcomes.items)}`);
  return found;
}

/** Keys pushed without a path live at path ''. */
async function pull(locale: string, path = '') {
  const res = await service.api(`/v1/pull?locale=${locale}&path=${encodeURIComponent(path)}`);
  expect(res.status).toBe(200);
  return { body: JSON.parse(await res.text()) as Record<string, unknown>, headers: res.headers };
}

async function json<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

async function allowance() {
  return (await json<{ allowance: { words_remaining: number } }>(await service.api('/v1/project'))).allowance.words_remaining;
}

/** Drops the first `<ph/>` token, as a model that "translates" a placeholder does, and writes a translated name instead. */
const renamePlaceholder = (text: string, locale: string) => mockTranslate(text, locale).replace(/<ph id="0"\/>/, '{anzahl}');

describe('gates and the corrective retry', () => {
  it('repairs a broken placeholder with one retry that carries the failure back to the model', async () => {
    mock.script = (r, { locale }) => (r.key === 'q.inbox' && !r.correction ? renamePlaceholder(r.text, locale) : undefined);
    const batch = await push([{ key: 'q.inbox', source: 'You have {count} new messages' }]);
    expect(batch.status).toBe('completed');
    const r = row(batch, 'q.inbox');
    expect(r).toMatchObject({ outcome: 'translated', gate_outcome: 'corrected', corrective_retries: 1 });
    expect(r.gate_failures.map((f) => [f.gate, f.attempt])).toContainEqual(['placeholders', 1]);
    expect(r.gate_failures.find((f) => f.gate === 'placeholders')!.reason).toContain('{count}');
    const retry = mock.rows.find((m) => m.key === 'q.inbox' && m.correction);
    expect(retry?.correction?.previous).toContain('{anzahl}');
    expect(retry?.correction?.problems.join(' ')).toContain('{count}');
    expect((await pull('de')).body['q.inbox']).toBe('de: YOU HAVE {count} NEW MESSAGES');
  });

  it('refuses a row that fails twice: held for review, absent from the pulled file, named in the pull headers', async () => {
    mock.script = (r, { locale }) => (r.key === 'q.delete' ? renamePlaceholder(r.text, locale) : undefined);
    const batch = await push([
      { key: 'q.delete', source: 'Delete {file}?' },
      { key: 'q.keep', source: 'Keep the original' },
    ]);
    expect(batch.status).toBe('completed');
    expect(row(batch, 'q.delete')).toMatchObject({ outcome: 'refused', gate_outcome: 'refused', corrective_retries: 1 });
    expect(row(batch, 'q.delete').reason).toMatch(/refused by the quality gates after one corrective retry: .*\{file\}/);
    expect(row(batch, 'q.keep')).toMatchObject({ outcome: 'translated', gate_outcome: 'passed', corrective_retries: 0 });
    expect(batch.rows.outcomes).toMatchObject({ refused: 1, translated: 1 });

    const { body, headers } = await pull('de');
    expect(body).not.toHaveProperty('q.delete');
    expect(body['q.keep']).toBe('de: KEEP THE ORIGINAL');
    expect(headers.get('x-parlance-refused-reason')).toContain('held_for_review');
    expect(headers.get('x-parlance-refused-keys')?.split(',')).toContain('q.delete');

    const held = await json<{ items: { key: string; state: string; text: string; failures: { gate: string }[] }[] }>(await service.api('/v1/translations?state=held&locale=de'));
    const item = held.items.find((i) => i.key === 'q.delete');
    expect(item).toMatchObject({ state: 'held', text: 'de: DELETE {anzahl}?' });
    expect(item!.failures.map((f) => f.gate)).toContain('placeholders');

    // A held row is not queued (or charged) again by an unchanged push.
    const again = await push([{ key: 'q.delete', source: 'Delete {file}?' }]);
    expect(again.rows.total).toBe(0);
  });

  it('gives a dropped plural form one retry, and writes every CLDR form the target needs', async () => {
    let dropped = 0;
    mock.script = (r) => (r.key === 'q.files' && !r.correction && r.text.includes('files') ? (dropped++, '') : undefined);
    const batch = await push([{ key: 'q.files', plurals: { one: '{count} file', other: '{count} files' } }], ['pl']);
    const r = row(batch, 'q.files', 'pl');
    expect(dropped).toBeGreaterThan(0);
    expect(r).toMatchObject({ outcome: 'translated', gate_outcome: 'corrected', corrective_retries: 1 });
    expect(r.gate_failures.filter((f) => f.gate === 'plurals').map((f) => f.reason).join(' ')).toMatch(/few/);
    const translations = await json<{ items: { plurals: Record<string, string> }[] }>(await service.api('/v1/translations?key=q.files&locale=pl'));
    expect(Object.keys(translations.items[0]!.plurals).sort()).toEqual(['few', 'many', 'one', 'other']);
  });

  it('unfolds an ICU plural string into the target locale\'s categories', async () => {
    const batch = await push([{ key: 'q.icu', source: '{n, plural, one {# photo} other {# photos}}' }], ['pl']);
    expect(row(batch, 'q.icu', 'pl')).toMatchObject({ outcome: 'translated', gate_outcome: 'passed' });
    const file = (await pull('pl')).body['q.icu'] as string;
    expect(file).toBe('{n, plural, one {pl: # PHOTO} few {pl: # PHOTOS} many {pl: # PHOTOS} other {pl: # PHOTOS}}');
  });

  it('retries a forbidden glossary term with the glossary in the request', async () => {
    const term = await json<{ id: string }>(await service.api('/v1/glossary', { method: 'POST', json: { term: 'cell phone', forbidden: true, translations: { de: 'Handy' } } }), 201);
    try {
      mock.script = (r) => (r.key === 'q.phone' ? (r.correction ? 'Laden Sie Ihr Mobiltelefon' : 'Laden Sie Ihr Handy') : undefined);
      const batch = await push([{ key: 'q.phone', source: 'Charge your cell phone' }]);
      const r = row(batch, 'q.phone');
      expect(r).toMatchObject({ gate_outcome: 'corrected', corrective_retries: 1 });
      expect(r.gate_failures[0]).toMatchObject({ gate: 'glossary', attempt: 1 });
      expect(r.gate_failures[0]!.reason).toContain('Handy');
      const sent = mock.rows.filter((m) => m.key === 'q.phone');
      expect(sent[0]!.glossary).toEqual([{ term: 'cell phone', translation: 'Handy', forbidden: true }]);
      expect((await pull('de')).body['q.phone']).toBe('Laden Sie Ihr Mobiltelefon');
    } finally {
      await service.api(`/v1/glossary/${term.id}`, { method: 'DELETE' });
    }
  });

  it('writes a length overrun and flags it; a reviewer approves it', async () => {
    const batch = await push([{ key: 'q.save', source: 'Save changes', max_length: 12 }]);
    const r = row(batch, 'q.save');
    expect(r).toMatchObject({ outcome: 'translated', gate_outcome: 'flagged', corrective_retries: 0 });
    expect(r.reason).toMatch(/flagged for review: .*over the budget of 12/);
    expect((await pull('de')).body['q.save']).toBe('de: SAVE CHANGES');
    const flagged = await json<{ items: { key: string; failures: { gate: string }[] }[] }>(await service.api('/v1/translations?state=flagged'));
    expect(flagged.items.find((i) => i.key === 'q.save')?.failures.map((f) => f.gate)).toEqual(['length']);

    const reviewed = await json<{ translation: { state: string } }>(await service.api('/v1/translations/q.save/de/review', { method: 'POST', json: { decision: 'approve' } }));
    expect(reviewed.translation.state).toBe('approved');
    const after = await json<{ items: { key: string }[] }>(await service.api('/v1/translations?state=flagged'));
    expect(after.items.map((i) => i.key)).not.toContain('q.save');
  });

  it('backs off on 429 with Retry-After and then translates', async () => {
    const before = mock.requests;
    mock.replies = [{ status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } } }];
    const started = Date.now();
    const batch = await push([{ key: 'q.ratelimited', source: 'Try again later' }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(mock.requests - before).toBe(2);
    expect(row(batch, 'q.ratelimited')).toMatchObject({ outcome: 'translated', gate_outcome: 'passed' });
  });
});

describe('a malformed model answer', () => {
  it('in a chunk of 60 rows costs a retry of that request, and the batch translates every row', async () => {
    const before = mock.requests;
    // The first request's answer is prose, not the JSON asked for; the next are answered normally.
    mock.replies = [
      {
        status: 200,
        body: { id: 'chatcmpl-bad', object: 'chat.completion', model: 'mock-fast', choices: [{ index: 0, message: { role: 'assistant', content: 'Sorry, I can only help with that later.' }, finish_reason: 'stop' }] },
      },
    ];
    const keys = Array.from({ length: 20 }, (_, i) => ({ key: `m.row${i}`, source: `Malformed answer number ${i}` }));
    const batch = await push(keys, ['de', 'fr', 'pl']);
    expect(batch.status).toBe('completed');
    expect(batch.rows).toMatchObject({ total: 60, done: 60, failed: 0 });
    // One request per locale (20 rows each, under the 40-row limit), and the one malformed answer's 20 rows again.
    expect(mock.requests - before).toBe(4);
    expect((await pull('fr')).body['m.row7']).toBe(mockTranslate('Malformed answer number 7', 'fr'));
  });
});

describe('review and human edits', () => {
  it('approves a held candidate into the file, and rejects a translation so the next push redoes it', async () => {
    mock.script = (r, { locale }) => (r.key === 'r.upload' ? renamePlaceholder(r.text, locale) : undefined);
    await push([{ key: 'r.upload', source: 'Upload {name}' }]);
    mock.script = undefined;
    expect((await pull('de')).body).not.toHaveProperty('r.upload');
    await json(await service.api('/v1/translations/r.upload/de/review', { method: 'POST', json: { decision: 'approve' } }));
    expect((await pull('de')).body['r.upload']).toBe('de: UPLOAD {anzahl}');

    await push([{ key: 'r.title', source: 'Account overview' }]);
    const rejected = await json<{ translation: { state: string } }>(await service.api('/v1/translations/r.title/de/review', { method: 'POST', json: { decision: 'reject' } }));
    expect(rejected.translation.state).toBe('rejected');
    expect((await pull('de')).body).not.toHaveProperty('r.title');
    const again = await push([{ key: 'r.title', source: 'Account overview' }]);
    expect(again.rows.total).toBe(1);
    expect((await pull('de')).body['r.title']).toBe('de: ACCOUNT OVERVIEW');

    const missing = await service.api('/v1/translations/r.nothing/de/review', { method: 'POST', json: { decision: 'approve' } });
    expect(missing.status).toBe(404);
  });

  it('re-gates a human edit, refuses one that breaks a placeholder, and never lets a machine pass overwrite it', async () => {
    await push([{ key: 'h.greet', source: 'Hello {name}' }]);
    const bad = await service.api('/v1/translations/h.greet/de', { method: 'PUT', json: { text: 'Hallo {Name}' } });
    expect(bad.status).toBe(422);
    const problem = (await bad.json()) as { code: string; detail: string; failures: { gate: string; reason: string }[] };
    expect(problem.code).toBe('gate_refused');
    expect(problem.detail).toContain('{name}');

    const saved = await json<{ translation: { state: string; text: string } }>(await service.api('/v1/translations/h.greet/de', { method: 'PUT', json: { text: 'Hallo {name}' } }));
    expect(saved.translation).toMatchObject({ state: 'human', text: 'Hallo {name}' });

    // Unchanged source: nothing queued, the human text stays.
    expect((await push([{ key: 'h.greet', source: 'Hello {name}' }])).rows.total).toBe(0);
    expect((await pull('de')).body['h.greet']).toBe('Hallo {name}');
    // Changed source: the machine translates the new source.
    await push([{ key: 'h.greet', source: 'Hello again {name}' }]);
    expect((await pull('de')).body['h.greet']).toBe('de: HELLO AGAIN {name}');
  });

  it('validates edits: unknown key 404, plural key needs plurals, unknown locale 404', async () => {
    expect((await service.api('/v1/translations/h.none/de', { method: 'PUT', json: { text: 'x' } })).status).toBe(404);
    expect((await service.api('/v1/translations/h.greet/sv', { method: 'PUT', json: { text: 'x' } })).status).toBe(404);
    await push([{ key: 'h.items', plurals: { one: '{count} item', other: '{count} items' } }]);
    const res = await service.api('/v1/translations/h.items/de', { method: 'PUT', json: { text: 'x' } });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { code: string }).code).toBe('plurals_required');
    const ok = await service.api('/v1/translations/h.items/de', { method: 'PUT', json: { plurals: { one: '{count} Element', other: '{count} Elemente' } } });
    expect(ok.status).toBe(200);
  });
});

describe('glossary', () => {
  it('creates, lists, edits and deletes terms; an edit marks affected translations for the next push', async () => {
    await push([{ key: 'g.open', source: 'Open the dashboard' }]);
    const created = await json<{ id: string; term: string; translations: Record<string, string>; translations_marked_stale: number }>(
      await service.api('/v1/glossary', { method: 'POST', json: { term: 'Dashboard', translations: { de: 'Übersicht', 'pt-br': 'Painel' } } }),
      201,
    );
    expect(created.translations).toEqual({ de: 'Übersicht', 'pt-BR': 'Painel' });
    expect(created.translations_marked_stale).toBe(1);
    expect((await service.api('/v1/glossary', { method: 'POST', json: { term: 'dashboard' } })).status).toBe(409);
    expect((await service.api('/v1/glossary', { method: 'POST', json: { term: 'x', translations: { 'not a locale': 'y' } } })).status).toBe(422);

    const list = await json<{ items: { id: string }[] }>(await service.api('/v1/glossary?q=dash'));
    expect(list.items.map((t) => t.id)).toEqual([created.id]);

    // The stale translation is redone; the locked term is enforced (the mock keeps "DASHBOARD" until corrected).
    mock.script = (r) => (r.key === 'g.open' && r.correction ? 'Öffnen Sie die Übersicht' : undefined);
    const batch = await push([{ key: 'g.open', source: 'Open the dashboard' }]);
    expect(row(batch, 'g.open')).toMatchObject({ gate_outcome: 'corrected' });
    expect(row(batch, 'g.open').gate_failures[0]!.reason).toContain('Übersicht');
    expect((await pull('de')).body['g.open']).toBe('Öffnen Sie die Übersicht');

    const patched = await json<{ case_sensitive: boolean }>(await service.api(`/v1/glossary/${created.id}`, { method: 'PATCH', json: { case_sensitive: true } }));
    expect(patched.case_sensitive).toBe(true);
    expect((await service.api(`/v1/glossary/${created.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await service.api(`/v1/glossary/${created.id}`)).status).toBe(404);
  });

  it('needs write to change and read to list', async () => {
    const deploy = await service.mintToken({ abilities: ['push', 'pull', 'read'] });
    expect((await service.api('/v1/glossary', { token: deploy })).status).toBe(200);
    const res = await service.api('/v1/glossary', { method: 'POST', token: deploy, json: { term: 'x' } });
    expect(res.status).toBe(403);
  });
});

describe('translation memory', () => {
  it('reuses 100 translated strings in a second file without a provider call or a charged word', async () => {
    const strings = Array.from({ length: 100 }, (_, i) => `Memory string number ${i} for the second file`);
    const first = await push(strings.map((source, i) => ({ key: `tm.a${i}`, source })), ['de'], 'a.json');
    expect(first.rows.outcomes).toEqual({ translated: 100 });

    const rowsBefore = mock.rows.length;
    const wordsBefore = await allowance();
    const fresh = 'A brand new sentence here';
    const second = await push([...strings.map((source, i) => ({ key: `tm.b${i}`, source })), { key: 'tm.new', source: fresh }], ['de'], 'b.json');
    expect(second.rows.outcomes).toEqual({ memory: 100, translated: 1 });
    expect(second.words).toEqual({ reserved: 5, spent: 5, refunded: 0 });
    expect(mock.rows.slice(rowsBefore).map((r) => r.key)).toEqual(['tm.new']);
    expect(wordsBefore - (await allowance())).toBe(5);
    expect(row(second, 'tm.b7')).toMatchObject({ outcome: 'memory', provider: 'memory', words: 0 });
    expect((await pull('de', 'b.json')).body['tm.b7']).toBe(`de: ${strings[7]!.toUpperCase()}`);
  });

  it('keeps strings with different contexts apart', async () => {
    await push([{ key: 'ctx.verb', source: 'Open', context: 'verb: open a file' }]);
    const other = await push([{ key: 'ctx.state', source: 'Open', context: 'adjective: the ticket is open' }]);
    expect(row(other, 'ctx.state').outcome).toBe('translated');
    const same = await push([{ key: 'ctx.verb2', source: 'Open', context: 'verb: open a file' }]);
    expect(row(same, 'ctx.verb2').outcome).toBe('memory');
  });

  it('imports TMX (reused as exact matches) and exports the memory as TMX', async () => {
    const tmx = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header srclang="en-US" datatype="plaintext" segtype="sentence" adminlang="en" o-tmf="x" creationtool="t" creationtoolversion="1"/>
<body>
  <tu><tuv xml:lang="en-US"><seg>Welcome back, <ph>%s</ph>!</seg></tuv><tuv xml:lang="de-DE"><seg>Willkommen zurück, <ph>%s</ph>!</seg></tuv></tu>
  <tu><tuv xml:lang="fr"><seg>Bonjour</seg></tuv></tu>
</body></tmx>`;
    const form = new FormData();
    form.set('file', new Blob([tmx]), 'legacy.tmx');
    const imported = await json<{ imported: number; locales: string[]; skipped_count: number }>(await service.api('/v1/memory/import', { method: 'POST', body: form }));
    expect(imported).toMatchObject({ imported: 1, skipped_count: 1 });

    const before = mock.rows.length;
    const batch = await push([{ key: 'tm.welcome', source: 'Welcome back, %s!' }]);
    expect(row(batch, 'tm.welcome')).toMatchObject({ outcome: 'memory', words: 0 });
    expect(mock.rows.length).toBe(before);
    expect((await pull('de')).body['tm.welcome']).toBe('Willkommen zurück, %s!');

    const exported = await service.api('/v1/memory/export?locales=de');
    expect(exported.headers.get('content-type')).toContain('application/x-tmx+xml');
    const text = await exported.text();
    expect(text).toContain('<seg>Willkommen zurück, %s!</seg>');
    expect(text).toContain('srclang="en"');

    const broken = new FormData();
    broken.set('file', new Blob(['<tmx><body><tu>']), 'broken.tmx');
    const res = await service.api('/v1/memory/import', { method: 'POST', body: broken });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/^broken\.tmx: /);
  });
});

describe('careful pass', () => {
  it('sends careful keys to the careful model with neighbours, glossary, memory and the length budget', async () => {
    await push([{ key: 'c.prev', source: 'Delete this file?' }], ['de'], 'careful.json');
    const term = await json<{ id: string }>(await service.api('/v1/glossary', { method: 'POST', json: { term: 'folder', translations: { de: 'Ordner' } } }), 201);
    try {
      mock.script = (r) => (r.key === 'c.folder' ? 'Diesen Ordner löschen?' : undefined);
      await push(
        [
          { key: 'c.title', source: 'Files' },
          { key: 'c.folder', source: 'Delete this folder?', notes: 'Confirmation dialog title', max_length: 40, pass: 'careful' },
          { key: 'c.cancel', source: 'Cancel' },
        ],
        ['de'],
        'careful2.json',
      );
      const call = mock.calls.find((c) => c.rows.some((r) => r.key === 'c.folder'))!;
      expect(call.model).toBe('mock-careful');
      expect(call.system).toMatch(/careful pass/i);
      const sent = call.rows.find((r) => r.key === 'c.folder')!;
      expect(sent).toMatchObject({ notes: 'Confirmation dialog title', max_length: 40, glossary: [{ term: 'folder', translation: 'Ordner', forbidden: false }] });
      expect(sent.neighbours?.map((n) => n.key)).toEqual(['c.title', 'c.cancel']);
      expect(sent.memory?.[0]).toMatchObject({ source: 'Delete this file?', translation: 'de: DELETE THIS FILE?' });
      expect(mock.calls.find((c) => c.rows.some((r) => r.key === 'c.cancel'))!.model).toBe('mock-fast');
    } finally {
      await service.api(`/v1/glossary/${term.id}`, { method: 'DELETE' });
    }
  });

  it('flags a key careful through PATCH /v1/keys and through a file push; later pushes keep the flag', async () => {
    const file = JSON.stringify({ 'p.one': 'First string', 'p.two': 'Second string' });
    const first = await json<BatchBody>(await service.api('/v1/push', { method: 'POST', body: filePush(file, { locales: 'de', careful: 'p.t*' }, 'pass.json') }), 202);
    const done = await waitForBatch(service, first.id);
    expect(row(done, 'p.one').pass).toBe('fast');
    expect(row(done, 'p.two').pass).toBe('careful');

    const patched = await json<{ pass: string; batch: BatchBody }>(await service.api('/v1/keys/p.one?path=pass.json', { method: 'PATCH', json: { pass: 'careful' } }));
    expect(patched.pass).toBe('careful');
    const redone = await waitForBatch(service, patched.batch.id);
    expect(row(redone, 'p.one')).toMatchObject({ pass: 'careful', outcome: 'translated' });

    // The same file again: both keys stay careful and nothing is queued.
    const again = await json<BatchBody>(await service.api('/v1/push', { method: 'POST', body: filePush(file, { locales: 'de' }, 'pass.json') }), 202);
    expect(again.rows.total).toBe(0);
    expect((await service.api('/v1/keys/p.none', { method: 'PATCH', json: { pass: 'careful' } })).status).toBe(404);
  });
});

describe('POST /v1/qa/run', () => {
  it('checks a whole locale and proposed rows, naming each failure', async () => {
    await push([{ key: 'qa.hello', source: 'Hello {name}, you have %d messages' }]);
    const whole = await json<{ id: string; checked: number; passed: number; refused: number }>(await service.api('/v1/qa/run', { method: 'POST', json: { locales: ['de'] } }));
    expect(whole.id).toMatch(/^qa_/);
    expect(whole.checked).toBeGreaterThan(5);

    const proposed = await json<{ checked: number; refused: number; flagged: number; items: { key: string; outcome: string; checked: string; failures: { gate: string; reason: string }[] }[]; not_checked: { key: string }[] }>(
      await service.api('/v1/qa/run', {
        method: 'POST',
        json: {
          rows: [
            { key: 'qa.hello', locale: 'de', text: 'Hallo {Name}, Sie haben %d Nachrichten' },
            { key: 'qa.hello', locale: 'fr', text: 'Bonjour {name}, vous avez %d messages' },
            { key: 'qa.missing', locale: 'de', text: 'x' },
          ],
          include_passed: true,
        },
      }),
    );
    expect(proposed).toMatchObject({ checked: 2, refused: 1 });
    expect(proposed.items.find((i) => i.outcome === 'refused')!.failures[0]!.reason).toContain('{name}');
    expect(proposed.not_checked.map((n) => n.key)).toEqual(['qa.missing']);
    expect((await service.api('/v1/qa/run', { method: 'POST', json: { locales: ['sv'] } })).status).toBe(422);
  });
});

describe('project length budget', () => {
  it('applies a default budget to keys without a max length', async () => {
    expect(await json<{ length_budget_percent: number | null }>(await service.api('/v1/project', { method: 'PATCH', json: { length_budget_percent: 120 } }))).toMatchObject({ length_budget_percent: 120 });
    try {
      const batch = await push([{ key: 'b.short', source: 'Sign in' }]);
      // "de: SIGN IN" is 11 characters; 120 % of 7 is a budget of 9.
      expect(row(batch, 'b.short')).toMatchObject({ gate_outcome: 'flagged' });
    } finally {
      await service.api('/v1/project', { method: 'PATCH', json: { length_budget_percent: null } });
    }
  });
});

describe('change detection', () => {
  it("queues a key again when its notes or max length change, not when nothing changed", async () => {
    const first = await push([{ key: 'd.title', source: 'Title', notes: 'Page heading' }]);
    expect(first.rows.total).toBe(1);
    expect((await push([{ key: 'd.title', source: 'Title', notes: 'Page heading' }])).rows.total).toBe(0);
    expect((await push([{ key: 'd.title', source: 'Title', notes: 'Book title, not a page heading' }])).rows.total).toBe(1);
    const sent = mock.rows.filter((r) => r.key === 'd.title').at(-1);
    expect(sent?.notes).toBe('Book title, not a page heading');
    expect((await push([{ key: 'd.title', source: 'Title', notes: 'Book title, not a page heading', max_length: 20 }])).rows.total).toBe(1);
  });
});
