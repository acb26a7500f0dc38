/** Translation path templates: every variable for typical and awkward locales, and the errors that name what is wrong. */
import { describe, expect, it } from 'vitest';
import { TEMPLATE_VARIABLES, localeFromAndroid, translationPath, unknownVariables, variableValues } from '../../src/core/path-templates.js';

const SOURCE = 'locales/en/common.json';
const fill = (variable: string, locale: string, source = SOURCE) => translationPath(`{${variable}}`, source, locale);

describe('translationPath: locale variables', () => {
  const cases: { locale: string; expected: Record<string, string> }[] = [
    { locale: 'en', expected: { locale: 'en', locale_underscore: 'en', android_locale: 'en', apple_locale: 'en', two_letters: 'en' } },
    { locale: 'pt-BR', expected: { locale: 'pt-BR', locale_underscore: 'pt_BR', android_locale: 'pt-rBR', apple_locale: 'pt-BR', two_letters: 'pt' } },
    { locale: 'zh-Hans', expected: { locale: 'zh-Hans', locale_underscore: 'zh_Hans', android_locale: 'b+zh+Hans', apple_locale: 'zh-Hans', two_letters: 'zh' } },
    { locale: 'sr-Latn', expected: { locale: 'sr-Latn', locale_underscore: 'sr_Latn', android_locale: 'b+sr+Latn', apple_locale: 'sr-Latn', two_letters: 'sr' } },
    // Android's r-qualifier takes only two-letter regions; a UN M.49 region needs the b+ form.
    { locale: 'es-419', expected: { locale: 'es-419', locale_underscore: 'es_419', android_locale: 'b+es+419', apple_locale: 'es-419', two_letters: 'es' } },
    { locale: 'zh-Hant-TW', expected: { locale: 'zh-Hant-TW', locale_underscore: 'zh_Hant_TW', android_locale: 'b+zh+Hant+TW', apple_locale: 'zh-Hant-TW', two_letters: 'zh' } },
  ];
  for (const { locale, expected } of cases) {
    it(`fills every locale variable for ${locale}`, () => {
      const actual = Object.fromEntries(Object.keys(expected).map((variable) => [variable, fill(variable, locale)]));
      expect(actual).toEqual(expected);
    });
  }

  it('canonicalises the tag it is given before filling', () => {
    expect(fill('locale', 'pt-br')).toBe('pt-BR');
    expect(fill('android_locale', 'zh-hans')).toBe('b+zh+Hans');
  });

  it("names Chinese by script for Xcode, whose localizations are zh-Hans and zh-Hant", () => {
    expect(fill('apple_locale', 'zh-CN')).toBe('zh-Hans');
    expect(fill('apple_locale', 'zh-TW')).toBe('zh-Hant');
    expect(fill('apple_locale', 'zh-HK')).toBe('zh-HK');
    expect(fill('locale', 'zh-CN')).toBe('zh-CN');
  });

  it('throws naming a locale that is not a BCP-47 tag', () => {
    expect(() => fill('locale', 'english')).toThrow(/Invalid locale 'english'/);
    expect(() => fill('locale', 'pt_BR')).toThrow(/did you mean 'pt-BR'/);
  });
});

describe('translationPath: file variables and whole templates', () => {
  it('fills {name}, {ext} and {dir} from the source path', () => {
    expect(translationPath('{dir}|{name}|{ext}', 'app/src/main/res/values/strings.xml', 'de')).toBe('app/src/main/res/values|strings|xml');
    expect(translationPath('{name}.{ext}', 'config/locales/devise.en.yml', 'de')).toBe('devise.en.yml');
    expect(translationPath('{name}|{ext}', 'po/messages', 'de')).toBe('messages|');
    expect(translationPath('{name}|{ext}', 'config/.env', 'de')).toBe('.env|');
  });

  it('fills the common layouts', () => {
    expect(translationPath('locales/{locale}/{name}.json', 'locales/en/common.json', 'pt-BR')).toBe('locales/pt-BR/common.json');
    expect(translationPath('res/values-{android_locale}/{name}.xml', 'res/values/strings.xml', 'pt-BR')).toBe('res/values-pt-rBR/strings.xml');
    expect(translationPath('App/{apple_locale}.lproj/{name}.{ext}', 'App/en.lproj/Localizable.strings', 'zh-CN')).toBe('App/zh-Hans.lproj/Localizable.strings');
    expect(translationPath('lib/l10n/app_{locale_underscore}.arb', 'lib/l10n/app_en.arb', 'zh-Hans')).toBe('lib/l10n/app_zh_Hans.arb');
    expect(translationPath('po/{two_letters}.po', 'po/messages.pot', 'sr-Latn')).toBe('po/sr.po');
  });

  it("gives '.' for {dir} at the top, and normalises the filled path", () => {
    // '.' alone is no file path, so only the value shows it; a filled template must be a repository path.
    expect(variableValues('en.json', 'de').dir).toBe('.');
    expect(translationPath('{dir}/{locale}.json', 'en.json', 'de')).toBe('de.json');
    expect(translationPath('{dir}/../{locale}/{name}.json', 'locales/en/app.json', 'fr')).toBe('locales/fr/app.json');
  });

  it('throws naming every unknown variable and listing the known ones', () => {
    expect(() => translationPath('locales/{lang}/{file}.json', SOURCE, 'de')).toThrow(/Unknown variables \{lang\}, \{file\} in translation template 'locales\/\{lang\}\/\{file\}\.json'\. Known: \{locale\}/);
    expect(() => translationPath('{a,b}/{locale}.json', SOURCE, 'de')).toThrow(/Unknown variable \{a,b\}/);
    expect(unknownVariables('{locale}/{name}.{ext}')).toEqual([]);
  });

  it('documents every variable it fills, with an example that matches pt-BR', () => {
    for (const variable of TEMPLATE_VARIABLES) {
      expect(variable.meaning.length).toBeGreaterThan(5);
      if (['locale', 'locale_underscore', 'android_locale', 'apple_locale', 'two_letters'].includes(variable.name)) {
        expect(fill(variable.name, 'pt-BR')).toBe(variable.example);
      } else {
        expect(() => fill(variable.name, 'pt-BR')).not.toThrow();
      }
    }
    expect(translationPath('{name}', 'locales/en/messages.json', 'de')).toBe(TEMPLATE_VARIABLES.find((v) => v.name === 'name')?.example);
  });
});

describe('localeFromAndroid', () => {
  it('reads Android qualifiers back into tags, and only qualifiers that round-trip', () => {
    expect(localeFromAndroid('de')).toBe('de');
    expect(localeFromAndroid('pt-rBR')).toBe('pt-BR');
    expect(localeFromAndroid('b+sr+Latn')).toBe('sr-Latn');
    expect(localeFromAndroid('b+es+419')).toBe('es-419');
    for (const other of ['night', 'v21', 'land', 'sw600dp', 'hdpi', 'pt-BR', 'de-rde']) expect(localeFromAndroid(other)).toBeUndefined();
  });
});
