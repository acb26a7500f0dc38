/**
 * A project's translation settings over HTTP (GET/PATCH /v1/project/translation): provider and model per pass from
 * the providers the operator configured, and a style guide that reaches the model's request; two projects on one
 * service with different models; a change that applies to the next push without a restart. The model is the
 * OpenAI wire mock, which records each request's model and system prompt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { sealSecret } from '../../server/github-app/crypto.js';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { runParlance } from '../helpers/parlance-process.js';
import { startService, waitForBatch, type BatchBody, type TestService } from '../helpers/service.js';

let service: TestService;
let mock: MockOpenAI;

beforeAll(async () => {
  mock = await startMockOpenAI();
  service = await startService({
    env: { TRANSLATION_PROVIDER: 'openai', OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'mock-fast', RATE_LIMIT_PER_MINUTE: '100000', PARLANCE_SECRET_KEY: randomBytes(32).toString('hex') },
  });
});
afterAll(async () => {
  await service?.stop();
  await mock?.close();
});

interface Settings {
  fast: { provider: string | null; model: string | null };
  careful: { provider: string | null; model: string | null };
  style_guide: { product: string | null; audience: string | null; tone: string | null; formality: Record<string, string>; keep: string[] };
  available: string[];
  own_keys: Record<string, string>;
  own_keys_problem: string | null;
  defaults: { fast: { provider: string; model: string | null }; careful: { provider: string; model: string | null } };
}

async function body<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

const patch = (json: unknown, token?: string) => service.api('/v1/project/translation', { method: 'PATCH', json, ...(token ? { token } : {}) });

/** Pushes keys with `token`, waits for the batch, and returns the mock's calls it made. */
async function pushAndCalls(keys: { key: string; source: string }[], token = service.token, locales = ['de']) {
  const before = mock.calls.length;
  const batch = await body<BatchBody>(await service.api('/v1/push', { method: 'POST', json: { keys, locales }, token }), 202);
  const done = await waitForBatch(service, batch.id, token);
  expect(done.status).toBe('completed');
  return mock.calls.slice(before);
}

describe('translation settings', () => {
  it('GET shows the operator defaults, what the service offers, and an empty style guide', async () => {
    const settings = await body<Settings>(await service.api('/v1/project/translation'));
    expect(settings).toEqual({
      fast: { provider: null, model: null },
      careful: { provider: null, model: null },
      style_guide: { product: null, audience: null, tone: null, formality: {}, keep: [] },
      available: ['openai', 'pseudo'],
      defaults: { fast: { provider: 'openai', model: 'mock-fast' }, careful: { provider: 'openai', model: 'mock-fast' } },
      own_keys: {},
      own_keys_problem: null,
    });
  });

  it('PATCH needs manage, and refuses a provider the service does not offer, an MT engine for the careful pass or a model where none applies', async () => {
    const reader = await service.mintToken({ abilities: ['read'] });
    expect((await patch({ style_guide: { tone: 'terse' } }, reader)).status).toBe(403);

    const deepl = await body<{ code: string; detail: string }>(await patch({ fast: { provider: 'deepl' } }), 422);
    expect(deepl.code).toBe('provider_not_configured');
    expect(deepl.detail).toContain("fast.provider 'deepl' is not configured on this service; expected one of 'openai', 'pseudo'");
    const model = await body<{ code: string; detail: string }>(await patch({ careful: { provider: 'pseudo', model: 'gpt-x' } }), 422);
    expect(model).toMatchObject({ code: 'model_not_applicable' });
    expect(model.detail).toContain("careful.model 'gpt-x': pseudo takes no model name");
    expect((await patch({ fast: { temperature: 2 } })).status).toBe(422);
    expect((await patch({ style_guide: { formality: { de: 'very' } } })).status).toBe(422);
    // Nothing was written by the refusals.
    expect((await body<Settings>(await service.api('/v1/project/translation'))).style_guide.tone).toBeNull();
  });

  it("sends the project's style guide with every request, and the target locale's formality", async () => {
    const saved = await body<Settings>(
      await patch({ style_guide: { product: 'Acme Books, an app for sharing reading lists', audience: 'teenagers', tone: 'playful and brief', formality: { de: 'informal', fr: 'formal' }, keep: ['Acme Books', 'Shelf'] } }),
    );
    expect(saved.style_guide).toEqual({ product: 'Acme Books, an app for sharing reading lists', audience: 'teenagers', tone: 'playful and brief', formality: { de: 'informal', fr: 'formal' }, keep: ['Acme Books', 'Shelf'] });

    const calls = await pushAndCalls([{ key: 'style.welcome', source: 'Welcome to your Shelf' }], service.token, ['de', 'fr']);
    const de = calls.find((call) => call.locale === 'de')!;
    const fr = calls.find((call) => call.locale === 'fr')!;
    for (const call of [de, fr]) {
      expect(call.system).toContain('The product: Acme Books, an app for sharing reading lists');
      expect(call.system).toContain('Its audience: teenagers');
      expect(call.system).toContain('Write in this tone: playful and brief');
      expect(call.system).toContain('Keep these words untranslated, exactly as written: ["Acme Books","Shelf"].');
    }
    expect(de.system).toContain('Address the reader informally (e.g. German "du", French "tu") in de.');
    expect(fr.system).toContain('Address the reader formally (e.g. German "Sie", French "vous") in fr.');

    // Cleared again: the next request carries no style guide.
    await body<Settings>(await patch({ style_guide: { product: null, audience: null, tone: null, formality: {}, keep: [] } }));
    const [plain] = await pushAndCalls([{ key: 'style.plain', source: 'Plain text here' }]);
    expect(plain!.system).not.toContain('style guide');
  });

  it('two projects on one service translate with different models, and a change applies to the next push without a restart', async () => {
    const other = await service.runtime.organisations.createProject({ organisationId: service.organisationId, name: 'Docs', sourceLocale: 'en', targetLocales: ['de'] });
    const otherToken = await service.mintToken({ projectId: other.id, abilities: ['push', 'pull', 'read', 'write', 'manage'] });
    await body<Settings>(await patch({ fast: { model: 'mock-docs' } }, otherToken));

    const [mine] = await pushAndCalls([{ key: 'models.a', source: 'First project text' }]);
    const [theirs] = await pushAndCalls([{ key: 'models.b', source: 'Second project text' }], otherToken);
    expect(mine!.model).toBe('mock-fast');
    expect(theirs!.model).toBe('mock-docs');

    // The first project changes its model while the service runs; its next push uses it, the other keeps its own.
    const changed = await body<Settings>(await patch({ fast: { provider: 'openai', model: 'mock-fast-2' } }));
    expect(changed.fast).toEqual({ provider: 'openai', model: 'mock-fast-2' });
    const [after] = await pushAndCalls([{ key: 'models.a2', source: 'First project again' }]);
    expect(after!.model).toBe('mock-fast-2');
    const [still] = await pushAndCalls([{ key: 'models.b2', source: 'Second project again' }], otherToken);
    expect(still!.model).toBe('mock-docs');

    // Back to the operator's default with null.
    await body<Settings>(await patch({ fast: { provider: null, model: null } }));
    const [reset] = await pushAndCalls([{ key: 'models.a3', source: 'First project once more' }]);
    expect(reset!.model).toBe('mock-fast');
  });

  it('a style guide counts in the memory: a change re-translates on request only, and another guide never reuses a machine translation', async () => {
    const tone = (system: string) => /Write in this tone: (\w+)/.exec(system)?.[1];
    mock.script = (row, { system }) => (tone(system) ? `[${tone(system)}] ${row.text}` : undefined);
    try {
      await body<Settings>(await patch({ style_guide: { tone: 'warm' } }));
      expect(await pushAndCalls([{ key: 'memo.save', source: 'Save your changes' }])).toHaveLength(1);
      // The same source in the same project, under the same guide: the memory answers, and the push reserves no words for it.
      const reused = await body<BatchBody & { words: { reserved: number } }>(await service.api('/v1/push', { method: 'POST', json: { keys: [{ key: 'memo.save2', source: 'Save your changes' }], locales: ['de'] } }), 202);
      expect(reused.words.reserved).toBe(0);
      const callsAt = mock.calls.length;
      expect((await waitForBatch(service, reused.id)).status).toBe('completed');
      expect(mock.calls.length).toBe(callsAt);
      // A human translation of another key, which nothing below may replace.
      await body(await service.api('/v1/push', { method: 'POST', json: { keys: [{ key: 'memo.mine', source: 'Keep me' }], locales: ['de'] } }), 202).then((b) => waitForBatch(service, (b as BatchBody).id));
      const put = await service.api('/v1/translations/memo.mine/de', { method: 'PUT', json: { text: 'Von Hand' } });
      expect(put.status, await put.text()).toBe(200);

      // Another project of the organisation with another guide shares the memory, but not this machine translation.
      const other = await service.runtime.organisations.createProject({ organisationId: service.organisationId, name: 'Brisk', sourceLocale: 'en', targetLocales: ['de'] });
      const otherToken = await service.mintToken({ projectId: other.id, abilities: ['push', 'pull', 'read', 'write', 'manage'] });
      await body<Settings>(await patch({ style_guide: { tone: 'brisk' } }, otherToken));
      const theirBatch = await body<BatchBody & { words: { reserved: number } }>(
        await service.api('/v1/push', { method: 'POST', json: { keys: [{ key: 'memo.save', source: 'Save your changes' }, { key: 'memo.mine', source: 'Keep me' }], locales: ['de'] }, token: otherToken }),
        202,
      );
      // Words are reserved for the source the memory cannot answer under this guide (3), none for the person's (2).
      expect(theirBatch.words.reserved).toBe(3);
      const theirsAt = mock.calls.length;
      expect((await waitForBatch(service, theirBatch.id, otherToken)).status).toBe('completed');
      const theirs = mock.calls.slice(theirsAt);
      // The person's translation serves every guide; the machine one is asked for again, under the other guide.
      expect(theirs.flatMap((c) => c.rows.map((r) => r.text))).toEqual(['Save your changes']);
      expect(tone(theirs[0]!.system)).toBe('brisk');
      const theirFile = JSON.parse(await (await service.api('/v1/pull?locale=de', { token: otherToken })).text()) as Record<string, string>;
      expect(theirFile).toMatchObject({ 'memo.save': '[brisk] Save your changes', 'memo.mine': 'Von Hand' });

      // A change of guide re-translates nothing by itself: an unchanged push sends nothing.
      await body<Settings>(await patch({ style_guide: { tone: 'formal' } }));
      expect(await pushAndCalls([{ key: 'memo.save', source: 'Save your changes' }, { key: 'memo.save2', source: 'Save your changes' }, { key: 'memo.mine', source: 'Keep me' }])).toEqual([]);
      const pull = async () => JSON.parse(await (await service.api('/v1/pull?locale=de')).text()) as Record<string, string>;
      expect(await pull()).toMatchObject({ 'memo.save': '[warm] Save your changes', 'memo.save2': '[warm] Save your changes', 'memo.mine': 'Von Hand' });

      // On request it does, one request for the source under the new guide; the person's translation is not queued.
      const before = mock.calls.length;
      const queued = await body<BatchBody>(await service.api('/v1/translate-missing', { method: 'POST', json: { locales: ['de'], retranslate_machine: true } }), 202);
      expect((await waitForBatch(service, queued.id)).status).toBe('completed');
      const asked = mock.calls.slice(before).flatMap((c) => c.rows.map((r) => r.text));
      expect(asked.filter((t) => t === 'Save your changes')).toHaveLength(1);
      expect(asked).not.toContain('Keep me');
      expect(await pull()).toMatchObject({ 'memo.save': '[formal] Save your changes', 'memo.save2': '[formal] Save your changes', 'memo.mine': 'Von Hand' });
      // Back to the first guide: its translation is in the memory still, so a re-translation costs no call.
      await body<Settings>(await patch({ style_guide: { tone: 'warm' } }));
      const again = await body<BatchBody>(await service.api('/v1/translate-missing', { method: 'POST', json: { locales: ['de'], retranslate_machine: true } }), 202);
      const callsBefore = mock.calls.length;
      expect((await waitForBatch(service, again.id)).status).toBe('completed');
      expect(mock.calls.slice(callsBefore).flatMap((c) => c.rows.map((r) => r.text))).not.toContain('Save your changes');
      expect(await pull()).toMatchObject({ 'memo.save': '[warm] Save your changes', 'memo.mine': 'Von Hand' });
    } finally {
      mock.script = undefined;
      await body<Settings>(await patch({ style_guide: { tone: null } }));
    }
  });

  it("a project's own API key: sealed at rest, shown by its last four characters, sent instead of the operator's, and never swapped for it silently", async () => {
    const ownKey = 'sk-project-own-7Qx9';
    const saved = await body<Settings>(await patch({ own_keys: { openai: ownKey } }));
    expect(saved.own_keys).toEqual({ openai: '…7Qx9' });
    expect(JSON.stringify(saved)).not.toContain(ownKey);
    expect(JSON.stringify(await body<Settings>(await service.api('/v1/project/translation')))).not.toContain(ownKey);
    const stored = await service.runtime.db.selectFrom('projects').select('provider_keys').where('id', '=', service.projectId).executeTakeFirstOrThrow();
    expect(stored.provider_keys).toMatch(/^v1\./);
    expect(stored.provider_keys).not.toContain(ownKey);

    // This project's requests carry its key; another project's still carry the operator's.
    const [mine] = await pushAndCalls([{ key: 'keys.mine', source: 'Sent with my own key' }]);
    expect(mine!.authorization).toBe(`Bearer ${ownKey}`);
    const other = await service.runtime.organisations.createProject({ organisationId: service.organisationId, name: 'Operator keys', sourceLocale: 'en', targetLocales: ['de'] });
    const otherToken = await service.mintToken({ projectId: other.id, abilities: ['push', 'pull', 'read', 'write', 'manage'] });
    const [theirs] = await pushAndCalls([{ key: 'keys.theirs', source: 'Sent with the operator key' }], otherToken);
    expect(theirs!.authorization).toBe('Bearer sk-test');

    // A key for a kind the operator did not configure makes it available to this project only.
    const withDeepl = await body<Settings>(await patch({ own_keys: { deepl: 'project-deepl-key:fx' }, fast: { provider: 'deepl' } }));
    expect(withDeepl.available).toEqual(['deepl', 'openai', 'pseudo']);
    expect(withDeepl.fast.provider).toBe('deepl');
    expect((await body<Settings>(await service.api('/v1/project/translation', { token: otherToken }))).available).toEqual(['openai', 'pseudo']);
    // Removing a key the settings still use is refused, naming the field; nothing is written.
    const inUse = await body<{ code: string; detail: string }>(await patch({ own_keys: { deepl: null } }), 422);
    expect(inUse).toMatchObject({ code: 'provider_not_configured' });
    expect(inUse.detail).toContain("fast.provider 'deepl' is not configured");
    expect((await body<Settings>(await service.api('/v1/project/translation'))).own_keys).toEqual({ openai: '…7Qx9', deepl: '…y:fx' });
    const removed = await body<Settings>(await patch({ own_keys: { deepl: null }, fast: { provider: null } }));
    expect(removed.own_keys).toEqual({ openai: '…7Qx9' });
    expect(removed.available).toEqual(['openai', 'pseudo']);

    // Bad keys are refused with the field named.
    const short = await body<{ detail: string }>(await patch({ own_keys: { openai: 'short' } }), 422);
    expect(short.detail).toContain('own_keys.openai');
    expect((await patch({ own_keys: { mistral: 'sk-1234567890' } })).status).toBe(422);

    // Keys sealed under another PARLANCE_SECRET_KEY do not open: GET says so, and rows fail rather than use the operator's key.
    await service.runtime.db
      .updateTable('projects')
      .set({ provider_keys: sealSecret(randomBytes(32), JSON.stringify({ openai: ownKey }), `projects:${service.projectId}:provider_keys`) })
      .where('id', '=', service.projectId)
      .execute();
    const unreadable = await body<Settings>(await service.api('/v1/project/translation'));
    expect(unreadable.own_keys).toEqual({});
    expect(unreadable.own_keys_problem).toContain('PARLANCE_SECRET_KEY');
    const before = mock.calls.length;
    const batch = await body<BatchBody>(await service.api('/v1/push', { method: 'POST', json: { keys: [{ key: 'keys.locked', source: 'Locked key text' }], locales: ['de'] } }), 202);
    const failed = await waitForBatch(service, batch.id);
    expect(failed.status).toBe('failed');
    expect(failed.row_outcomes.items[0]!.reason).toContain('do not open');
    expect(mock.calls.length).toBe(before);
    // Removing them clears the problem; the operator's key serves the project again.
    const cleared = await body<Settings>(await patch({ own_keys: { openai: null } }));
    expect(cleared).toMatchObject({ own_keys: {}, own_keys_problem: null });
    const [again] = await pushAndCalls([{ key: 'keys.again', source: 'Operator key once more' }]);
    expect(again!.authorization).toBe('Bearer sk-test');
  });

  it('a project may choose the pseudo provider for its fast pass; the careful pass stays the operator’s model', async () => {
    await body<Settings>(await patch({ fast: { provider: 'pseudo' } }));
    const calls = await pushAndCalls([{ key: 'pseudo.one', source: 'Made by pseudo' }]);
    expect(calls).toEqual([]);
    const de = JSON.parse(await (await service.api('/v1/pull?locale=de')).text()) as Record<string, string>;
    expect(de['pseudo.one']).toBeDefined();
    expect(de['pseudo.one']).not.toBe('de: MADE BY PSEUDO');
    await body<Settings>(await patch({ fast: { provider: null } }));
  });

  it('the CLI shows and sets them: parlance translation show | set, with usage errors that name the flag', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'parlance-translation-'));
    try {
      const env = { PARLANCE_URL: service.url, PARLANCE_TOKEN: service.token, XDG_CONFIG_HOME: cwd };
      const set = await runParlance(['translation', 'set', '--tone', 'warm', '--formality', 'de=informal', '--formality', 'fr=formal', '--keep', 'Acme', '--fast-model', 'mock-cli'], env, cwd);
      expect(set.code, set.stderr).toBe(0);
      expect(set.stdout).toContain('fast     openai mock-cli');
      expect(set.stdout).toContain('tone     warm');
      expect(set.stdout).toContain('formal   de informal, fr formal');

      const shown = await runParlance(['translation', 'show', '--json'], env, cwd);
      expect(shown.code, shown.stderr).toBe(0);
      const settings = JSON.parse(shown.stdout) as Settings;
      expect(settings.fast).toEqual({ provider: null, model: 'mock-cli' });
      expect(settings.style_guide).toMatchObject({ tone: 'warm', formality: { de: 'informal', fr: 'formal' }, keep: ['Acme'] });

      const unset = await runParlance(['translation', 'set', '--unset', 'fast-model', '--unset', 'tone', '--unset', 'formality', '--unset', 'keep'], env, cwd);
      expect(unset.code, unset.stderr).toBe(0);
      expect(unset.stdout).toContain("fast     openai mock-fast (the operator's default)");
      expect(unset.stdout).toContain('tone     -');

      // After a change of guide, what a machine made is re-translated on request: translate-missing --machine.
      await pushAndCalls([{ key: 'cli.title', source: 'Title from the CLI test' }]);
      const again = await runParlance(['translate-missing', '--machine', '--locale', 'de', '--wait'], env, cwd);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr + again.stdout).toMatch(/Queued batch bat_\w+: \d+ rows?/);

      // The project's own key comes in on stdin, and only its last four characters come back.
      const own = await runParlance(['translation', 'set', '--own-key-stdin', 'anthropic'], env, cwd, 'sk-ant-cli-key-W4rp\n');
      expect(own.code, own.stderr).toBe(0);
      expect(own.stdout).toContain('own keys anthropic …W4rp');
      expect(own.stdout).not.toContain('sk-ant-cli-key-W4rp');
      expect(own.stdout).toContain('offered  anthropic, openai, pseudo');
      const none = await runParlance(['translation', 'set', '--own-key-stdin', 'openai'], env, cwd, '');
      expect(none.code).toBe(1);
      expect(none.stderr).toContain('No key on stdin');
      const dropped = await runParlance(['translation', 'set', '--remove-own-key', 'anthropic'], env, cwd);
      expect(dropped.code, dropped.stderr).toBe(0);
      expect(dropped.stdout).toContain("own keys - (the operator's)");

      const bad = await runParlance(['translation', 'set', '--formality', 'de=casual'], env, cwd);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain("expected LOCALE=formal or LOCALE=informal, e.g. 'de=informal'");
      const refused = await runParlance(['translation', 'set', '--fast-provider', 'deepl'], env, cwd);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain("fast.provider 'deepl' is not configured on this service");
      const nothing = await runParlance(['translation', 'set'], env, cwd);
      expect(nothing.code).toBe(1);
      expect(nothing.stderr).toContain('Nothing to set');
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
