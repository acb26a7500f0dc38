/** Layout detection for `parlance init`: real repository layouts, one per ecosystem, and the parlance.yml written for them. */
import { describe, expect, it } from 'vitest';
import { compileGlob } from '../../src/project-config/compile-glob.js';
import { parseConfig, type FileRule } from '../../src/project-config/parse-config.js';
import { detectLayout, renderConfig, type DetectedLayout } from '../../src/cli/detect.js';
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
  it('finds nothing without locale files, or with the source locale alone', () => {
    expect(detectLayout([])).toBeUndefined();
    expect(detectLayout(['package.json', 'src/index.ts', 'README.md', 'tsconfig.json'])).toBeUndefined();
    expect(detectLayout(['locales/en.json', 'src/app.ts'])).toBeUndefined();
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
