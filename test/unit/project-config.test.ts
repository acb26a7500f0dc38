/** parlance.yml: valid files, each error at its exact line and column, both file locations, and the glob matcher over a real tree and over a code host's listing. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigFileError, ConfigNotFoundError } from '../../src/project-config/config-file-error.js';
import { compileGlob, sampleOfGlob } from '../../src/project-config/compile-glob.js';
import { loadConfig } from '../../src/project-config/load-config.js';
import { configPathProblem } from '../../src/project-config/config-path-problem.js';
import { matchSourcePaths } from '../../src/project-config/match-source-paths.js';
import { matchSources } from '../../src/project-config/match-sources.js';
import type { FileRule, ParlanceConfig } from '../../src/project-config/parse-config.js';
import { localeFromPathName, targetPathFor, targetPaths } from '../../src/project-config/target-paths.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A temporary repository holding `files` (path → content). */
function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'parlance-config-'));
  dirs.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

function configError(text: string, name = 'parlance.yml'): ConfigFileError {
  const root = repo({ [name]: text });
  try {
    loadConfig(root);
  } catch (error) {
    if (error instanceof ConfigFileError) return error;
    throw error;
  }
  throw new Error(`expected ${name} to be refused:\n${text}`);
}

const lines = (...l: string[]) => `${l.join('\n')}\n`;

describe('loadConfig: valid files', () => {
  it('reads the documented example, canonicalising locales and normalising paths', () => {
    const root = repo({
      'parlance.yml': lines(
        '# parlance.yml',
        'service: https://parlance.example.com/   # trailing slash',
        'source_locale: en',
        'locales: [de, fr, pt-br]',
        'files:',
        '  - source: ./locales/en/*.json',
        '    translation: locales/{locale}/{name}.json',
        '    format: json',
        '    careful: ["onboarding.*"]',
      ),
    });
    const { config, path, root: configRoot } = loadConfig(root);
    expect(config).toEqual<ParlanceConfig>({
      service: 'https://parlance.example.com',
      source_locale: 'en',
      locales: ['de', 'fr', 'pt-BR'],
      files: [{ source: 'locales/en/*.json', translation: 'locales/{locale}/{name}.json', format: 'json', careful: ['onboarding.*'] }],
    });
    expect(path).toBe(join(root, 'parlance.yml'));
    expect(configRoot).toBe(root);
  });

  it('needs only files; a rule that maps the source locale onto its own file is the usual case', () => {
    const root = repo({ 'parlance.yml': lines('files:', '  - source: res/values/strings.xml', '    translation: res/values-{android_locale}/strings.xml') });
    expect(loadConfig(root).config).toEqual({ files: [{ source: 'res/values/strings.xml', translation: 'res/values-{android_locale}/strings.xml' }] });
    const same = repo({ 'parlance.yml': lines('source_locale: en', 'locales: [de]', 'files:', '  - source: locales/en.json', '    translation: locales/{locale}.json') });
    expect(loadConfig(same).config.files).toHaveLength(1);
  });

  it('finds .github/parlance.yml, whose globs are relative to the repository above .github', () => {
    const root = repo({ '.github/parlance.yml': lines('files:', '  - source: locales/en.json', '    translation: locales/{locale}.json'), 'locales/en.json': '{}' });
    const loaded = loadConfig(root);
    expect(loaded.path).toBe(join(root, '.github', 'parlance.yml'));
    expect(loaded.root).toBe(root);
    expect(matchSources(loaded.config, loaded.root).map((m) => m.path)).toEqual(['locales/en.json']);
  });

  it('prefers parlance.yml over .github/parlance.yml, and loads an explicit file relative to cwd', () => {
    const rule = (source: string) => lines('files:', `  - source: ${source}`, '    translation: "{locale}.json"');
    const root = repo({ 'parlance.yml': rule('top.json'), '.github/parlance.yml': rule('github.json'), 'config/other.yml': rule('other.json') });
    expect(loadConfig(root).config.files[0]?.source).toBe('top.json');
    const explicit = loadConfig(root, 'config/other.yml');
    expect(explicit.config.files[0]?.source).toBe('other.json');
    expect(explicit.root).toBe(join(root, 'config'));
    expect(loadConfig(root, '.github/parlance.yml').root).toBe(root);
  });

  it('says where it looked when there is no config', () => {
    const root = repo({ 'README.md': '# hi' });
    expect(() => loadConfig(root)).toThrow(ConfigNotFoundError);
    expect(() => loadConfig(root)).toThrow(`No parlance.yml or .github/parlance.yml in ${root}; run 'parlance init'`);
    expect(() => loadConfig(root, 'missing.yml')).toThrow('Config file missing.yml does not exist.');
  });
});

describe('loadConfig: errors name the file, line and column', () => {
  it('reports YAML syntax errors where the parser stopped', () => {
    const error = configError(lines('files:', '  - source: [locales/en.json', '    translation: x'));
    expect(error.message).toMatch(/^parlance\.yml:3:5: .*\(YAML [A-Z_]+\)$/m);
    expect(error.file).toMatch(/parlance\.yml$/);
  });

  it('refuses duplicate keys', () => {
    const error = configError(lines('files: []', 'files:', '  - source: a.json'));
    expect([error.line, error.column]).toEqual([2, 1]);
    expect(error.message).toBe('parlance.yml:2:1: Map keys must be unique (YAML DUPLICATE_KEY)');
  });

  it('refuses unknown keys at the key itself, with a did-you-mean hint', () => {
    const error = configError(lines('servce: https://x.example', 'files:', '  - source: locales/en.json', '    translatoin: locales/{locale}.json', '    translation: locales/{locale}.json'));
    expect(error.message).toBe(
      [
        "parlance.yml:1:1: servce: unknown key 'servce' (did you mean 'service'?); allowed: service, source_locale, locales, languages_mapping, files",
        "parlance.yml:4:5: files[0].translatoin: unknown key 'translatoin' (did you mean 'translation'?); allowed: source, translation, format, careful, ignore, languages_mapping, plurals",
      ].join('\n'),
    );
    expect([error.line, error.column]).toEqual([1, 1]);
    expect(error.issues).toHaveLength(2);
  });

  it("suggests our name for another tool's key, and nothing for a key close to none", () => {
    expect(configError(lines('target_locales: [de]', 'files: []')).message).toContain("parlance.yml:1:1: target_locales: unknown key 'target_locales' (did you mean 'locales'?)");
    expect(configError(lines('files:', '  - source: a.json', '    translation: "{locale}.json"', '    banana: 1')).message).toBe(
      "parlance.yml:4:5: files[0].banana: unknown key 'banana'; allowed: source, translation, format, careful, ignore, languages_mapping, plurals",
    );
  });

  it('requires a locale variable in the translation template', () => {
    const error = configError(lines('files:', '  - source: locales/en.json', '    translation: locales/all.json'));
    expect(error.message).toBe(
      "parlance.yml:3:18: files[0].translation: 'locales/all.json' must contain {locale} or another locale variable ({locale_underscore}, {android_locale}, {apple_locale}, {two_letters}), or every locale is written to the same file",
    );
  });

  it('names unknown template variables', () => {
    const error = configError(lines('files:', '  - source: locales/en.json', "    translation: 'locales/{lang}.json'"));
    expect(error.message).toMatch(/^parlance\.yml:3:18: files\[0\]\.translation: unknown variable \{lang\} in 'locales\/\{lang\}\.json'; known: \{locale\}, \{locale_underscore\}/);
  });

  it('refuses a template that writes a target locale where the source glob looks, which would push translations as sources', () => {
    const error = configError(lines('locales: [de, fr]', 'files:', "  - source: 'locales/*.json'", "    translation: 'locales/{locale}.json'"));
    expect(error.message).toBe(
      "parlance.yml:4:18: files[0].translation: for locale 'de' it gives 'locales/de.json', which the source glob 'locales/*.json' matches too, so translations would be pushed as source files; make 'source' match only the source locale's files",
    );
    // Without `locales`, a stand-in target still shows it.
    expect(configError(lines('files:', "  - source: '**/*.json'", "    translation: 'i18n/{locale}/{name}.json'")).message).toContain(
      "parlance.yml:3:18: files[0].translation: for a target locale such as 'de' it gives 'i18n/de/x.json'",
    );
  });

  it('reports a missing key at the mapping that lacks it', () => {
    const error = configError(lines('files:', '  - source: locales/en.json', '    format: json'));
    expect(error.message).toBe("parlance.yml:2:5: files[0].translation: is missing; expected a path template such as 'locales/{locale}/{name}.json'");
  });

  it('needs at least one rule, and reports an empty file at its start', () => {
    expect(configError(lines('source_locale: en', 'files: []')).message).toBe(
      "parlance.yml:2:8: files: must list at least one rule; expected a list of file rules, each with 'source' and 'translation'",
    );
    expect(configError('').message).toBe("parlance.yml:1:1: expected a mapping with at least 'files', got an empty value");
    expect(configError(lines('source_locale: en')).message).toBe(
      "parlance.yml:1:1: files: is missing; expected a list of file rules, each with 'source' and 'translation'",
    );
  });

  it('names a bad locale with the BCP-47 hint, a locale listed twice, and the source locale listed as a target', () => {
    expect(configError(lines('locales:', '  - de', '  - pt_BR', 'files:', '  - source: a.json', '    translation: "{locale}.json"')).message).toBe(
      "parlance.yml:3:5: locales[1]: Invalid locale 'pt_BR'. Expected a BCP-47 tag such as 'en-US' (did you mean 'pt-BR'?).",
    );
    expect(configError(lines('source_locale: english', 'files:', '  - source: a.json', '    translation: "{locale}.json"')).message).toMatch(
      /^parlance\.yml:1:16: source_locale: Invalid locale 'english'\./,
    );
    expect(configError(lines('source_locale: en', 'locales: [de, fr, de, en]', 'files:', '  - source: a.json', '    translation: "{locale}.json"')).message).toBe(
      ["parlance.yml:2:19: locales[2]: 'de' is listed twice (also locales[0])", "parlance.yml:2:23: locales[3]: 'en' is the source locale; list only target locales"].join('\n'),
    );
  });

  it('quotes the wrong value and the expected form for type errors', () => {
    expect(configError(lines('locales: de', 'files:', '  - source: a.json', '    translation: "{locale}.json"')).message).toBe(
      "parlance.yml:1:10: locales: expected a list of BCP-47 tags such as [de, fr, pt-BR], got the text 'de'",
    );
    expect(configError(lines('files:', '  - source: a.json', '    translation: "{locale}.json"', '    careful: onboarding.*')).message).toBe(
      'parlance.yml:4:14: files[0].careful: expected a list of key patterns such as ["onboarding.*"], got the text \'onboarding.*\'',
    );
    expect(configError(lines('files:', '  - locales/en.json')).message).toBe(
      "parlance.yml:2:5: files[0]: expected a mapping with 'source' and 'translation', got the text 'locales/en.json'",
    );
    expect(configError(lines('- files')).message).toBe("parlance.yml:1:1: expected a mapping with at least 'files', got a list");
  });

  it('names an unknown format and lists the known ones', () => {
    expect(configError(lines('files:', '  - source: a.json', '    translation: "{locale}.json"', '    format: jsonn')).message).toMatch(
      /^parlance\.yml:4:13: files\[0\]\.format: unknown format 'jsonn'; expected one of: json, json_nested, /,
    );
  });

  it('refuses a service that is not an http(s) base URL', () => {
    const rule = ['files:', '  - source: a.json', '    translation: "{locale}.json"'];
    expect(configError(lines('service: parlance.example.com', ...rule)).message).toBe(
      "parlance.yml:1:10: service: 'parlance.example.com' is not an http(s) URL such as 'https://parlance.example.com'",
    );
    expect(configError(lines('service: https://parlance.example.com/v1', ...rule)).message).toBe(
      "parlance.yml:1:10: service: 'https://parlance.example.com/v1' ends in /v1; give the service's base URL without it (the client adds /v1)",
    );
  });

  it('refuses source globs that are absolute, climb out, use backslashes or leave a brace open', () => {
    const withSource = (source: string) => configError(lines('files:', `  - source: '${source}'`, "    translation: 'out/{locale}.json'")).message;
    expect(withSource('/etc/en.json')).toBe("parlance.yml:2:13: files[0].source: '/etc/en.json' is absolute; write it relative to the config file's directory");
    expect(withSource('../other/en.json')).toBe("parlance.yml:2:13: files[0].source: '../other/en.json' climbs out with '..'; source files must be under the config file's directory");
    expect(withSource('locales\\en.json')).toContain("files[0].source: 'locales\\en.json' contains '\\'; write paths with '/'");
    expect(withSource('locales/{en,de.json')).toBe("parlance.yml:2:13: files[0].source: 'locales/{en,de.json' has a '{' without its '}'");
    expect(withSource('')).toBe("parlance.yml:2:13: files[0].source: must not be empty; expected a glob such as 'locales/en/*.json'");
  });

  it('holds translation templates and their expansions to the repository path rule, at the template', () => {
    const withTranslation = (translation: string, source = 'locales/en.json') =>
      configError(lines('files:', `  - source: '${source}'`, `    translation: '${translation}'`)).message;
    const expected = "expected a relative path inside the repository such as 'locales/en.json'.";
    expect(withTranslation('../outside/{locale}.json')).toBe(
      `parlance.yml:3:18: files[0].translation: Invalid path '../outside/{locale}.json': '..' segments are not allowed (only right after {dir}, as in '{dir}/../{apple_locale}.lproj/{name}.strings'); ${expected}`,
    );
    expect(withTranslation('/tmp/{locale}.json')).toBe(`parlance.yml:3:18: files[0].translation: Invalid path '/tmp/{locale}.json': absolute paths are not allowed; drop the leading '/'; ${expected}`);
    expect(withTranslation('C:/l10n/{locale}.json')).toContain("parlance.yml:3:18: files[0].translation: Invalid path 'C:/l10n/{locale}.json': drive letters are not allowed");
    expect(withTranslation('locales\\{locale}.json')).toContain("parlance.yml:3:18: files[0].translation: Invalid path 'locales\\{locale}.json': backslashes are not allowed");
    expect(withTranslation('locales//{locale}.json')).toContain('parlance.yml:3:18: files[0].translation: Invalid path \'locales//{locale}.json\': empty segments are not allowed');
    expect(withTranslation('./{locale}.json')).toContain("parlance.yml:3:18: files[0].translation: Invalid path './{locale}.json': '.' segments are not allowed");
    const bell = configError(lines('files:', "  - source: 'locales/en.json'", '    translation: "l10n/\\a/{locale}.json"')).message;
    expect(bell).toContain('parlance.yml:3:18: files[0].translation: Invalid path \'l10n/\\u0007/{locale}.json\': it contains the control character U+0007');
    expect(withTranslation(`${'x'.repeat(1100)}/{locale}.json`)).toContain('it is 1114 bytes long (UTF-8); at most 1024 are allowed');
    // The template passes on its own, but its expansion climbs out of the repository.
    expect(withTranslation('{dir}/../../{locale}.json')).toBe(
      `parlance.yml:3:18: files[0].translation: for the source 'locales/en.json' and locale 'de' it gives invalid path '../de.json': '..' segments are not allowed; ${expected}`,
    );
  });

  it('names .github/parlance.yml as the file when it is the one loaded', () => {
    const error = configError(lines('files:', '  - source: a.json', '    translation: b.json'), '.github/parlance.yml');
    expect(error.message).toMatch(/^\.github\/parlance\.yml:3:18: files\[0\]\.translation: 'b\.json' must contain \{locale\}/);
    expect(error.file).toMatch(/\.github[/\\]parlance\.yml$/);
  });

  it('lists every problem in file order; line and column are the first', () => {
    const error = configError(lines('locales: [xx-!!]', 'files:', '  - source: a.json', '    translation: b.json', 'extra: 1'));
    expect(error.issues.map((i) => `${i.line}:${i.column} ${i.at}`)).toEqual(['1:11 locales[0]', '4:18 files[0].translation', '5:1 extra']);
    expect([error.line, error.column]).toEqual([1, 11]);
  });
});

describe('globs', () => {
  const matches = (glob: string, path: string) => compileGlob(glob).test(path);

  it('* stays within one folder, ** spans any depth, ? is one character, {a,b} picks', () => {
    expect(matches('locales/*.json', 'locales/en.json')).toBe(true);
    expect(matches('locales/*.json', 'locales/en/app.json')).toBe(false);
    expect(matches('locales/**/*.json', 'locales/en.json')).toBe(true);
    expect(matches('locales/**/*.json', 'locales/en/sub/app.json')).toBe(true);
    expect(matches('**/*.strings', 'Localizable.strings')).toBe(true);
    expect(matches('**/*.strings', 'App/en.lproj/Localizable.strings')).toBe(true);
    expect(matches('locales/**', 'locales/a/b/c.txt')).toBe(true);
    expect(matches('locales/**', 'other/a.txt')).toBe(false);
    expect(matches('app_??.arb', 'app_en.arb')).toBe(true);
    expect(matches('app_??.arb', 'app_pt_BR.arb')).toBe(false);
    expect(matches('?.json', '/.json')).toBe(false);
    expect(matches('res/values/{strings,plurals}.xml', 'res/values/plurals.xml')).toBe(true);
    expect(matches('res/values/{strings,plurals}.xml', 'res/values/colors.xml')).toBe(false);
    expect(matches('{src/*,lib/{a,b}}/en.json', 'lib/b/en.json')).toBe(true);
    expect(matches('{src/*,lib/{a,b}}/en.json', 'src/x/y/en.json')).toBe(false);
  });

  it('treats everything else literally', () => {
    expect(matches('locales/en.json', 'locales/enxjson')).toBe(false);
    expect(matches('a+b/(x)[1].json', 'a+b/(x)[1].json')).toBe(true);
    expect(matches('a$/^b.json', 'a$/^b.json')).toBe(true);
  });

  it('samples a path the glob matches', () => {
    for (const glob of ['locales/*.json', 'locales/**/*.json', '**/en.lproj/*.strings', 'app_??.arb', 'res/values/{strings,plurals}.xml']) {
      expect(matches(glob, sampleOfGlob(glob))).toBe(true);
    }
    expect(sampleOfGlob('locales/**/*.json')).toBe('locales/x.json');
  });
});

describe('matchSources', () => {
  it('walks the tree under each rule, skipping node_modules and .git, sorted, each rule on its own', () => {
    const root = repo({
      'locales/en/b.json': '{}',
      'locales/en/a.json': '{}',
      'locales/en/nested/c.json': '{}',
      'locales/de/a.json': '{}',
      'locales/en/node_modules/x.json': '{}',
      'node_modules/pkg/locales/en/a.json': '{}',
      '.git/locales/en/a.json': '{}',
      'res/values/strings.xml': '<resources/>',
      'res/values/colors.xml': '<resources/>',
      'App/en.lproj/Localizable.strings': '',
      'Sub/App/en.lproj/InfoPlist.strings': '',
    });
    const config: ParlanceConfig = {
      files: [
        { source: 'locales/en/**/*.json', translation: 'locales/{locale}/{name}.json' },
        { source: 'res/values/{strings,plurals}.xml', translation: 'res/values-{android_locale}/{name}.xml' },
        { source: '**/en.lproj/*.strings', translation: '{dir}/../{apple_locale}.lproj/{name}.strings' },
        { source: 'locales/en/a.json', translation: 'out/{locale}.json' },
        { source: 'missing/*.json', translation: 'missing/{locale}.json' },
      ],
    };
    const found = matchSources(config, root).map((m) => [config.files.indexOf(m.rule), m.path]);
    expect(found).toEqual([
      [0, 'locales/en/a.json'],
      [0, 'locales/en/b.json'],
      [0, 'locales/en/nested/c.json'],
      [1, 'res/values/strings.xml'],
      [2, 'App/en.lproj/Localizable.strings'],
      [2, 'Sub/App/en.lproj/InfoPlist.strings'],
      [3, 'locales/en/a.json'],
    ]);
    expect(matchSources(config, root)[0]?.absolute).toBe(join(root, 'locales', 'en', 'a.json'));
  });

  it('includes symlinked files but does not follow symlinked folders (no cycles)', () => {
    const root = repo({ 'locales/en/a.json': '{}' });
    symlinkSync(join(root, 'locales', 'en', 'a.json'), join(root, 'locales', 'en', 'link.json'));
    symlinkSync(join(root, 'locales'), join(root, 'locales', 'en', 'loop'));
    const config: ParlanceConfig = { files: [{ source: 'locales/**/*.json', translation: 'out/{locale}/{name}.json' }] };
    expect(matchSources(config, root).map((m) => m.path)).toEqual(['locales/en/a.json', 'locales/en/link.json']);
  });
});

describe('matchSourcePaths and targetPaths: a code host\'s listing instead of a disk', () => {
  const config: ParlanceConfig = {
    files: [
      { source: 'locales/en/*.json', translation: 'locales/{locale}/{name}.json' },
      { source: 'locales/**/*.json', translation: 'other/{locale}/{name}.json' },
    ],
  };
  const listing = ['README.md', 'locales/en/b.json', 'locales/en/a.json', 'locales/de/a.json', 'locales/en/deep/c.json'];

  it('matches in rule order, each path once (an earlier rule keeps it), sorted within a rule', () => {
    expect(matchSourcePaths(config, listing).map((match) => [config.files.indexOf(match.rule), match.path])).toEqual([
      [0, 'locales/en/a.json'],
      [0, 'locales/en/b.json'],
      [1, 'locales/de/a.json'],
      [1, 'locales/en/deep/c.json'],
    ]);
  });

  it("gives each source's translation file per locale from its rule's template", () => {
    const sources = matchSourcePaths(config, ['locales/en/a.json']);
    expect(targetPaths(config, sources, ['de', 'pt-BR']).map((target) => [target.locale, target.path])).toEqual([
      ['de', 'locales/de/a.json'],
      ['pt-BR', 'locales/pt-BR/a.json'],
    ]);
  });

  it('refuses a config path outside the repository, quoting it and the expected form', () => {
    expect(configPathProblem('.github/parlance.yml')).toBeUndefined();
    expect(configPathProblem('../parlance.yml')).toMatch(/^Invalid config_path '\.\.\/parlance\.yml': .+\. Expected a path relative to the repository root/);
  });
});

describe('languages_mapping, ignore and plurals', () => {
  const mapped = lines(
    'locales: [de, zh-Hans, pt-BR]',
    'languages_mapping:',
    '  de: de-DE',
    '  zh-hans: zh_CN',
    'files:',
    '  - source: locales/en-US/*.json',
    '    translation: locales/{locale}/{name}.json',
    '    ignore: [./locales/en-US/legacy-*.json, "locales/en-US/*.draft.json"]',
    '    plurals: i18next',
    '  - source: res/values/strings.xml',
    '    translation: res/values-{android_locale}/strings.xml',
    '    languages_mapping: {pt-BR: pt-rBR-x, de: de}',
    '    plurals: none',
  );

  it('reads both levels, canonicalising the locales and normalising the globs', () => {
    const { config } = loadConfig(repo({ 'parlance.yml': mapped }));
    expect(config.languages_mapping).toEqual({ de: 'de-DE', 'zh-Hans': 'zh_CN' });
    expect(config.files[0]).toEqual({
      source: 'locales/en-US/*.json',
      translation: 'locales/{locale}/{name}.json',
      ignore: ['locales/en-US/legacy-*.json', 'locales/en-US/*.draft.json'],
      plurals: 'i18next',
    });
    expect(config.files[1]).toMatchObject({ languages_mapping: { 'pt-BR': 'pt-rBR-x', de: 'de' }, plurals: 'none' });
  });

  it('gives the mapped name in every locale variable, a rule\'s own mapping over the global one, and others as before', () => {
    const { config } = loadConfig(repo({ 'parlance.yml': mapped }));
    const [json, android] = config.files as [FileRule, FileRule];
    expect(targetPathFor(config, json, 'locales/en-US/app.json', 'de')).toBe('locales/de-DE/app.json');
    expect(targetPathFor(config, json, 'locales/en-US/app.json', 'zh-hans')).toBe('locales/zh_CN/app.json');
    expect(targetPathFor(config, json, 'locales/en-US/app.json', 'fr')).toBe('locales/fr/app.json');
    expect(targetPathFor(config, android, 'res/values/strings.xml', 'de')).toBe('res/values-de/strings.xml');
    expect(targetPathFor(config, android, 'res/values/strings.xml', 'pt-BR')).toBe('res/values-pt-rBR-x/strings.xml');
    expect(targetPathFor(config, android, 'res/values/strings.xml', 'zh-Hans')).toBe('res/values-zh_CN/strings.xml');
    for (const variable of ['locale', 'locale_underscore', 'android_locale', 'apple_locale', 'two_letters']) {
      expect(targetPathFor(config, { translation: `x/{${variable}}.json` }, 'en.json', 'de'), variable).toBe('x/de-DE.json');
    }
    const sources = matchSourcePaths(config, ['locales/en-US/app.json']);
    expect(targetPaths(config, sources, ['de', 'fr']).map((t) => t.path)).toEqual(['locales/de-DE/app.json', 'locales/fr/app.json']);
  });

  it('reads a path name back into the Parlance locale', () => {
    const { config } = loadConfig(repo({ 'parlance.yml': mapped }));
    const [json, android] = config.files as [FileRule, FileRule];
    expect(localeFromPathName(config, json, 'de-DE')).toBe('de');
    expect(localeFromPathName(config, json, 'zh_CN')).toBe('zh-Hans');
    expect(localeFromPathName(config, json, 'pt_BR')).toBe('pt-BR');
    expect(localeFromPathName(config, json, 'fr')).toBe('fr');
    // German is written as de-DE: a `de` folder holds no German of this rule.
    expect(localeFromPathName(config, json, 'de')).toBeUndefined();
    expect(localeFromPathName(config, json, 'legacy')).toBeUndefined();
    expect(localeFromPathName(config, json, 'pt-br')).toBeUndefined();
    expect(localeFromPathName(config, android, 'de')).toBe('de');
    expect(localeFromPathName(config, android, 'pt-rBR-x')).toBe('pt-BR');
    expect(localeFromPathName(config, android, 'es-rMX')).toBe('es-MX');
    // Among the project's locales: the one the name stands for, whichever variable wrote it.
    expect(localeFromPathName(config, json, 'pt', ['de', 'pt-BR'])).toBe('pt-BR');
    expect(localeFromPathName(config, json, 'zh-Hans', ['zh-CN'])).toBe('zh-CN');
    expect(localeFromPathName(config, json, 'de-DE', ['de', 'fr'])).toBe('de');
    expect(localeFromPathName(config, json, 'de', ['de', 'fr'])).toBeUndefined();
    expect(localeFromPathName(config, json, 'it', ['de', 'fr'])).toBeUndefined();
  });

  it('leaves ignored files out of the sources, on disk and in a listing', () => {
    const root = repo({
      'parlance.yml': mapped,
      'locales/en-US/app.json': '{}',
      'locales/en-US/legacy-old.json': '{}',
      'locales/en-US/home.draft.json': '{}',
      'res/values/strings.xml': '<resources/>',
    });
    const { config } = loadConfig(root);
    expect(matchSources(config, root).map((m) => m.path)).toEqual(['locales/en-US/app.json', 'res/values/strings.xml']);
    expect(matchSourcePaths(config, ['locales/en-US/legacy-1.json', 'locales/en-US/app.json', 'locales/en-US/x.draft.json']).map((m) => m.path)).toEqual(['locales/en-US/app.json']);
  });

  it('refuses bad mappings, ignore globs and plurals modes at their line and column', () => {
    const error = configError(
      lines(
        'languages_mapping:',
        '  de_DE: de',
        '  fr: ../fr',
        '  it: de-DE',
        '  es: es-ES',
        '  ca: es-ES',
        '  ja: 3',
        'files:',
        '  - source: locales/en/*.json',
        '    translation: locales/{locale}/{name}.json',
        '    ignore: [/abs/*.json, "locales/{a"]',
        '    plurals: icu',
        '    languages_mapping: [de]',
      ),
    );
    expect(error.message.split('\n')).toEqual([
      "parlance.yml:2:10: languages_mapping.de_DE: Invalid locale 'de_DE'. Expected a BCP-47 tag such as 'en-US' (did you mean 'de-DE'?). The keys are Parlance locales; the names your paths use go on the right (de: de-DE).",
      "parlance.yml:3:7: languages_mapping.fr: '../fr' holds a path separator; a locale's name is one part of a path (the template says where it goes)",
      "parlance.yml:6:7: languages_mapping.ca: 'es' and 'ca' both map to 'es-ES', so their translations would be written to the same files",
      "parlance.yml:7:7: languages_mapping.ja: expected the name 'ja' has in your paths, such as 'ja', got the number 3",
      "parlance.yml:11:14: files[0].ignore[0]: '/abs/*.json' is absolute; write it relative to the config file's directory",
      "parlance.yml:11:27: files[0].ignore[1]: 'locales/{a' has a '{' without its '}'",
      "parlance.yml:12:14: files[0].plurals: unknown plurals mode 'icu'; expected i18next (a key family such as items_one, items_other is one plural key) or none (every key on its own)",
      'parlance.yml:13:24: files[0].languages_mapping: expected a mapping from Parlance locales to the names your paths use, such as {de: de-DE, zh-Hans: zh_CN}, got a list',
    ]);
  });

  it('refuses a mapping that puts two listed locales in one file', () => {
    const error = configError(lines('locales: [de, fr]', 'languages_mapping: {fr: de}', 'files:', '  - source: locales/en/*.json', '    translation: locales/{locale}/{name}.json'));
    expect(error.message).toBe("parlance.yml:5:18: files[0].translation: for the locales 'de' and 'fr' it gives the same file 'locales/de/x.json' (see languages_mapping); each locale needs its own file");
    // A mapped name the source glob matches would push translations as sources.
    expect(configError(lines('languages_mapping: {de: en}', 'files:', '  - source: locales/en/*.json', '    translation: locales/{locale}/{name}.json')).message).toMatch(
      /for a target locale such as 'de' it gives 'locales\/en\/x\.json', which the source glob/,
    );
  });
});
