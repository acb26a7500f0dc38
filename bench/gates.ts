/**
 * Gate benchmark: runGates over 100,000 realistic translated rows with a 50-term glossary, beside the machine's floor
 * for the same rows measured in the same run. Prints figures; asserts nothing.
 */
import { pathToFileURL } from 'node:url';
import { best } from './measure.js';
import { runGates, type GateInput, type GlossaryTerm } from '../src/core/gates/index.js';
import type { PluralForms } from '../src/core/formats/codec.js';

type Locale = 'de' | 'fr' | 'pl' | 'ja';
const LOCALES: readonly Locale[] = ['de', 'fr', 'pl', 'ja'];

/** One source string and its translations; `{i}` in a template becomes the row number, so no two rows are equal. */
interface Template {
  source: string;
  targets: Record<Locale, string>;
}
interface PluralTemplate {
  source: PluralForms;
  targets: Record<Locale, PluralForms>;
}

const PLAIN: Template[] = [
  {
    source: 'Open the dashboard to see report #{i}',
    targets: { de: 'Öffnen Sie die Übersicht, um Bericht #{i} zu sehen', fr: 'Ouvrez le tableau de bord pour voir le rapport n°{i}', pl: 'Otwórz pulpit, aby zobaczyć raport nr {i}', ja: 'レポート #{i} を見るにはダッシュボードを開いてください' },
  },
  {
    source: 'Your workspace {i} was archived',
    targets: { de: 'Ihr Arbeitsbereich {i} wurde archiviert', fr: 'Votre espace de travail {i} a été archivé', pl: 'Twój obszar roboczy {i} został zarchiwizowany', ja: 'ワークスペース {i} はアーカイブされました' },
  },
  {
    source: 'Sign in to Parlance (session {i})',
    targets: { de: 'Bei Parlance anmelden (Sitzung {i})', fr: 'Se connecter à Parlance (session {i})', pl: 'Zaloguj się do Parlance (sesja {i})', ja: 'Parlance にサインイン (セッション {i})' },
  },
];
const PRINTF: Template[] = [
  {
    source: 'Copied %d files to %@ ({i})',
    targets: { de: '%d Dateien nach %@ kopiert ({i})', fr: '%d fichiers copiés vers %@ ({i})', pl: 'Skopiowano %d plików do %@ ({i})', ja: '%d 個のファイルを %@ にコピーしました ({i})' },
  },
  {
    source: 'Welcome %1$s! You have %2$d new messages in inbox {i}.',
    targets: {
      de: 'Willkommen %1$s! Sie haben %2$d neue Nachrichten im Posteingang {i}.',
      fr: 'Bienvenue %1$s ! Vous avez %2$d nouveaux messages dans la boîte {i}.',
      pl: 'Witaj %1$s! Masz %2$d nowych wiadomości w skrzynce {i}.',
      ja: 'ようこそ %1$s さん! 受信トレイ {i} に %2$d 件の新着メッセージがあります。',
    },
  },
  {
    source: 'Battery at %1$d%% on device {i}',
    targets: { de: 'Akku bei %1$d %% auf Gerät {i}', fr: 'Batterie à %1$d %% sur l’appareil {i}', pl: 'Bateria %1$d%% na urządzeniu {i}', ja: 'デバイス {i} のバッテリー残量 %1$d%%' },
  },
];
const ICU: Template[] = [
  {
    source: '{count, plural, =0 {No files in project {i}} one {# file in project {i}} other {# files in project {i}}}',
    targets: {
      de: '{count, plural, =0 {Keine Dateien in Projekt {i}} one {# Datei in Projekt {i}} other {# Dateien in Projekt {i}}}',
      fr: '{count, plural, =0 {Aucun fichier dans le projet {i}} one {# fichier dans le projet {i}} many {# de fichiers dans le projet {i}} other {# fichiers dans le projet {i}}}',
      pl: '{count, plural, =0 {Brak plików w projekcie {i}} one {# plik w projekcie {i}} few {# pliki w projekcie {i}} many {# plików w projekcie {i}} other {# pliku w projekcie {i}}}',
      ja: '{count, plural, =0 {プロジェクト {i} にファイルはありません} other {プロジェクト {i} に # 個のファイル}}',
    },
  },
  {
    source: '{gender, select, female {She shared {count, plural, one {# dashboard} other {# dashboards}}} other {They shared {count, plural, one {# dashboard} other {# dashboards}}}} ({i})',
    targets: {
      de: '{gender, select, female {Sie hat {count, plural, one {# Übersicht} other {# Übersichten}} geteilt} other {Sie haben {count, plural, one {# Übersicht} other {# Übersichten}} geteilt}} ({i})',
      fr: '{gender, select, female {Elle a partagé {count, plural, one {# tableau de bord} many {# de tableaux de bord} other {# tableaux de bord}}} other {Ils ont partagé {count, plural, one {# tableau de bord} many {# de tableaux de bord} other {# tableaux de bord}}}} ({i})',
      pl: '{gender, select, female {Udostępniła {count, plural, one {# pulpit} few {# pulpity} many {# pulpitów} other {# pulpitu}}} other {Udostępnili {count, plural, one {# pulpit} few {# pulpity} many {# pulpitów} other {# pulpitu}}}} ({i})',
      ja: '{gender, select, female {彼女は {count, plural, other {# 個のダッシュボード}} を共有しました} other {{count, plural, other {# 個のダッシュボード}} が共有されました}} ({i})',
    },
  },
];
const HTML: Template[] = [
  {
    source: 'By signing up you accept the <a href="/terms">Terms of Service</a> and <b>privacy policy</b> ({i}).',
    targets: {
      de: 'Mit der Registrierung akzeptieren Sie die <a href="/terms">Nutzungsbedingungen</a> und die <b>Datenschutzerklärung</b> ({i}).',
      fr: 'En vous inscrivant, vous acceptez les <a href="/terms">conditions d’utilisation</a> et la <b>politique de confidentialité</b> ({i}).',
      pl: 'Rejestrując się, akceptujesz <a href="/terms">Warunki korzystania</a> i <b>politykę prywatności</b> ({i}).',
      ja: '登録すると<a href="/terms">利用規約</a>と<b>プライバシーポリシー</b>に同意したことになります ({i})。',
    },
  },
  {
    source: '<b>Hello!</b> <xliff:g id="app">Parlance</xliff:g> has {{count}} updates for {{user.name}} ({i})',
    targets: {
      de: '<b>Hallo!</b> <xliff:g id="app">Parlance</xliff:g> hat {{count}} Updates für {{user.name}} ({i})',
      fr: '<b>Bonjour !</b> <xliff:g id="app">Parlance</xliff:g> a {{count}} mises à jour pour {{user.name}} ({i})',
      pl: '<b>Cześć!</b> <xliff:g id="app">Parlance</xliff:g> ma {{count}} aktualizacji dla {{user.name}} ({i})',
      ja: '<b>こんにちは!</b> <xliff:g id="app">Parlance</xliff:g> には {{user.name}} さん向けの更新が {{count}} 件あります ({i})',
    },
  },
];
const PLURAL_KEYS: PluralTemplate[] = [
  {
    source: { one: '%d dog in kennel {i}', other: '%d dogs in kennel {i}' },
    targets: {
      de: { one: '%d Hund im Zwinger {i}', other: '%d Hunde im Zwinger {i}' },
      fr: { one: '%d chien au chenil {i}', many: '%d de chiens au chenil {i}', other: '%d chiens au chenil {i}' },
      pl: { one: '%d pies w kojcu {i}', few: '%d psy w kojcu {i}', many: '%d psów w kojcu {i}', other: '%d psa w kojcu {i}' },
      ja: { other: '犬舎 {i} に %d 匹の犬' },
    },
  },
  {
    source: { one: ':count workspace member', other: ':count workspace members' },
    targets: {
      de: { one: ':count Mitglied des Arbeitsbereichs', other: ':count Mitglieder des Arbeitsbereichs' },
      fr: { one: ':count membre de l’espace de travail', many: ':count de membres de l’espace de travail', other: ':count membres de l’espace de travail' },
      pl: { one: ':count członek obszaru roboczego', few: ':count członków obszaru roboczego', many: ':count członków obszaru roboczego', other: ':count członka obszaru roboczego' },
      ja: { other: 'ワークスペースのメンバー :count 人' },
    },
  },
];

// Terms a SaaS glossary holds; none of them occurs in the rows, so they cost matching time without failing rows.
const OTHER_TERMS = [
  'Billing', 'Invoice', 'Subscription', 'Team', 'Owner', 'Admin', 'Webhook', 'API key', 'Token', 'Upload',
  'Download', 'Export', 'Import', 'Trash', 'Notification', 'Settings', 'Profile', 'Account', 'Password', 'Two-factor authentication',
  'Sign out', 'Checkout', 'Cart', 'Order', 'Refund', 'Coupon', 'Discount', 'Analytics', 'Funnel', 'Segment',
  'Campaign', 'Audience', 'Template', 'Integration', 'Changelog', 'Roadmap', 'Sprint', 'Backlog', 'Milestone', 'Pull request',
  'Deployment', 'Environment', 'Secret', 'Audit log', 'Single sign-on',
];

/** 50 terms: three locked ones the rows use (translated, or a name kept as is), one forbidden, and the rest unused. */
function glossary(): GlossaryTerm[] {
  return [
    { term: 'Dashboard', caseSensitive: false, forbidden: false, translations: { de: 'Übersicht', fr: 'tableau de bord', pl: 'pulpit', ja: 'ダッシュボード' } },
    { term: 'Terms of Service', caseSensitive: false, forbidden: false, translations: { de: 'Nutzungsbedingungen', fr: 'conditions d’utilisation', pl: 'Warunki korzystania', ja: '利用規約' } },
    { term: 'Parlance', caseSensitive: true, forbidden: false, translations: {} },
    { term: 'cell phone', caseSensitive: false, forbidden: true, translations: { de: 'Handy' } },
    ...OTHER_TERMS.map((term, i) => ({ term, caseSensitive: i % 7 === 0, forbidden: i % 11 === 0, translations: { de: `${term} (de)`, fr: `${term} (fr)` } })),
  ];
}

const fill = (text: string, i: number): string => text.replaceAll('{i}', String(i));
const fillForms = (forms: PluralForms, i: number): PluralForms => Object.fromEntries(Object.entries(forms).map(([c, t]) => [c, fill(t, i)]));

/**
 * One row as the batch runner hands it to the gates (`gateRow` in server/services/quality/translate-rows.ts): every
 * field present, in the same order. (Spreading a shared base instead gave nearly every row its own hidden class, which
 * made each property read of the gates a megamorphic lookup that no caller pays.)
 */
function row(targetLocale: Locale, source: string, sourcePlurals: PluralForms | undefined, target: string, targetPlurals: PluralForms | undefined, maxLength: number | undefined, glossary: GlossaryTerm[]): GateInput {
  return { sourceLocale: 'en', targetLocale, source, sourcePlurals, target, targetPlurals, maxLength, glossary };
}

/**
 * `count` rows: kinds in turn (plain, printf, ICU, HTML, plural key), each round of five in the next locale; one
 * round in ten is damaged the way engines damage rows, one in twenty gets a tight budget, half carry a budget at all.
 */
export function benchRows(count: number): GateInput[] {
  const terms = glossary();
  const kinds = [PLAIN, PRINTF, ICU, HTML];
  const rows: GateInput[] = [];
  for (let i = 0; i < count; i++) {
    const round = Math.floor(i / 5);
    const locale = LOCALES[round % LOCALES.length] as Locale;
    const damaged = round % 10 === 3;
    const maxLength = round % 20 === 7 ? 40 : round % 2 === 0 ? 120 : undefined;
    const kind = i % 5;
    if (kind === 4) {
      const t = PLURAL_KEYS[Math.floor(round / LOCALES.length) % PLURAL_KEYS.length] as PluralTemplate;
      const sourcePlurals = fillForms(t.source, i);
      // A damaged answer lacks its "one" form.
      const targetPlurals = fillForms(damaged ? Object.fromEntries(Object.entries(t.targets[locale]).filter(([c]) => c !== 'one')) : t.targets[locale], i);
      rows.push(row(locale, sourcePlurals.other ?? '', sourcePlurals, targetPlurals.other ?? '', targetPlurals, maxLength, terms));
      continue;
    }
    const group = kinds[kind] as Template[];
    const t = group[Math.floor(round / LOCALES.length) % group.length] as Template;
    const target = fill(t.targets[locale], i);
    rows.push(row(locale, fill(t.source, i), undefined, damaged ? target.replace(/%d|%1\$s|\{\{count\}\}|\{count, plural|<\/b>|Parlance/, '') : target, undefined, maxLength, terms));
  }
  return rows;
}

const RUNS = 3;
// The placeholder syntaxes of the rows, in one pattern: braces, printf conversions, tags, Laravel names, `${…}`.
const FLOOR_PLACEHOLDER = /\{[^{}]*\}|%(?:\d+\$)?[-+0#]*\d*(?:\.\d+)?[a-zA-Z@%]|<\/?[A-Za-z][^>]*>|:[A-Za-z]\w*|\$\{[^}]*\}/g;

/**
 * The floor: the work no gate implementation can skip on the same rows. Every text of a row (source and translation,
 * or each plural form) is read once by one precompiled placeholder pattern, and each glossary term is looked for once
 * with `includes`, in the lower-cased source (a locked term) or translation (a forbidden one). No comparison, no
 * reasons, no word boundaries: what is left is reading the text. Returns a count, so nothing is optimised away.
 */
function floorPass(inputs: readonly GateInput[]): number {
  let found = 0;
  const terms = (inputs[0]?.glossary ?? []).map((t) => ({ text: t.term.toLowerCase(), forbidden: t.forbidden }));
  for (const input of inputs) {
    const texts = input.sourcePlurals && input.targetPlurals ? [...Object.values(input.sourcePlurals), ...Object.values(input.targetPlurals)] : [input.source, input.target];
    for (const text of texts) {
      FLOOR_PLACEHOLDER.lastIndex = 0;
      while (FLOOR_PLACEHOLDER.test(text)) found++;
    }
    const source = input.source.toLowerCase();
    const target = input.target.toLowerCase();
    for (const term of terms) if ((term.forbidden ? target : source).includes(term.text)) found++;
  }
  return found;
}

/**
 * Times runGates over `rows` generated rows, best of three passes as the other benchmarks measure (the passes only warm
 * the engine: the gates remember no row, only tokens, ICU structure and the compiled glossary), and the floor the same way.
 */
export function benchGates(rows = 100_000): { rows: number; ms: number; floorMs: number; outcomes: Record<string, number> } {
  const inputs = benchRows(rows);
  let outcomes: Record<string, number> = {};
  const ms = best(RUNS, () => {
    outcomes = { passed: 0, flagged: 0, refused: 0 };
    for (const input of inputs) {
      const { outcome } = runGates(input);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
  });
  let found = 0;
  const floorMs = best(RUNS, () => {
    found = floorPass(inputs);
  });
  const rate = (time: number): string => `${Math.round(rows / (time / 1000)).toLocaleString('en')} rows/s`;
  console.log(`gates: ${rows.toLocaleString('en')} rows in ${ms.toFixed(0)} ms (${rate(ms)}), best of ${RUNS}`);
  console.log(`  floor: ${floorMs.toFixed(0)} ms (${rate(floorMs)}): one placeholder pattern over every text, includes() per glossary term (${found} hits)`);
  console.log(`  ratio: ${(ms / floorMs).toFixed(1)}× the floor`);
  console.log(`  outcomes: ${Object.entries(outcomes).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  return { rows, ms, floorMs, outcomes };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) benchGates(Number(process.env.BENCH_GATE_ROWS ?? 100_000));
