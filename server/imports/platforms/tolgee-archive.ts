/** Reads Tolgee's export zip (JSON files per language and namespace, with a TM's TMX and a glossary's CSV beside them) and Tolgee's ICU plural text. */
import { PLURAL_CATEGORIES, type PluralForms } from '../../../src/core/formats/codec.js';
import { foldIcuPlural, parseIcuPlural } from '../../../src/core/formats/icu-plural.js';
import { jsonCodec } from '../../../src/core/formats/json.js';
import { scanCsv } from '../../../src/core/formats/csv-scan.js';
import { parseTmx } from '../../../src/core/tmx.js';
import type { ImportChunk, ImportedKey, ImportedMemoryUnit, ImportedTerm, ImportedTranslation, ReaderContext } from '../import-model.js';
import { checkedImportPath, ImportSourceError } from '../import-model.js';
import { readExportZip } from '../read-export-zip.js';

/** A Tolgee value read for the model: plain text, or a plural's forms by CLDR category. */
export interface TolgeeValue {
  text: string;
  plurals?: PluralForms;
  /** Why part of the value could not come across (an `=0` branch, text around the plural). */
  problem?: string;
}

/**
 * Replaces ICU's `#` (the plural's number) with `{argument}`: a form taken out of its plural has no number to stand
 * for, and Parlance's plural forms name the count as a placeholder. A quoted `'#'` is literal text and stays.
 */
function numberSignToArgument(message: string, argument: string): string {
  let out = '';
  for (let i = 0; i < message.length; i++) {
    const c = message[i]!;
    if (c === "'") {
      const next = message[i + 1];
      if (next === "'") {
        out += "''";
        i++;
        continue;
      }
      if (next === '{' || next === '}' || next === '#' || next === '|') {
        const close = message.indexOf("'", i + 2);
        const end = close < 0 ? message.length : close + 1;
        out += message.slice(i, end);
        i = end - 1;
        continue;
      }
    }
    out += c === '#' ? `{${argument}}` : c;
  }
  return out;
}

/**
 * Turns a Tolgee value into the model's: Tolgee keeps a plural key's text as one ICU message
 * (`{count, plural, one {# item} other {# items}}`), which becomes forms by CLDR category. `plural` is the key's own
 * flag (the API's `keyIsPlural`); the export has none, so there any value that is one whole ICU plural counts as one.
 */
export function tolgeeValue(text: string, plural: boolean | 'detect'): TolgeeValue {
  if (plural === false) return { text };
  const parsed = parseIcuPlural(text);
  const folded = parsed && foldIcuPlural(parsed);
  if (!parsed || !folded || parsed.forms.other === undefined) {
    return plural === 'detect' ? { text } : { text, problem: 'is marked plural in Tolgee but its text is not one ICU plural; imported as plain text' };
  }
  if (plural === 'detect' && (parsed.prefix !== '' || parsed.suffix !== '')) return { text };
  const forms: PluralForms = {};
  for (const category of PLURAL_CATEGORIES) {
    const message = folded.forms[category];
    if (message !== undefined) forms[category] = parsed.offset === undefined ? numberSignToArgument(message, parsed.argument) : message;
  }
  const exact = Object.keys(folded.exact);
  const value: TolgeeValue = { text: forms.other!, plurals: forms };
  if (exact.length > 0) value.problem = `has exact-number branches (${exact.join(', ')}) that CLDR plural forms cannot hold; they were left out`;
  return value;
}

/** What a resumed archive read continues from: the files (in name order) already written. */
interface ArchiveCheckpoint {
  filesDone: number;
}

const GLOSSARY_HEADER = ['term', 'description', 'translatable', 'casesensitive', 'abbreviation', 'forbidden'];

/** One language file of the export: `en.json`, or `<namespace>/en.json` with the default `{namespace}/{languageTag}.{extension}` template. */
interface LanguageFile {
  name: string;
  locale: string;
  namespace: string;
  values: Map<string, string>;
}

function languageFile(name: string, bytes: Uint8Array): LanguageFile {
  const parts = name.split('/');
  const locale = parts.pop()!.replace(/\.json$/i, '');
  let entries;
  try {
    entries = jsonCodec.parse(bytes);
  } catch (error) {
    throw new ImportSourceError(`The Tolgee export's file ${name} is not valid JSON: ${(error as Error).message}. Export again from Tolgee (Export → JSON) and upload the zip as it is.`);
  }
  return { name, locale, namespace: parts.join('/'), values: new Map(entries.map((e) => [e.key, e.source])) };
}

/**
 * The project's base language, which the export does not name: a TMX beside it names its source language (a Tolgee
 * TM shares its project's base language), else the language with the most keys (the base text is the one every key
 * has), with English first among equals as the commonest base.
 */
function baseLanguage(files: LanguageFile[], tmxSource: string | undefined): { locale: string; guessed: boolean } {
  const locales = [...new Set(files.map((f) => f.locale))];
  if (tmxSource) {
    const match = locales.find((l) => l.toLowerCase() === tmxSource.toLowerCase());
    if (match) return { locale: match, guessed: false };
  }
  const counts = new Map<string, number>();
  for (const f of files) counts.set(f.locale, (counts.get(f.locale) ?? 0) + f.values.size);
  const english = (l: string) => (l === 'en' || l.startsWith('en-') ? 0 : 1);
  const [first] = locales.sort((a, b) => counts.get(b)! - counts.get(a)! || english(a) - english(b) || a.localeCompare(b));
  return { locale: first!, guessed: true };
}

function glossaryTerms(name: string, bytes: Uint8Array): ImportedTerm[] | undefined {
  const records = scanCsv(bytes).records.map((r) => r.fields.map((f) => f.value));
  const header = records[0]?.map((h) => h.trim());
  if (!header || GLOSSARY_HEADER.some((h, i) => header[i]?.toLowerCase() !== h)) return undefined;
  const languages = header.slice(GLOSSARY_HEADER.length);
  const terms: ImportedTerm[] = [];
  for (const row of records.slice(1)) {
    const [term = '', description = '', translatable = '', caseSensitive = '', , forbidden = ''] = row;
    if (term.trim() === '') continue;
    const translations: Record<string, string> = {};
    // Tolgee writes a non-translatable term's own text into every language column: those are not translations.
    if (translatable.toLowerCase() !== 'no') {
      languages.forEach((tag, i) => {
        const text = row[GLOSSARY_HEADER.length + i];
        if (text) translations[tag] = text;
      });
    }
    terms.push({ term, translations, forbidden: forbidden.toLowerCase() === 'yes', caseSensitive: caseSensitive.toLowerCase() === 'yes', ...(description ? { notes: description } : {}) });
  }
  if (records.length > 1 && terms.length === 0) throw new ImportSourceError(`The Tolgee glossary export ${name} has no terms in its 'term' column.`);
  return terms;
}

/**
 * Reads the zip Tolgee's export makes (format JSON: `<lang>.json` or `<namespace>/<lang>.json`, nested by '.'),
 * a single exported `.json`, `.tmx` (a TM's export) or `.csv` (a glossary's export), or a zip holding them together.
 * What the export cannot carry is left out: review states (all import unreviewed), descriptions, tags, character
 * limits, and which file of the repository a key belongs to (Tolgee never knew it).
 */
export async function readTolgeeArchive(bytes: Uint8Array, fileName: string, context: ReaderContext): Promise<void> {
  let files: Record<string, Uint8Array>;
  if (/\.zip$/i.test(fileName) || (bytes[0] === 0x50 && bytes[1] === 0x4b)) {
    // Only JSON, TMX and CSV are parsed: no archive in it is opened.
    files = readExportZip(bytes, fileName, context.archiveLimits, (reason) => `The Tolgee export ${fileName} is not a readable zip: ${reason}.`).entries;
  } else files = { [fileName.split(/[\\/]/).pop()!]: bytes };

  const refused: ImportChunk[] = [];
  const names = Object.keys(files)
    .filter((n) => !n.endsWith('/') && !n.startsWith('__MACOSX/') && checkedImportPath(n, refused, `an entry of ${fileName}`) !== undefined)
    .sort();
  const json = names.filter((n) => /\.json$/i.test(n)).map((n) => languageFile(n, files[n]!));
  const tmx = names.filter((n) => /\.tmx$/i.test(n)).map((n) => {
    try {
      return { name: n, doc: parseTmx(files[n]!) };
    } catch (error) {
      throw new ImportSourceError(`The TMX file ${n} in the Tolgee export cannot be read: ${(error as Error).message}.`);
    }
  });
  const csv = names.filter((n) => /\.csv$/i.test(n));
  const other = names.filter((n) => !/\.(json|tmx|csv)$/i.test(n));
  if (json.length + tmx.length + csv.length === 0) {
    throw new ImportSourceError(`${fileName} holds no file a Tolgee export makes (JSON per language, a TM's .tmx, a glossary's .csv); found ${names.slice(0, 5).join(', ') || 'nothing'}. Export the project from Tolgee as JSON.`);
  }

  const tmxSource = tmx.find((t) => t.doc.sourceLocale)?.doc.sourceLocale;
  const base = json.length > 0 ? baseLanguage(json, tmxSource) : { locale: tmxSource ?? '', guessed: false };
  const targets = [...new Set(json.map((f) => f.locale))].filter((l) => l !== base.locale);
  for (const t of tmx) for (const u of t.doc.units) for (const v of u.variants) if (v.locale.toLowerCase() !== base.locale.toLowerCase() && !targets.includes(v.locale)) targets.push(v.locale);

  // Glossaries first (every translation is then gated against the whole glossary), then source files: a key is
  // written before its translations.
  const steps: { name: string; run: () => ImportChunk[] }[] = [];
  for (const n of csv) {
    steps.push({
      name: n,
      run: () => {
        const terms = glossaryTerms(n, files[n]!);
        return terms ? [{ kind: 'glossary', terms }] : [{ kind: 'warning', message: `${n} in the Tolgee export is not a Tolgee glossary export (its header is not term,description,translatable,casesensitive,abbreviation,forbidden,…); it was not read.` }];
      },
    });
  }

  for (const f of [...json].sort((a, b) => Number(b.locale === base.locale) - Number(a.locale === base.locale))) {
    steps.push({ name: f.name, run: () => languageChunks(f, f.locale === base.locale) });
  }
  for (const t of tmx) {
    steps.push({
      name: t.name,
      run: () => {
        const source = t.doc.sourceLocale ?? base.locale;
        const units: ImportedMemoryUnit[] = [];
        for (const u of t.doc.units) {
          const src = u.variants.find((v) => v.locale.toLowerCase() === source.toLowerCase());
          if (!src) continue;
          for (const v of u.variants) if (v !== src) units.push({ sourceLocale: source, locale: v.locale, source: src.text, text: v.text });
        }
        return [{ kind: 'memory', units }];
      },
    });
  }
  const start = (context.checkpoint as ArchiveCheckpoint | undefined)?.filesDone ?? 0;
  for (let i = start; i < steps.length; i++) {
    context.signal.throwIfAborted();
    context.progress(`reading ${steps[i]!.name}`, i, steps.length);
    const chunks = steps[i]!.run();
    if (i === start) {
      const head: ImportChunk[] = [...refused];
      if (base.locale) head.push({ kind: 'locales', source: base.locale, targets });
      if (base.guessed && json.length > 0) head.push({ kind: 'warning', message: `The Tolgee export does not name the project's base language; '${base.locale}' was taken as the source because it holds the most keys. Import through the API, or add the project's TM export (.tmx) to the zip, to be sure.` });
      if (json.some((f) => f.namespace !== '')) head.push({ kind: 'warning', message: 'The Tolgee export has namespaces; Tolgee does not know which repository file a namespace stands for, so keys were imported without a file, and keys of the same name in two namespaces became one.' });
      for (const n of other) head.push({ kind: 'warning', message: `${n} in the Tolgee export was not read: only JSON exports, a TM's .tmx and a glossary's .csv are.` });
      chunks.unshift(...head);
    }
    await context.emit(chunks, { filesDone: i + 1 } satisfies ArchiveCheckpoint);
  }
}

function languageChunks(file: LanguageFile, isSource: boolean): ImportChunk[] {
  const keys: ImportedKey[] = [];
  const rows: ImportedTranslation[] = [];
  const warnings: ImportChunk[] = [];
  for (const [key, raw] of file.values) {
    const value = tolgeeValue(raw, 'detect');
    const ref = `${file.name}#${key}`;
    if (value.problem) warnings.push({ kind: 'warning', message: `Tolgee key '${key}' in ${file.name} ${value.problem}.`, ref });
    if (isSource) keys.push({ ref, path: '', key, source: value.text, ...(value.plurals ? { plurals: value.plurals } : {}) });
    else rows.push({ ref, path: '', key, locale: file.locale, text: value.text, ...(value.plurals ? { plurals: value.plurals } : {}), reviewed: false });
  }
  return [isSource ? { kind: 'keys', keys } : { kind: 'translations', rows }, ...warnings];
}
