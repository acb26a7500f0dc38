/** Layout detection for `parlance init`: real repository layouts, one per ecosystem, and the parlance.yml written for them. */
import { describe, expect, it } from 'vitest';
import { compileGlob } from '../../src/project-config/compile-glob.js';
import { parseConfig, type FileRule } from '../../src/project-config/parse-config.js';
import { detectLayout, detectProject, renderConfig, type DetectedLayout } from '../../src/cli/detect.js';
import { translationPath } from '../../src/core/path-templates.js';

interface Case {
  name: string;
  files: string[];
  expected: DetectedLayout;
}

/** Layouts as the tools of each ecosystem create them (the corpus's format folders: json, android_xml, ios_strings, arb, po, yaml, laravel_php, ...). */
const CASES: Case[] = [
  {
    name: 'i18next (react-i18next): public/locales/<locale>/<namespace>.json',
    files: ['package.json', 'src/App.tsx', 'public/locales/en/translation.json', 'public/locales/en/common.json', 'public/locales/de/translation.json', 'public/locales/de/common.json', 'public/locales/pt-BR/translation.json'],
    expected: { sourceLocale: 'en', locales: ['de', 'pt-BR'], rules: [{ source: 'public/locales/en/*.json', translation: 'public/locales/{locale}/{name}.json' }] },
  },
  {
    name: 'one JSON file per locale: src/i18n/<locale>.json (vue-i18n, ngx-translate)',
    files: ['tsconfig.json', 'src/i18n/en.json', 'src/i18n/fr.json', 'src/i18n/zh-Hans.json', 'src/i18n/index.ts'],
    expected: { sourceLocale: 'en', locales: ['fr', 'zh-Hans'], rules: [{ source: 'src/i18n/en.json', translation: 'src/i18n/{locale}.json' }] },
  },
  {
    name: 'Android: res/values[-xx[-rYY]]/strings.xml, leaving colors and other qualifiers alone',
    files: [
      'app/build.gradle',
      'app/src/main/res/values/strings.xml',
      'app/src/main/res/values/plurals.xml',
      'app/src/main/res/values/colors.xml',
      'app/src/main/res/values-de/strings.xml',
      'app/src/main/res/values-de/plurals.xml',
      'app/src/main/res/values-pt-rBR/strings.xml',
      'app/src/main/res/values-b+sr+Latn/strings.xml',
      'app/src/main/res/values-night/colors.xml',
      'app/src/main/res/values-v21/styles.xml',
    ],
    expected: {
      sourceLocale: 'en',
      locales: ['de', 'pt-BR', 'sr-Latn'],
      rules: [{ source: 'app/src/main/res/values/{plurals,strings}.xml', translation: 'app/src/main/res/values-{android_locale}/{name}.xml', format: 'android_xml' }],
    },
  },
  {
    name: 'iOS: <locale>.lproj/Localizable.strings and .stringsdict',
    files: ['App/Base.lproj/Main.storyboard', 'App/en.lproj/Localizable.strings', 'App/en.lproj/Localizable.stringsdict', 'App/de.lproj/Localizable.strings', 'App/de.lproj/Localizable.stringsdict', 'App/zh-Hans.lproj/Localizable.strings', 'App/AppDelegate.swift'],
    expected: {
      sourceLocale: 'en',
      locales: ['de', 'zh-Hans'],
      rules: [
        { source: 'App/en.lproj/*.strings', translation: 'App/{apple_locale}.lproj/{name}.strings', format: 'ios_strings' },
        { source: 'App/en.lproj/*.stringsdict', translation: 'App/{apple_locale}.lproj/{name}.stringsdict', format: 'ios_stringsdict' },
      ],
    },
  },
  {
    name: 'Flutter gen_l10n: lib/l10n/app_<locale>.arb with underscores',
    files: ['pubspec.yaml', 'l10n.yaml', 'lib/main.dart', 'lib/l10n/app_en.arb', 'lib/l10n/app_de.arb', 'lib/l10n/app_pt_BR.arb', 'lib/l10n/app_zh_Hant.arb'],
    expected: { sourceLocale: 'en', locales: ['de', 'pt-BR', 'zh-Hant'], rules: [{ source: 'lib/l10n/app_en.arb', translation: 'lib/l10n/app_{locale_underscore}.arb', format: 'arb' }] },
  },
  {
    name: 'Rails: config/locales/<locale>.yml and <name>.<locale>.yml',
    files: ['Gemfile', 'config/database.yml', 'config/locales/en.yml', 'config/locales/de.yml', 'config/locales/es-419.yml', 'config/locales/devise.en.yml', 'config/locales/devise.de.yml'],
    expected: {
      sourceLocale: 'en',
      locales: ['de', 'es-419'],
      rules: [
        { source: 'config/locales/devise.en.yml', translation: 'config/locales/devise.{locale}.yml', format: 'yaml' },
        { source: 'config/locales/en.yml', translation: 'config/locales/{locale}.yml', format: 'yaml' },
      ],
    },
  },
  {
    name: 'Laravel: resources/lang/<locale>/*.php and resources/lang/<locale>.json',
    files: ['composer.json', 'resources/lang/en/auth.php', 'resources/lang/en/validation.php', 'resources/lang/de/auth.php', 'resources/lang/de/validation.php', 'resources/lang/en.json', 'resources/lang/de.json'],
    expected: {
      sourceLocale: 'en',
      locales: ['de'],
      rules: [
        { source: 'resources/lang/en.json', translation: 'resources/lang/{locale}.json' },
        { source: 'resources/lang/en/*.php', translation: 'resources/lang/{locale}/{name}.php', format: 'laravel_php' },
      ],
    },
  },
  {
    name: 'GNU gettext: po/<domain>.pot with po/<locale>.po',
    files: ['configure.ac', 'src/main.c', 'po/hello.pot', 'po/de.po', 'po/pt_BR.po', 'po/POTFILES.in'],
    expected: { sourceLocale: 'en', locales: ['de', 'pt-BR'], rules: [{ source: 'po/hello.pot', translation: 'po/{locale_underscore}.po', format: 'po' }] },
  },
  {
    name: 'Django: locale/<locale>/LC_MESSAGES/django.po',
    files: ['manage.py', 'locale/en/LC_MESSAGES/django.po', 'locale/de/LC_MESSAGES/django.po', 'locale/pt_BR/LC_MESSAGES/django.po', 'locale/de/LC_MESSAGES/django.mo'],
    expected: { sourceLocale: 'en', locales: ['de', 'pt-BR'], rules: [{ source: 'locale/en/LC_MESSAGES/*.po', translation: 'locale/{locale_underscore}/LC_MESSAGES/{name}.po', format: 'po' }] },
  },
  {
    name: 'Java resource bundles: messages.properties with messages_<locale>.properties',
    files: ['pom.xml', 'src/main/resources/messages.properties', 'src/main/resources/messages_de.properties', 'src/main/resources/messages_fr_CA.properties', 'src/main/resources/application.properties'],
    expected: {
      sourceLocale: 'en',
      locales: ['de', 'fr-CA'],
      rules: [{ source: 'src/main/resources/messages.properties', translation: 'src/main/resources/messages_{locale_underscore}.properties', format: 'properties' }],
    },
  },
  {
    name: '.NET: Strings.resx with Strings.<locale>.resx',
    files: ['App.csproj', 'Resources/Strings.resx', 'Resources/Strings.de.resx', 'Resources/Strings.zh-Hans.resx'],
    expected: { sourceLocale: 'en', locales: ['de', 'zh-Hans'], rules: [{ source: 'Resources/Strings.resx', translation: 'Resources/Strings.{locale}.resx', format: 'resx' }] },
  },
  {
    name: 'Angular i18n: src/locale/messages.xlf with messages.<locale>.xlf',
    files: ['angular.json', 'src/locale/messages.xlf', 'src/locale/messages.fr.xlf', 'src/locale/messages.es.xlf'],
    expected: { sourceLocale: 'en', locales: ['es', 'fr'], rules: [{ source: 'src/locale/messages.xlf', translation: 'src/locale/messages.{locale}.xlf' }] },
  },
  {
    name: 'Unreal Engine: Content/Localization/Game/<locale>/Game.po',
    files: ['Game.uproject', 'Content/Localization/Game/Game.manifest', 'Content/Localization/Game/en/Game.po', 'Content/Localization/Game/zh-CN/Game.po', 'Content/Localization/Game/ja/Game.po'],
    expected: {
      sourceLocale: 'en',
      locales: ['ja', 'zh-CN'],
      rules: [{ source: 'Content/Localization/Game/en/*.po', translation: 'Content/Localization/Game/{locale}/{name}.po', format: 'unreal_po' }],
    },
  },
  {
    name: 'Documentation sites: docs/<locale>/*.md',
    files: ['mkdocs.yml', 'docs/en/index.md', 'docs/en/guide.md', 'docs/fr/index.md', 'docs/ja/index.md'],
    expected: { sourceLocale: 'en', locales: ['fr', 'ja'], rules: [{ source: 'docs/en/*.md', translation: 'docs/{locale}/{name}.md', format: 'markdown' }] },
  },
];

describe('detectLayout: real layouts', () => {
  for (const c of CASES) {
    it(c.name, () => {
      expect(detectLayout(c.files)).toEqual(c.expected);
    });
  }

  it('writes every existing translation file back where it was, for every layout', () => {
    for (const c of CASES) {
      const layout = detectLayout(c.files)!;
      const present = new Set(c.files);
      for (const rule of layout.rules) {
        const glob = compileGlob(rule.source);
        const sources = c.files.filter((f) => glob.test(f));
        expect(sources.length, `${c.name}: ${rule.source}`).toBeGreaterThan(0);
        // Each target the rule produces for an existing source either exists, or is a file the repository simply lacks yet.
        const produced = sources.flatMap((s) => layout.locales.map((l) => translationPath(rule.translation, s, l)));
        expect(produced.filter((p) => present.has(p)).length, `${c.name}: ${rule.translation}`).toBeGreaterThan(0);
        for (const p of produced) expect(glob.test(p), `${c.name}: ${p} would be pushed as a source`).toBe(false);
      }
    }
  });
});

describe('detectLayout: edge cases', () => {
  it('finds nothing without locale files, nor in a locale-named file outside a localisation folder', () => {
    expect(detectLayout([])).toBeUndefined();
    expect(detectLayout(['package.json', 'src/index.ts', 'README.md', 'tsconfig.json'])).toBeUndefined();
    expect(detectLayout(['data/en.json', 'docs/en/index.md', 'fixtures/de/app.json', 'src/app.ts'])).toBeUndefined();
    expect(detectLayout(['res/values/colors.xml', 'App/en.lproj/Main.storyboard'])).toBeUndefined();
  });

  it('does not read folder names that merely look like language codes as locales', () => {
    // `src` canonicalises to Sardinian 'sc', and 'SRC' or 'pt-br' could not be written back by any template.
    expect(detectLayout(['src/app.json', 'lib/app.json', 'test/app.json'])).toBeUndefined();
    expect(detectLayout(['i18n/EN/app.json', 'i18n/pt-br/app.json'])).toBeUndefined();
  });

  it('ignores dependencies and build output', () => {
    const layout = detectLayout(['locales/en.json', 'locales/de.json', 'node_modules/lib/locales/en.json', 'node_modules/lib/locales/fr.json', 'dist/locales/ja.json', 'dist/locales/en.json']);
    expect(layout).toEqual({ sourceLocale: 'en', locales: ['de'], rules: [{ source: 'locales/en.json', translation: 'locales/{locale}.json' }] });
  });

  it('picks English variants as the source, else the locale with the most files', () => {
    expect(detectLayout(['i18n/en-US.json', 'i18n/de-DE.json', 'i18n/fr-FR.json'])?.sourceLocale).toBe('en-US');
    const french = detectLayout(['locales/fr/app.json', 'locales/fr/extra.json', 'locales/de/app.json']);
    expect(french).toEqual({ sourceLocale: 'fr', locales: ['de'], rules: [{ source: 'locales/fr/*.json', translation: 'locales/{locale}/{name}.json' }] });
  });

  it('accepts ./-prefixed paths as `git ls-files` or find print them', () => {
    expect(detectLayout(['./locales/en.json', './locales/de.json'])?.rules).toEqual([{ source: 'locales/en.json', translation: 'locales/{locale}.json' }]);
  });
});

/** Repositories that hold their source files and nothing translated yet: each tool's convention gives the template. */
const SOURCE_ONLY: { name: string; files: string[]; rules: FileRule[]; sourceLocale?: string }[] = [
  { name: 'i18next: locales/en/*.json', files: ['package.json', 'locales/en/common.json', 'locales/en/errors.json'], rules: [{ source: 'locales/en/*.json', translation: 'locales/{locale}/{name}.json' }] },
  { name: 'react-i18next: public/locales/en/translation.json', files: ['public/index.html', 'public/locales/en/translation.json'], rules: [{ source: 'public/locales/en/*.json', translation: 'public/locales/{locale}/{name}.json' }] },
  { name: 'src/locales/en.json', files: ['src/main.ts', 'src/locales/en.json'], rules: [{ source: 'src/locales/en.json', translation: 'src/locales/{locale}.json' }] },
  { name: 'src/i18n/en.json', files: ['src/i18n/en.json', 'src/i18n/index.ts'], rules: [{ source: 'src/i18n/en.json', translation: 'src/i18n/{locale}.json' }] },
  {
    name: 'Android: res/values/strings.xml (colors left alone)',
    files: ['app/src/main/res/values/strings.xml', 'app/src/main/res/values/colors.xml', 'app/src/main/res/values-night/colors.xml'],
    rules: [{ source: 'app/src/main/res/values/strings.xml', translation: 'app/src/main/res/values-{android_locale}/strings.xml', format: 'android_xml' }],
  },
  {
    name: 'iOS: en.lproj/Localizable.strings',
    files: ['App/en.lproj/Localizable.strings', 'App/en.lproj/InfoPlist.strings', 'App/AppDelegate.swift'],
    rules: [{ source: 'App/en.lproj/*.strings', translation: 'App/{apple_locale}.lproj/{name}.strings', format: 'ios_strings' }],
  },
  { name: 'gettext: po/messages.pot', files: ['po/messages.pot', 'src/main.c'], rules: [{ source: 'po/messages.pot', translation: 'po/{locale_underscore}.po', format: 'po' }] },
  { name: 'gettext (Django): locale/django.pot', files: ['locale/django.pot'], rules: [{ source: 'locale/django.pot', translation: 'locale/{locale_underscore}/LC_MESSAGES/django.po', format: 'po' }] },
  { name: 'gettext: po/en.po', files: ['po/en.po'], rules: [{ source: 'po/en.po', translation: 'po/{locale_underscore}.po', format: 'po' }] },
  {
    name: 'gettext (Django): locale/en/LC_MESSAGES/django.po',
    files: ['locale/en/LC_MESSAGES/django.po', 'manage.py'],
    rules: [{ source: 'locale/en/LC_MESSAGES/*.po', translation: 'locale/{locale_underscore}/LC_MESSAGES/{name}.po', format: 'po' }],
  },
  {
    name: 'Rails: config/locales/en.yml and devise.en.yml',
    files: ['config/locales/en.yml', 'config/locales/devise.en.yml', 'config/routes.rb'],
    rules: [
      { source: 'config/locales/devise.en.yml', translation: 'config/locales/devise.{locale}.yml', format: 'yaml' },
      { source: 'config/locales/en.yml', translation: 'config/locales/{locale}.yml', format: 'yaml' },
    ],
  },
  { name: 'Flutter: lib/l10n/app_en.arb', files: ['lib/l10n/app_en.arb', 'lib/main.dart', 'l10n.yaml'], rules: [{ source: 'lib/l10n/app_en.arb', translation: 'lib/l10n/app_{locale_underscore}.arb', format: 'arb' }] },
  { name: 'a source in another language, named', files: ['locales/fr/app.json'], sourceLocale: 'fr', rules: [{ source: 'locales/fr/*.json', translation: 'locales/{locale}/{name}.json' }] },
];

describe('detectLayout: source files alone', () => {
  for (const c of SOURCE_ONLY) {
    it(c.name, () => {
      const project = detectProject(c.files);
      expect(project && { sourceLocale: project.sourceLocale, locales: project.locales, rules: project.rules }).toEqual({ sourceLocale: c.sourceLocale ?? 'en', locales: [], rules: c.rules });
      // Each rule says what it guessed: its files and the convention of its template.
      for (const evidence of project!.evidence) {
        expect(evidence.sources.length).toBeGreaterThan(0);
        expect(evidence.translations).toEqual([]);
        expect(evidence.convention).toBeTruthy();
      }
      // The template writes each target beside the source, never over a source file.
      for (const rule of c.rules) expect(compileGlob(rule.source).test(translationPath(rule.translation, c.files.find((f) => compileGlob(rule.source).test(f))!, 'pt-BR'))).toBe(false);
    });
  }

  it('takes the source locale it is given, and then only files in that locale', () => {
    expect(detectLayout(['locales/de/app.json', 'locales/fr/app.json'], { sourceLocale: 'de' })?.rules).toEqual([{ source: 'locales/de/*.json', translation: 'locales/{locale}/{name}.json' }]);
    expect(detectLayout(['src/i18n/en.json'], { sourceLocale: 'fr' })).toBeUndefined();
  });

  it('adds source files nothing translates yet to the layouts that have translations, once', () => {
    const project = detectProject(['locales/en/common.json', 'locales/en/errors.json', 'locales/de/common.json', 'lib/l10n/app_en.arb']);
    expect(project?.rules).toEqual([
      { source: 'lib/l10n/app_en.arb', translation: 'lib/l10n/app_{locale_underscore}.arb', format: 'arb' },
      { source: 'locales/en/*.json', translation: 'locales/{locale}/{name}.json' },
    ]);
    expect(project?.locales).toEqual(['de']);
    expect(project?.evidence).toEqual([
      { sources: ['lib/l10n/app_en.arb'], translations: [], convention: expect.stringContaining('Flutter') },
      { sources: ['locales/en/common.json', 'locales/en/errors.json'], translations: ['de'] },
    ]);
  });

  it('says which files and which template it guessed in the written file, with languages_mapping and ignore as examples', () => {
    const project = detectProject(['locales/en/common.json', 'locales/en/errors.json'])!;
    const text = renderConfig({ ...project, locales: ['de', 'pt-BR'] }, undefined, { evidence: project.evidence, detectedFormats: ['json_nested'], localesFrom: 'flag' });
    expect(text).toContain('# Source files found: locales/en/common.json, locales/en/errors.json.');
    expect(text).toContain('no translations yet, so it follows the usual layout: one folder per language');
    expect(text).toContain('# Format: json_nested, as the service detects it');
    expect(text).toContain('locales: [de, pt-BR]   # from --locales');
    expect(text).toMatch(/^# languages_mapping:\n# {3}de: de-DE\n# {3}zh-Hans: zh_CN$/m);
    expect(text).toContain('    # ignore: ["locales/en/legacy/**"]');
    // The commented examples read back as the real keys once uncommented.
    const uncommented = text.replace('# languages_mapping:\n#   de: de-DE\n#   zh-Hans: zh_CN', 'languages_mapping:\n  de: de-DE\n  zh-Hans: zh_CN').replaceAll('    # ignore:', '    ignore:').replaceAll('    # languages_mapping:', '    languages_mapping:');
    expect(parseConfig(uncommented, 'parlance.yml')).toMatchObject({
      languages_mapping: { de: 'de-DE', 'zh-Hans': 'zh_CN' },
      files: [{ source: 'locales/en/*.json', ignore: ['locales/en/legacy/**'], languages_mapping: { de: 'de-DE' } }],
    });
    // A file name cannot end a comment early.
    expect(renderConfig(project, undefined, { evidence: [{ sources: ['locales/en/a\nfiles: []'], translations: [] }] })).toContain('# Source files found: locales/en/a?files: [].');
  });
});

describe('renderConfig', () => {
  it('writes a commented parlance.yml that loads back to the same layout, for every case', () => {
    for (const c of CASES) {
      const layout = detectLayout(c.files)!;
      const text = renderConfig(layout);
      const config = parseConfig(text, 'parlance.yml');
      expect(config.source_locale, c.name).toBe(layout.sourceLocale);
      expect(config.locales, c.name).toEqual(layout.locales);
      expect(config.files, c.name).toEqual(layout.rules);
      expect(config.service).toBeUndefined();
    }
  });

  it('writes the service when given, explains the variables, and quotes what YAML would misread', () => {
    const rules: FileRule[] = [{ source: '*.json', translation: '{locale}.json' }, { source: 'a/{x,y}.json', translation: 'b/{locale}/{name}.json', careful: ['onboarding.*', 'a,b'] }];
    const text = renderConfig({ sourceLocale: 'en', locales: [], rules }, 'https://parlance.example.com');
    expect(text).toContain('service: https://parlance.example.com\n');
    expect(text).toContain('# locales: [de, fr]');
    expect(text).toContain('{android_locale}');
    expect(text).toContain('  - source: "*.json"\n    translation: "{locale}.json"\n');
    // Written as a rule on its own, which is not valid on purpose here ('*.json' would catch de.json), so only the YAML is read back.
    expect(() => parseConfig(text, 'parlance.yml')).toThrow(/for a target locale such as 'de' it gives 'de.json'/);
    const yaml = text.replace('"*.json"', 'en.json');
    expect(parseConfig(yaml, 'parlance.yml')).toEqual({
      service: 'https://parlance.example.com',
      source_locale: 'en',
      files: [{ source: 'en.json', translation: '{locale}.json' }, rules[1]],
    });
  });
});
