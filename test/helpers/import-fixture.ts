/**
 * The project every importer test moves across: 520 keys in two source files (a flat JSON file and Android strings
 * with plurals), source en, targets de, ar (six plural forms) and pt-BR, reviewed and unreviewed translations, one
 * translation the placeholders gate refuses and two the glossary gate flags, notes, context, max lengths, tags,
 * translation memory and a glossary with a forbidden term. Each platform's mock serves it in that platform's shapes; each test checks the import against it.
 */
import type { FormatId, PluralForms } from '../../src/core/formats/codec.js';

export interface FixtureKey {
  /** A stable number, from which each platform's mock makes its own ids. */
  id: number;
  path: string;
  format: FormatId;
  key: string;
  source: string;
  plurals?: PluralForms;
  notes?: string;
  context?: string;
  maxLength?: number;
  tags: string[];
}

export interface FixtureTranslation {
  keyId: number;
  locale: string;
  text: string;
  plurals?: PluralForms;
  reviewed: boolean;
}

export interface ImportFixture {
  sourceLocale: string;
  targetLocales: string[];
  files: { path: string; format: FormatId }[];
  keys: FixtureKey[];
  translations: FixtureTranslation[];
  memory: { source: string; locale: string; text: string }[];
  glossary: { term: string; translations: Record<string, string>; forbidden: boolean; notes?: string }[];
}

const JSON_FILE = 'locales/en.json';
export const ANDROID_FILE = 'app/src/main/res/values/strings.xml';
export const FIXTURE_JSON_KEYS = 400;
export const FIXTURE_ANDROID_KEYS = 120;
/**
 * The JSON key whose source holds the glossary term 'Dashboard' and whose German and Arabic translations (neither
 * reviewed) leave the term's translation out: the glossary gate flags both, on the first import as on every later one.
 */
const GLOSSARY_KEY_INDEX = 2;
export const FIXTURE_GLOSSARY_KEY = 'screen0.item2';
/** Every eighth Android key is a plural. */
const isPlural = (i: number) => i % 8 === 3;

function arabicForms(text: string): PluralForms {
  return { zero: `لا ${text}`, one: `${text} واحد`, two: `${text} اثنان`, few: `{count} ${text} قليلة`, many: `{count} ${text} كثيرة`, other: `{count} ${text}` };
}

/** The same every time: the tests compare an import with it field by field. */
export function importFixture(): ImportFixture {
  const keys: FixtureKey[] = [];
  for (let i = 0; i < FIXTURE_JSON_KEYS; i++) {
    keys.push({
      id: i + 1,
      path: JSON_FILE,
      format: 'json',
      key: `screen${Math.floor(i / 20)}.item${i}`,
      source: i % 10 === 7 ? `Hello {name}, you have {count} messages (${i})` : i === GLOSSARY_KEY_INDEX ? 'Open the Dashboard' : `Item ${i} of the list`,
      ...(i % 5 === 0 ? { notes: `Shown on screen ${Math.floor(i / 20)}` } : {}),
      ...(i % 50 === 11 ? { context: 'verb' } : {}),
      ...(i % 25 === 4 ? { maxLength: 40 } : {}),
      tags: i % 3 === 0 ? ['web'] : i % 3 === 1 ? ['web', 'checkout'] : [],
    });
  }
  for (let i = 0; i < FIXTURE_ANDROID_KEYS; i++) {
    const plural = isPlural(i);
    keys.push({
      id: FIXTURE_JSON_KEYS + i + 1,
      path: ANDROID_FILE,
      format: 'android_xml',
      key: plural ? `items_count_${i}` : `label_${i}`,
      source: plural ? '{count} items' : `Label ${i}`,
      ...(plural ? { plurals: { one: '{count} item', other: '{count} items' } } : {}),
      ...(i % 6 === 0 ? { notes: `Button label ${i}` } : {}),
      tags: ['android'],
    });
  }

  const translations: FixtureTranslation[] = [];
  for (const k of keys) {
    const n = k.id;
    // German: every key; two in three reviewed.
    translations.push(
      k.plurals
        ? { keyId: n, locale: 'de', text: '{count} Elemente', plurals: { one: '{count} Element', other: '{count} Elemente' }, reviewed: n % 3 !== 0 }
        : { keyId: n, locale: 'de', text: k.source.startsWith('Hello') ? `Hallo {name}, Sie haben {count} Nachrichten (${n})` : `DE ${k.source}`, reviewed: n % 3 !== 0 },
    );
    // Arabic: four keys in five, plurals in six forms; half reviewed.
    if (n % 5 !== 0) {
      translations.push(
        k.plurals
          ? { keyId: n, locale: 'ar', text: `{count} عناصر`, plurals: arabicForms('عناصر'), reviewed: n % 2 === 0 }
          : { keyId: n, locale: 'ar', text: k.source.startsWith('Hello') ? `مرحبا {name}، لديك {count} رسائل (${n})` : `AR ${k.source}`, reviewed: n % 2 === 0 },
      );
    }
    // Brazilian Portuguese: half the keys, none reviewed.
    if (n % 2 === 0 && !k.plurals) translations.push({ keyId: n, locale: 'pt-BR', text: `PT ${k.source}`, reviewed: false });
  }
  // A translation that drops a placeholder: the placeholders gate refuses it, and the import keeps it flagged.
  const broken = translations.find((t) => t.locale === 'de' && keys[t.keyId - 1]!.source.startsWith('Hello'))!;
  broken.text = 'Hallo, Sie haben Nachrichten';

  const memory = Array.from({ length: 50 }, (_, i) => [
    { source: `Memory sentence ${i}`, locale: 'de', text: `Gedächtnissatz ${i}` },
    { source: `Memory sentence ${i}`, locale: 'ar', text: `جملة الذاكرة ${i}` },
  ]).flat();
  const glossary: ImportFixture['glossary'] = [
    { term: 'Dashboard', translations: { de: 'Übersicht', ar: 'لوحة التحكم' }, forbidden: false, notes: 'The home page' },
    { term: 'Checkout', translations: { de: 'Kasse', 'pt-BR': 'Finalizar compra' }, forbidden: false },
    { term: 'cell phone', translations: { de: 'Handy' }, forbidden: true, notes: 'Say mobile phone' },
    { term: 'Parlance', translations: {}, forbidden: false, notes: 'Product name, never translated' },
    { term: 'Inbox', translations: { de: 'Posteingang', ar: 'البريد الوارد', 'pt-BR': 'Caixa de entrada' }, forbidden: false },
  ];
  return {
    sourceLocale: 'en',
    targetLocales: ['de', 'ar', 'pt-BR'],
    files: [
      { path: JSON_FILE, format: 'json' },
      { path: ANDROID_FILE, format: 'android_xml' },
    ],
    keys,
    translations,
    memory,
    glossary,
  };
}
