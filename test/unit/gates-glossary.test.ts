/** The glossary gate and its term matching: locked and forbidden terms in real UI strings, across scripts and markup. */
import { describe, expect, it } from 'vitest';
import { checkGlossary, containsTerm, termsInSource, termTranslation } from '../../src/core/gates/glossary.js';
import type { GlossaryTerm } from '../../src/core/gates/types.js';

const locked = (term: string, translations: Record<string, string> = {}, caseSensitive = false): GlossaryTerm => ({ term, caseSensitive, forbidden: false, translations });
const forbidden = (term: string, translations: Record<string, string> = {}, caseSensitive = false): GlossaryTerm => ({ term, caseSensitive, forbidden: true, translations });

const DASHBOARD = locked('Dashboard', { de: 'Übersicht', ja: 'ダッシュボード', th: 'แดชบอร์ด', fr: 'tableau de bord', pt: 'painel' });
const WORKSPACE = locked('Workspace', { 'zh-Hans': '工作区', de: 'Arbeitsbereich' });
const PARLANCE = locked('Parlance', {}, true);
const TERMS = locked('Terms of Service', { de: 'Nutzungsbedingungen' });
const TERMS_AND_CONDITIONS = locked('Terms & Conditions', { de: 'AGB' });
const SIGN_IN = locked('Sign in', { de: 'Anmelden' });
const NODE = locked('Node.js');
const PRO = locked('Pro', {}, true);
const CELL_PHONE = forbidden('cell phone', { de: 'Handy' });
const GLOSSARY = [DASHBOARD, WORKSPACE, PARLANCE, TERMS, TERMS_AND_CONDITIONS, SIGN_IN, NODE, PRO, CELL_PHONE];

const reasons = (targetLocale: string, source: string, target: string, glossary: readonly GlossaryTerm[] = GLOSSARY) =>
  checkGlossary({ sourceLocale: 'en', targetLocale, source, target, glossary }).map((f) => f.reason);

describe('checkGlossary', () => {
  it.each<[string, string, string, string]>([
    ['locked term translated', 'de', 'Open the dashboard', 'Übersicht öffnen'],
    ['source match ignores case', 'de', 'YOUR DASHBOARD', 'IHRE ÜBERSICHT'],
    ['no term in the source, nothing required', 'de', 'Open settings', 'Einstellungen öffnen'],
    ['a name without translations stays as it is', 'de', 'Sign in to Parlance', 'Bei Parlance anmelden'],
    ['a term inside a link target is not an occurrence', 'de', 'Go to <a href="/dashboard">your page</a>', 'Zu <a href="/dashboard">Ihrer Seite</a>'],
    ['a term inside a placeholder is not an occurrence', 'de', 'Hello {dashboard}', 'Hallo {dashboard}'],
    ['exact match only: "dashboards" is not "Dashboard"', 'de', 'Manage all dashboards', 'Alle Dashboards verwalten'],
    ['Japanese: a substring counts', 'ja', 'Open the dashboard', 'ダッシュボードを開く'],
    ['Chinese: a substring counts, zh-Hans translation', 'zh-Hans', 'Open workspace settings', '打开工作区设置'],
    ['Thai: a substring counts', 'th', 'Open your dashboard', 'เปิดแดชบอร์ดของคุณ'],
    ['a Latin name next to kana', 'ja', 'Welcome to Parlance', 'Parlanceへようこそ'],
    ['a Latin name with a Korean particle', 'ko', 'Try Parlance today', '오늘 Parlance를 사용해 보세요'],
    ['multi-word term across a line break in the source', 'de', 'Read the Terms of\nService', 'Lesen Sie die Nutzungsbedingungen'],
    ['multi-word term across a no-break space', 'de', 'Sign\u00a0in', 'Anmelden'],
    ['entities read as the characters they show', 'de', 'Accept the Terms &amp; Conditions', 'Akzeptieren Sie die AGB'],
    ['case-sensitive term: "pro rata" is not the plan "Pro"', 'de', 'Billed pro rata', 'Anteilig abgerechnet'],
    ['case-sensitive term kept', 'de', 'Upgrade to Pro', 'Auf Pro upgraden'],
    ['a term with regex characters', 'de', 'Built with Node.js', 'Mit Node.js erstellt'],
    ['forbidden term avoided', 'de', 'Call your cell phone', 'Rufen Sie Ihr Mobiltelefon an'],
    ['forbidden term inside a longer German word is not the word', 'de', 'Buy a phone case', 'Eine Handyhülle kaufen'],
    ['forbidden term inside a placeholder', 'de', 'Call {cell_phone}', 'Rufen Sie {Handy} an'],
    ['a regional locale uses the language entry', 'de-CH', 'Open the dashboard', 'Übersicht öffnen'],
    ['decomposed umlauts match', 'de', 'Open the dashboard', 'U\u0308bersicht öffnen'],
    ['a term in one ICU branch', 'de', '{count, plural, one {# dashboard} other {# dashboards}}', '{count, plural, one {# Übersicht} other {# Übersichten}}'],
  ])('passes: %s', (_name, locale, source, target) => {
    expect(reasons(locale, source, target)).toEqual([]);
  });

  it.each<[string, string, string, string, string[]]>([
    ['locked term left in English', 'de', 'Open the dashboard', 'Dashboard öffnen', ['locked term "Dashboard" must be translated as "Übersicht"']],
    ['locked term inflected', 'de', 'Open the dashboard', 'Zu den Übersichten', ['locked term "Dashboard" must be translated as "Übersicht"']],
    ['a name translated', 'de', 'Sign in to Parlance', 'Bei Parlanz anmelden', ['locked term "Parlance" must stay "Parlance" (it has no de translation)']],
    ['a case-sensitive name lower-cased', 'de', 'Sign in to Parlance', 'Bei parlance anmelden', ['locked term "Parlance" must stay "Parlance" (it has no de translation)']],
    ['the forbidden translation appears', 'de', 'Call your cell phone', 'Rufen Sie Ihr Handy an', ['forbidden term "Handy" appears']],
    ['the forbidden term appears untranslated', 'de', 'Call your cell phone', 'Rufen Sie Ihr Cell Phone an', ['forbidden term "cell phone" appears']],
    ['a forbidden term counts even where the source lacks it', 'de', 'Call us', 'Rufen Sie uns vom HANDY an', ['forbidden term "Handy" appears']],
    ['Japanese with another word for the term', 'ja', 'Open the dashboard', 'コントロールパネルを開く', ['locked term "Dashboard" must be translated as "ダッシュボード"']],
    ['multi-word translation broken up', 'de', 'Accept the Terms of Service', 'Akzeptieren Sie die Nutzungs-Bedingungen', ['locked term "Terms of Service" must be translated as "Nutzungsbedingungen"']],
    ['the translation only inside a tag attribute', 'de', 'Open the dashboard', '<a title="Übersicht">Öffnen</a>', ['locked term "Dashboard" must be translated as "Übersicht"']],
    ['a dot in a term is a dot', 'de', 'Built with Node.js', 'Mit NodeXjs erstellt', ['locked term "Node.js" must stay "Node.js" (it has no de translation)']],
    ['a regional locale falls back to the language', 'pt-BR', 'Open the dashboard', 'Abrir o dashboard', ['locked term "Dashboard" must be translated as "painel"']],
    ['several terms at once', 'de', 'Sign in to your Parlance workspace', 'Melden Sie sich bei Ihrem Parlanz-Bereich an', ['locked term "Workspace" must be translated as "Arbeitsbereich"', 'locked term "Parlance" must stay "Parlance" (it has no de translation)', 'locked term "Sign in" must be translated as "Anmelden"']],
  ])('fails: %s', (_name, locale, source, target, expected) => {
    expect(reasons(locale, source, target)).toEqual(expected);
  });

  it('checks each plural form against its source form', () => {
    const failures = checkGlossary({
      sourceLocale: 'en',
      targetLocale: 'de',
      source: '%d dashboards in your workspace',
      sourcePlurals: { one: '%d dashboard in your workspace', other: '%d dashboards in your workspace' },
      target: '%d Dashboards in Ihrem Arbeitsbereich',
      targetPlurals: { one: '%d Übersicht in Ihrem Arbeitsbereich', other: '%d Dashboards in Ihrem Arbeitsbereich' },
      glossary: GLOSSARY,
    });
    expect(failures).toEqual([]);
    const forbiddenInForm = checkGlossary({
      sourceLocale: 'en',
      targetLocale: 'de',
      source: 'Call %d cell phones',
      sourcePlurals: { one: 'Call %d cell phone', other: 'Call %d cell phones' },
      target: '%d Mobiltelefone anrufen',
      targetPlurals: { one: '%d Handy anrufen', other: '%d Mobiltelefone anrufen' },
      glossary: GLOSSARY,
    });
    expect(forbiddenInForm).toEqual([{ gate: 'glossary', reason: 'form "one": forbidden term "Handy" appears' }]);
  });

  it('passes any row when there is no glossary', () => {
    expect(checkGlossary({ sourceLocale: 'en', targetLocale: 'de', source: 'Open the dashboard', target: 'Dashboard öffnen' })).toEqual([]);
  });
});

describe('termsInSource', () => {
  it('lists the locked and forbidden terms a source contains, word-bounded', () => {
    expect(termsInSource('Sign in to your Parlance dashboard from your cell phone', GLOSSARY)).toEqual([DASHBOARD, PARLANCE, SIGN_IN, CELL_PHONE]);
    expect(termsInSource('Sign-in dashboards on a cellphone', GLOSSARY)).toEqual([]);
    expect(termsInSource('Visit <a href="https://parlance.dev/dashboard">us</a>', GLOSSARY)).toEqual([]);
  });
});

describe('containsTerm', () => {
  it.each<[string, string, boolean, boolean]>([
    ['Open the Dashboard', 'dashboard', false, true],
    ['Open the Dashboard', 'dashboard', true, false],
    ['Dashboards', 'Dashboard', false, false],
    ['My-Dashboard', 'Dashboard', false, true],
    ['Dashboard2', 'Dashboard', false, false],
    ['Café\u0301', 'Café', false, false],
    ['ダッシュボードを開く', 'ダッシュボード', false, true],
    ['The  Terms\tof Service', 'Terms of Service', false, true],
    ['<b>Dashboard</b>', 'Dashboard', false, true],
    ['{Dashboard}', 'Dashboard', false, false],
    ['Dashboard', '', false, false],
    ['Use 𠮷野家 today', '𠮷野家', false, true],
  ])('%s contains %s (case-sensitive %s): %s', (text, term, caseSensitive, expected) => {
    expect(containsTerm(text, term, caseSensitive)).toBe(expected);
  });
});

describe('termTranslation', () => {
  it('takes the exact tag, else the nearest parent, ignoring tag case', () => {
    const term = locked('Dashboard', { de: 'Übersicht', 'de-AT': 'Überblick', 'zh-hant': '儀表板' });
    expect(termTranslation(term, 'de-AT')).toBe('Überblick');
    expect(termTranslation(term, 'de-CH')).toBe('Übersicht');
    expect(termTranslation(term, 'zh-Hant-TW')).toBe('儀表板');
    expect(termTranslation(term, 'fr')).toBeUndefined();
  });
});
