/**
 * `parlance init` on app repositories that hold only their source files, one per common layout, run as the real binary:
 * the parlance.yml it writes (rules, the comments saying what it guessed, languages_mapping and ignore as examples), the
 * target locales from --locales, from translations already there or from the project, and `push --dry-run` accepting the
 * result. Then languages_mapping and ignore end to end: push and pull write de-DE/ and leave the ignored file alone.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/project-config/parse-config.js';
import { runProcess, type Run } from '../helpers/process.js';
import { startService, type TestService } from '../helpers/service.js';

const BIN = join(import.meta.dirname, '../../bin/parlance.js');

const JSON_SOURCE = '{\n  "title": "My shop",\n  "items_one": "{{count}} item",\n  "items_other": "{{count}} items"\n}\n';
const NESTED_SOURCE = '{\n  "errors": {\n    "network": "The network is down"\n  }\n}\n';
const ANDROID = '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n  <string name="title">My shop</string>\n</resources>\n';
const APPLE = '/* Title */\n"title" = "My shop";\n';
const POT = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "My shop"\nmsgstr ""\n';
const PO_EN = 'msgid ""\nmsgstr ""\n"Language: en\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "My shop"\nmsgstr "My shop"\n';
const RAILS = 'en:\n  title: "My shop"\n';
const ARB = '{\n  "@@locale": "en",\n  "title": "My shop"\n}\n';

interface Layout {
  name: string;
  files: Record<string, string>;
  source: string;
  translation: string;
  format?: string;
  /** The source files `push` finds. */
  pushed: string[];
  /** A phrase of the guessed convention the file's comment names. */
  convention: string;
}

const LAYOUTS: Layout[] = [
  {
    name: 'locales/en/*.json (i18next)',
    files: { 'locales/en/common.json': JSON_SOURCE, 'locales/en/errors.json': NESTED_SOURCE, 'src/App.tsx': 'export {};\n' },
    source: 'locales/en/*.json',
    translation: 'locales/{locale}/{name}.json',
    pushed: ['locales/en/common.json', 'locales/en/errors.json'],
    convention: 'one folder per language',
  },
  {
    name: 'public/locales/en/translation.json (react-i18next)',
    files: { 'public/locales/en/translation.json': JSON_SOURCE, 'public/index.html': '<!doctype html>\n' },
    source: 'public/locales/en/*.json',
    translation: 'public/locales/{locale}/{name}.json',
    pushed: ['public/locales/en/translation.json'],
    convention: 'one folder per language',
  },
  {
    name: 'src/locales/en.json',
    files: { 'src/locales/en.json': JSON_SOURCE, 'src/main.ts': 'export {};\n' },
    source: 'src/locales/en.json',
    translation: 'src/locales/{locale}.json',
    pushed: ['src/locales/en.json'],
    convention: 'one file per language',
  },
  {
    name: 'src/i18n/en.json',
    files: { 'src/i18n/en.json': NESTED_SOURCE },
    source: 'src/i18n/en.json',
    translation: 'src/i18n/{locale}.json',
    pushed: ['src/i18n/en.json'],
    convention: 'one file per language',
  },
  {
    name: 'Android res/values/strings.xml',
    files: { 'app/src/main/res/values/strings.xml': ANDROID, 'app/src/main/res/values/colors.xml': '<resources/>\n' },
    source: 'app/src/main/res/values/strings.xml',
    translation: 'app/src/main/res/values-{android_locale}/strings.xml',
    format: 'android_xml',
    pushed: ['app/src/main/res/values/strings.xml'],
    convention: 'Android',
  },
  {
    name: 'iOS en.lproj/Localizable.strings',
    files: { 'Shop/en.lproj/Localizable.strings': APPLE },
    source: 'Shop/en.lproj/*.strings',
    translation: 'Shop/{apple_locale}.lproj/{name}.strings',
    format: 'ios_strings',
    pushed: ['Shop/en.lproj/Localizable.strings'],
    convention: 'Xcode',
  },
  {
    name: 'gettext po/messages.pot',
    files: { 'po/messages.pot': POT },
    source: 'po/messages.pot',
    translation: 'po/{locale_underscore}.po',
    format: 'po',
    pushed: ['po/messages.pot'],
    convention: 'gettext',
  },
  {
    name: 'gettext po/en.po',
    files: { 'po/en.po': PO_EN },
    source: 'po/en.po',
    translation: 'po/{locale_underscore}.po',
    format: 'po',
    pushed: ['po/en.po'],
    convention: 'gettext',
  },
  {
    name: 'Rails config/locales/en.yml',
    files: { 'config/locales/en.yml': RAILS, 'config/routes.rb': '' },
    source: 'config/locales/en.yml',
    translation: 'config/locales/{locale}.yml',
    format: 'yaml',
    pushed: ['config/locales/en.yml'],
    convention: 'Rails',
  },
  {
    name: 'Flutter lib/l10n/app_en.arb',
    files: { 'lib/l10n/app_en.arb': ARB, 'lib/main.dart': '' },
    source: 'lib/l10n/app_en.arb',
    translation: 'lib/l10n/app_{locale_underscore}.arb',
    format: 'arb',
    pushed: ['lib/l10n/app_en.arb'],
    convention: 'Flutter',
  },
];

let service: TestService;
const scratch: string[] = [];
/** No token and no stored login: init works from the files alone. */
let noToken: Record<string, string>;
let withToken: Record<string, string>;

beforeAll(async () => {
  service = await startService({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  const config = tempDir('parlance-init-config-');
  const base = { XDG_CONFIG_HOME: config, HOME: config, PARLANCE_URL: service.url, PARLANCE_TOKEN: '' };
  noToken = base;
  withToken = { ...base, PARLANCE_TOKEN: service.token };
});

afterAll(async () => {
  await service?.stop();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

/** A temporary app repository holding `files`. */
function app(files: Record<string, string>): string {
  const root = tempDir('parlance-init-app-');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

function parlance(cwd: string, env: Record<string, string>, ...args: string[]): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  // An empty value stands for "unset": the child must not see the developer's own token.
  for (const [name, value] of Object.entries(env)) if (value === '') delete childEnv[name];
  return runProcess(process.execPath, [BIN, ...args], { cwd, env: childEnv, timeout: 60_000 });
}

function json<T>(run: Run): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`stdout is not one JSON document (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}

interface PushDoc {
  files: { path: string; action: string }[];
}

describe('parlance init from the source files alone', () => {
  for (const layout of LAYOUTS) {
    it(`${layout.name}: writes the rule, says what it guessed, and push --dry-run accepts it`, async () => {
      const root = app(layout.files);
      const init = await parlance(root, noToken, 'init', '--locales', 'de,pt-BR');
      expect(init.code, init.stderr).toBe(0);
      expect(init.stdout).toContain('Wrote parlance.yml: en → de, pt-BR');
      expect(init.stdout).toContain(`${layout.source} → ${layout.translation}`);

      const text = readFileSync(join(root, 'parlance.yml'), 'utf8');
      const config = parseConfig(text, 'parlance.yml');
      expect(config).toEqual({ source_locale: 'en', locales: ['de', 'pt-BR'], files: [{ source: layout.source, translation: layout.translation, ...(layout.format ? { format: layout.format } : {}) }] });
      // The comments say which files, which template and which format; mapping and ignore are there to uncomment.
      expect(text).toContain(`# Source files found: ${layout.pushed.join(', ')}.`);
      expect(text).toMatch(new RegExp(`# Template: no translations yet, so it follows the usual layout: .*${layout.convention}`));
      expect(text).toMatch(layout.format ? `# Format: ${layout.format}, from the file name.` : /# Format: json(_nested)?( \(.*\))?, as the service detects it/);
      expect(text).toMatch(/^# languages_mapping:\n# {3}de: de-DE\n# {3}zh-Hans: zh_CN$/m);
      if (layout.source.includes('*')) expect(text).toContain(`    # ignore: ["${layout.source.slice(0, layout.source.lastIndexOf('/'))}/legacy/**"]`);
      else expect(text).not.toContain('    # ignore: [');
      expect(text).toContain('    # languages_mapping: {de: de-DE}');

      const push = await parlance(root, withToken, 'push', '--dry-run', '--json');
      expect(push.code, push.stderr).toBe(0);
      expect(json<PushDoc>(push).files).toEqual(layout.pushed.map((path) => expect.objectContaining({ path, action: 'would_push' })));
    });
  }

  it('names the format per file when the service would read them differently', async () => {
    const root = app(LAYOUTS[0]!.files);
    const init = await parlance(root, noToken, 'init', '--dry-run', '--locales', 'de');
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('# Format: json (common.json), json_nested (errors.json), as the service detects it');
    expect(existsSync(join(root, 'parlance.yml'))).toBe(false);
  });

  it('without --locales or a token, writes the file and says how to name the target locales', async () => {
    const root = app({ 'locales/en/common.json': JSON_SOURCE });
    const init = await parlance(root, noToken, 'init');
    expect(init.code, init.stderr).toBe(0);
    expect(init.stderr).toContain('No target locales yet: pass --locales de,fr');
    const config = parseConfig(readFileSync(join(root, 'parlance.yml'), 'utf8'), 'parlance.yml');
    expect(config.locales).toBeUndefined();
    expect(config.files).toEqual([{ source: 'locales/en/*.json', translation: 'locales/{locale}/{name}.json' }]);
  });

  it("with a token, takes the project's source and target locales, leaving `locales` to the project", async () => {
    const root = app({ 'locales/en/common.json': JSON_SOURCE });
    const init = await parlance(root, withToken, 'init', '--json');
    expect(init.code, init.stderr).toBe(0);
    expect(json<{ source_locale: string; locales: string[]; project_locales: string[] }>(init)).toMatchObject({ source_locale: 'en', locales: [], project_locales: ['de', 'fr', 'ja'] });
    const text = readFileSync(join(root, 'parlance.yml'), 'utf8');
    expect(text).toContain("source_locale: en   # the project's source locale");
    expect(text).toContain("# locales: [de, fr, ja]   # the project's target locales today");
    expect(parseConfig(text, 'parlance.yml').locales).toBeUndefined();
    const push = await parlance(root, withToken, 'push', '--dry-run', '--json');
    expect(push.code, push.stderr).toBe(0);
    expect(json<PushDoc>(push).files.map((file) => file.path)).toEqual(['locales/en/common.json']);
  });

  it('still reads the locales and the template from translation files next to the source', async () => {
    const root = app({ 'i18n/en-US/common.json': JSON_SOURCE, 'i18n/de-DE/common.json': '{}\n', 'i18n/fr-FR/common.json': '{}\n', 'i18n/en-US/extra.json': NESTED_SOURCE });
    const init = await parlance(root, noToken, 'init');
    expect(init.code, init.stderr).toBe(0);
    const text = readFileSync(join(root, 'parlance.yml'), 'utf8');
    expect(parseConfig(text, 'parlance.yml')).toEqual({ source_locale: 'en-US', locales: ['de-DE', 'fr-FR'], files: [{ source: 'i18n/en-US/*.json', translation: 'i18n/{locale}/{name}.json' }] });
    expect(text).toContain('# Template: where the translations found already are (de-DE, fr-FR).');
    expect(text).toContain('locales: [de-DE, fr-FR]   # the locales of the translations found');
  });

  it('refuses a source locale listed as a target, and says what it looks for when nothing matches', async () => {
    const root = app({ 'locales/en/common.json': JSON_SOURCE });
    const listed = await parlance(root, noToken, 'init', '--locales', 'en,de');
    expect(listed.code).toBe(1);
    expect(listed.stderr).toContain("--locales lists 'en', the source locale");
    const bad = await parlance(root, noToken, 'init', '--locales', 'de_DE');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Invalid --locales 'de_DE'");

    const empty = app({ 'src/index.ts': '', 'data/en.json': '{}' });
    const none = await parlance(empty, noToken, 'init');
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/No locale files found under .* \(such as locales\/en\/\*\.json, src\/i18n\/en\.json, .*\); if the source files are not in English, pass --source-locale/);
    const french = await parlance(app({ 'locales/fr/app.json': JSON_SOURCE, 'locales/fr/more.json': '{}' }), noToken, 'init', '--source-locale', 'fr', '--locales', 'de', '--dry-run');
    expect(french.code, french.stderr).toBe(0);
    expect(french.stdout).toContain('source_locale: fr   # from --source-locale');
    expect(french.stdout).toContain('  - source: locales/fr/*.json\n    translation: locales/{locale}/{name}.json');
  });
});

describe('languages_mapping and ignore, from init to pull', () => {
  it('pulls German into de-DE/ as mapped, and leaves an ignored source alone', async () => {
    const root = app({ 'locales/en/common.json': JSON_SOURCE });
    const init = await parlance(root, noToken, 'init', '--locales', 'de,fr');
    expect(init.code, init.stderr).toBe(0);
    // Added after init, which would otherwise have given the folder a rule of its own.
    mkdirSync(join(root, 'locales/en/legacy'));
    writeFileSync(join(root, 'locales/en/legacy/old.json'), '{"old": "Old"}\n');
    const written = readFileSync(join(root, 'parlance.yml'), 'utf8');
    // The user's edits: uncomment the examples init wrote, and widen the source glob to subfolders, which takes in legacy/.
    const edited = written
      .replace('# languages_mapping:\n#   de: de-DE\n#   zh-Hans: zh_CN', 'languages_mapping:\n  de: de-DE\n  zh-Hans: zh_CN')
      .replace('  - source: locales/en/*.json', '  - source: locales/en/**/*.json')
      .replace('    # ignore: ["locales/en/legacy/**"]', '    ignore: ["locales/en/legacy/**"]');
    expect(edited).not.toBe(written);
    writeFileSync(join(root, 'parlance.yml'), edited);

    const dry = await parlance(root, withToken, 'push', '--dry-run', '--json');
    expect(dry.code, dry.stderr).toBe(0);
    expect(json<PushDoc>(dry).files.map((file) => file.path)).toEqual(['locales/en/common.json']);

    const push = await parlance(root, withToken, 'push', '--wait');
    expect(push.code, push.stderr).toBe(0);
    const pull = await parlance(root, withToken, 'pull');
    expect(pull.code, pull.stderr).toBe(0);
    expect(pull.stdout).toContain('locales/de-DE/common.json');
    expect(existsSync(join(root, 'locales/de-DE/common.json'))).toBe(true);
    expect(existsSync(join(root, 'locales/de/common.json'))).toBe(false);
    expect(existsSync(join(root, 'locales/fr/common.json'))).toBe(true);
    expect(Object.keys(JSON.parse(readFileSync(join(root, 'locales/de-DE/common.json'), 'utf8')) as object)).toContain('title');
  });
});
