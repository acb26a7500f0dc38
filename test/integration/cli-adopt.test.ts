/**
 * Adopting Parlance in an app that already has hand-translated German (issue 29's acceptance), with the `parlance`
 * binary against a service whose provider is the OpenAI wire mock: init writes parlance.yml from the files; a first sync with the provider down leaves every
 * file byte-identical (exit 3); `push --translations` uploads the German; sync keeps every German value; a hand edit
 * survives sync and becomes a human translation; pull refuses to overwrite a hand edit (exit 1) unless --overwrite.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { runProcess, type Run } from '../helpers/process.js';
import { startService, type TestService } from '../helpers/service.js';

const BIN = join(import.meta.dirname, '../../bin/parlance.js');

const FILES: Record<string, string> = {
  'locales/en/common.json': `{
  "title": "My shop",
  "cart": {
    "empty": "Your cart is empty",
    "checkout": "Check out"
  },
  "greeting": "Hello, {{name}}"
}
`,
  'locales/en/errors.json': `{
  "not_found": "Page not found",
  "offline": "You are offline"
}
`,
  // Translated by hand before Parlance: every value must survive; `cart.checkout` was never translated; `legacy` has no source.
  'locales/de/common.json': `{
  "title": "Mein Laden",
  "cart": {
    "empty": "Ihr Warenkorb ist leer"
  },
  "greeting": "Hallo, {{name}}",
  "legacy": "Alt"
}
`,
  'locales/de/errors.json': `{
  "not_found": "Seite nicht gefunden",
  "offline": "Sie sind offline"
}
`,
};
const GERMAN = { title: 'Mein Laden', 'cart.empty': 'Ihr Warenkorb ist leer', greeting: 'Hallo, {{name}}', not_found: 'Seite nicht gefunden', offline: 'Sie sind offline' };

let mock: MockOpenAI;
let service: TestService;
let app: string;

beforeAll(async () => {
  mock = await startMockOpenAI();
  service = await startService({ env: { TRANSLATION_PROVIDER: 'openai', OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'mock-fast', RATE_LIMIT_PER_MINUTE: '100000' } });
  app = mkdtempSync(join(tmpdir(), 'parlance-adopt-'));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(join(app, path, '..'), { recursive: true });
    writeFileSync(join(app, path), text);
  }
});

afterAll(async () => {
  await service?.stop();
  await mock?.close();
  if (app) rmSync(app, { recursive: true, force: true });
});

function cli(...args: string[]): Promise<Run> {
  return runProcess(process.execPath, [BIN, ...args], { cwd: app, env: { ...process.env, PARLANCE_URL: service.url, PARLANCE_TOKEN: service.token } });
}

/** The German files' bytes. */
function german(): Record<string, string> {
  return Object.fromEntries(readdirSync(join(app, 'locales/de')).map((name) => [name, readFileSync(join(app, 'locales/de', name), 'utf8')]));
}

/** Every German value by flat key. */
function germanValues(): Record<string, string> {
  const flat: Record<string, string> = {};
  const walk = (node: Record<string, unknown>, prefix: string) => {
    for (const [k, v] of Object.entries(node)) {
      if (typeof v === 'string') flat[`${prefix}${k}`] = v;
      else walk(v as Record<string, unknown>, `${prefix}${k}.`);
    }
  };
  for (const name of ['common.json', 'errors.json']) walk(JSON.parse(readFileSync(join(app, 'locales/de', name), 'utf8')) as Record<string, unknown>, '');
  return flat;
}

async function translation(key: string, path: string) {
  const res = await service.api(`/v1/translations?locale=de&path=${encodeURIComponent(path)}&key=${encodeURIComponent(key)}`);
  const body = (await res.json()) as { items: { key: string; text: string; state: string; origin: string }[] };
  return body.items.find((row) => row.key === key);
}

describe('adopting Parlance with hand-translated German', () => {
  it('init finds the English sources and the German files beside them, and writes parlance.yml from them', async () => {
    const init = await cli('init');
    expect(init.code, init.stderr).toBe(0);
    const config = readFileSync(join(app, 'parlance.yml'), 'utf8');
    expect(config).toMatch(/^ {2}- source: locales\/en\/\*\.json$/m);
    expect(config).toMatch(/^ {4}translation: locales\/\{locale\}\/\{name\}\.json$/m);
    expect(config).toMatch(/^locales: \[de\] +#/m);
    const dry = await cli('push', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('would push locales/en/common.json');
  });

  it('the first sync with the provider down exits 3 and leaves every target file byte-identical', async () => {
    const before = german();
    mock.mode = 'fail500';
    try {
      const sync = await cli('sync');
      expect(sync.code, sync.stderr).toBe(3);
      expect(sync.stderr).toContain('Nothing written: a batch failed');
    } finally {
      mock.mode = 'ok';
    }
    expect(german()).toEqual(before);
    expect(existsSync(join(app, '.parlance/state.json'))).toBe(false);
  });

  it('push --translations --dry-run says what it would upload; push --translations uploads it, with a report per locale', async () => {
    const dry = await cli('push', '--translations', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^would upload +locales\/de\/common\.json \(de\): 3 values new or different/m);
    expect(await translation('title', 'locales/en/common.json')).toBeUndefined();

    const push = await cli('push', '--translations', '--json');
    expect(push.code, push.stderr).toBe(0);
    const doc = JSON.parse(push.stdout) as { files: { file: string; locale: string; uploaded: string[]; unknown_keys: string[]; refused: unknown[] }[] };
    expect(doc.files.map((file) => [file.file, file.uploaded.sort(), file.unknown_keys])).toEqual([
      ['locales/de/common.json', ['cart.empty', 'greeting', 'title'], ['legacy']],
      ['locales/de/errors.json', ['not_found', 'offline'], []],
    ]);
    expect(push.stderr).toContain('legacy');
    expect(await translation('title', 'locales/en/common.json')).toMatchObject({ text: 'Mein Laden', state: 'human' });
  });

  it('sync keeps every German value and fills in the untranslated key', async () => {
    const sync = await cli('sync', '--force');
    expect(sync.code, sync.stderr).toBe(0);
    const values = germanValues();
    expect(values).toMatchObject(GERMAN);
    expect(values['cart.checkout']).toBe('de: CHECK OUT');
    expect(JSON.parse(readFileSync(join(app, '.parlance/state.json'), 'utf8'))).toHaveProperty(['targets', 'locales/de/common.json', 'sha256']);
  });

  it('a hand edit survives sync and becomes a human translation', async () => {
    const path = join(app, 'locales/de/errors.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace('Sie sind offline', 'Keine Verbindung'));
    const sync = await cli('sync');
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout).toMatch(/^uploaded +locales\/de\/errors\.json \(de\): 1 value as human translations/m);
    expect(germanValues()).toMatchObject({ ...GERMAN, offline: 'Keine Verbindung' });
    expect(await translation('offline', 'locales/en/errors.json')).toMatchObject({ text: 'Keine Verbindung', state: 'human' });
  });

  it('pull refuses to overwrite a hand edit (exit 1, naming the key and the commands, writing nothing); --overwrite does', async () => {
    const path = join(app, 'locales/de/common.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace('Mein Laden', 'Unser Laden'));
    const edited = german();
    const pull = await cli('pull');
    expect(pull.code).toBe(1);
    expect(pull.stderr).toMatch(/^locales\/de\/common\.json: 1 hand edit the service's translation would overwrite: title$/m);
    expect(pull.stderr).toContain('parlance push --translations');
    expect(pull.stderr).toContain('--overwrite');
    expect(german()).toEqual(edited);

    const overwrite = await cli('pull', '--overwrite');
    expect(overwrite.code, overwrite.stderr).toBe(0);
    expect(germanValues()).toMatchObject({ ...GERMAN, offline: 'Keine Verbindung' });
  });
});
