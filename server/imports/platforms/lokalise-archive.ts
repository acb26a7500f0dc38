/**
 * Reads the zip of Lokalise's Download (files/download, original filenames, directory prefix `%LANG_ISO%/`) into the
 * import model: source keys from the base language's files, translations from the others, memory from TMX files.
 */
import { z } from 'zod';
import { ArchiveLimitError } from '../../../src/core/archive-limits.js';
import { PLURAL_CATEGORIES, type Entry, type FormatId, type PluralForms } from '../../../src/core/formats/codec.js';
import { FileUnparsableError } from '../../../src/core/formats/file-unparsable-error.js';
import { detectFormat, getCodec } from '../../../src/core/formats/index.js';
import { checkLocale } from '../../../src/core/locales/locales.js';
import { parseTmx } from '../../../src/core/tmx.js';
import { checkedImportPath, pathRefusal, type ImportChunk, type ImportedMemoryUnit, type ReaderContext } from '../import-model.js';
import { archiveTooLarge, readExportZip } from '../read-export-zip.js';

/** Files already written, in the archive's sorted order: a resumed read goes on after them. */
const checkpointSchema = z.object({ filesDone: z.number().int().min(0) });

/** A translation file of the bundle: its language, and its path with that language's code in place of `%LANG_ISO%`. */
interface BundleFile {
  name: string;
  bytes: Uint8Array;
  language: string;
  /** The path inside the language's folder with the language code replaced by '\0', to put the base code back in. */
  template: string;
}

/** Lokalise's `lang_iso` codes (`pt_BR`, `zh_Hant_TW`) as BCP-47, to recognise a folder or file name as a language. */
const isLanguageCode = (segment: string) => /^[A-Za-z]{2,3}(?:[_-][A-Za-z0-9]{2,8})*$/.test(segment) && checkLocale(segment.replaceAll('_', '-')).ok;
const sameLanguage = (a: string, b: string) => a.replaceAll('_', '-').toLowerCase() === b.replaceAll('_', '-').toLowerCase();
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The language of a bundle file: the first folder with directory prefix `%LANG_ISO%/` (needed as soon as a filename
 * has no language in it, such as Android's values/strings.xml), else a name part such as `locale/%LANG_ISO%.json`.
 */
function bundleFile(name: string, bytes: Uint8Array): BundleFile | undefined {
  const segments = name.split('/');
  let language: string | undefined;
  let rest = name;
  if (segments.length > 1 && isLanguageCode(segments[0]!)) {
    language = segments[0]!;
    rest = segments.slice(1).join('/');
  } else {
    language = name.split(/[/.]/).reverse().find(isLanguageCode) ?? name.split(/[/._-]/).reverse().find(isLanguageCode);
  }
  if (!language) return undefined;
  const template = rest.replace(new RegExp(`(^|[/._-])${escapeRegExp(language)}(?=$|[/._-])`, 'g'), '$1\u0000');
  return { name, bytes, language, template };
}

function formatOf(name: string, bytes: Uint8Array): FormatId | undefined {
  if (/\.json$/i.test(name)) return 'json';
  if (/\.xml$/i.test(name)) return 'android_xml';
  return detectFormat(name, bytes);
}

/** A plural key's translation: Lokalise gives the forms as a JSON string, `{"one":"…","other":"…"}`; empty forms are unused. */
export function pluralForms(text: string): PluralForms | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const forms: PluralForms = {};
  for (const category of PLURAL_CATEGORIES) {
    const value = (parsed as Record<string, unknown>)[category];
    if (typeof value === 'string' && value !== '') forms[category] = value;
  }
  return Object.keys(forms).length > 0 ? forms : undefined;
}

/** An entry's value: Lokalise writes plural keys into JSON as a JSON string of forms (plural format `json_string`). */
function valueOf(entry: Entry, format: FormatId) {
  if (entry.plurals) return { text: entry.source, plurals: entry.plurals };
  const plurals = format === 'json' && entry.source.startsWith('{') ? pluralForms(entry.source) : undefined;
  return plurals ? { text: plurals.other ?? entry.source, plurals } : { text: entry.source };
}

function memoryOf(name: string, bytes: Uint8Array, fallbackSource: string | undefined): { units: ImportedMemoryUnit[]; source?: string; warning?: string } {
  let document;
  try {
    document = parseTmx(bytes, fallbackSource ? { sourceLocale: fallbackSource } : {});
  } catch (error) {
    if (error instanceof FileUnparsableError) return { units: [], warning: `${name} is not a TMX file the import can read (line ${error.line}, column ${error.column}: ${error.message}); its memory is not imported.` };
    throw error;
  }
  const source = document.sourceLocale;
  if (!source) return { units: [], warning: `${name} names no source language (srclang), so its memory is not imported.` };
  const units: ImportedMemoryUnit[] = [];
  for (const unit of document.units) {
    const from = unit.variants.find((v) => sameLanguage(v.locale, source));
    if (!from) continue;
    for (const v of unit.variants) if (v !== from && v.text !== '') units.push({ sourceLocale: source, locale: v.locale, source: from.text, text: v.text });
  }
  return { units, source };
}

export async function readLokaliseArchive(bytes: Uint8Array, fileName: string, context: ReaderContext): Promise<void> {
  if (/\.tmx$/i.test(fileName)) {
    const { units, warning } = memoryOf(fileName, bytes, undefined);
    await context.emit([{ kind: 'memory', units }, ...(warning ? [{ kind: 'warning' as const, message: warning }] : [])], { filesDone: 1 });
    return;
  }
  const { entries: zip, budget } = readExportZip(
    bytes,
    fileName,
    context.archiveLimits,
    (reason) => `${fileName} is not a zip archive such as Lokalise's Download gives (${reason}). Upload the .zip Lokalise's Download page or files/download produces, or a .tmx file.`,
  );
  const warnings: ImportChunk[] = [];
  const names = Object.keys(zip)
    .filter((n) => !n.endsWith('/') && !n.startsWith('__MACOSX/') && checkedImportPath(n, warnings, `an entry of ${fileName}`) !== undefined)
    .sort();
  const tmxNames = names.filter((n) => /\.tmx$/i.test(n));
  const files: BundleFile[] = [];
  for (const name of names) {
    if (tmxNames.includes(name)) continue;
    const file = bundleFile(name, zip[name]!);
    if (file) files.push(file);
    else warnings.push({ kind: 'warning', message: `${fileName}: ${name} has no language code in its folder or name, so it is not imported. Download from Lokalise with original filenames and the directory prefix %LANG_ISO%/.` });
  }
  const languages = [...new Set(files.map((f) => f.language))];

  // The bundle does not say which language is the base one. A TMX from the project's memory does (srclang); otherwise
  // the base is the language with the most texts, since every key has its base text and translations may be missing.
  let baseIso: string | undefined;
  for (const name of tmxNames) {
    const declared = memoryOf(name, zip[name]!, undefined).source;
    baseIso ??= declared === undefined ? undefined : languages.find((l) => sameLanguage(l, declared));
  }
  if (!baseIso && languages.length > 0) {
    const counts = new Map(languages.map((l) => [l, 0]));
    for (const f of files) {
      const format = formatOf(f.name, f.bytes);
      try {
        counts.set(f.language, counts.get(f.language)! + (format ? (getCodec(format)?.parse(f.bytes, { archive: budget }).filter((e) => e.source !== '').length ?? 0) : 0));
      } catch (error) {
        if (error instanceof ArchiveLimitError) throw archiveTooLarge(`${fileName}: ${f.name}`, error);
        // Reported when the file is read below.
      }
    }
    // Ties go to English, by far the most common base language, then alphabetically: the warning names the choice.
    const ranked = [...counts].sort(([a, x], [b, y]) => y - x || Number(b.startsWith('en')) - Number(a.startsWith('en')) || a.localeCompare(b));
    baseIso = ranked[0]![0];
    warnings.push({ kind: 'warning', message: `${fileName} does not say which language is the base one; the import takes ${baseIso}, the language with the most texts. If that is wrong, import through Lokalise's API, or add the project's TMX export (whose srclang names it) to the zip.` });
  }

  const parsed = checkpointSchema.safeParse(context.checkpoint);
  const start = parsed.success ? parsed.data.filesDone : 0;
  // Base files first, so that every key is written before the translations of the other files.
  const ordered = [...files.filter((f) => f.language === baseIso), ...files.filter((f) => f.language !== baseIso)];
  const steps = ordered.length + tmxNames.length;
  let pending: ImportChunk[] = [{ kind: 'locales', source: baseIso ?? '', targets: languages.filter((l) => l !== baseIso) }, ...warnings];
  const emit = async (chunks: ImportChunk[], done: number) => {
    await context.emit([...pending, ...chunks], { filesDone: done });
    pending = [];
  };

  for (let i = start; i < steps; i++) {
    if (i >= ordered.length) {
      const name = tmxNames[i - ordered.length]!;
      context.progress(`Reading translation memory ${name}`, i, steps);
      const { units, warning } = memoryOf(name, zip[name]!, baseIso?.replaceAll('_', '-'));
      await emit([{ kind: 'memory', units }, ...(warning ? [{ kind: 'warning' as const, message: warning }] : [])], i + 1);
      continue;
    }
    const file = ordered[i]!;
    context.progress(`Reading ${file.name}`, i, steps);
    const path = file.template.replaceAll('\u0000', baseIso!);
    const refusal = pathRefusal(path, `the source path of ${file.name} in ${fileName}`);
    if (refusal) {
      await emit([refusal], i + 1);
      continue;
    }
    const format = formatOf(file.name, file.bytes);
    const codec = format && getCodec(format);
    if (!format || !codec) {
      await emit([{ kind: 'warning', message: `${fileName}: ${file.name} is in a format the import does not read; it is skipped.` }], i + 1);
      continue;
    }
    let entries: Entry[];
    try {
      entries = codec.parse(file.bytes, { archive: budget });
    } catch (error) {
      // Not a file to skip: the limits are the whole upload's.
      if (error instanceof ArchiveLimitError) throw archiveTooLarge(`${fileName}: ${file.name}`, error);
      if (!(error instanceof FileUnparsableError)) throw error;
      await emit([{ kind: 'warning', message: `${fileName}: ${file.name} could not be read as ${format} (line ${error.line}, column ${error.column}: ${error.message}); it is skipped.` }], i + 1);
      continue;
    }
    if (file.language === baseIso) {
      const keys = entries.map((e) => {
        const { text, plurals } = valueOf(e, format);
        return { ref: `${file.name}#${e.key}`, path, format, key: e.key, source: text, ...(plurals && { plurals }), ...(e.notes && { notes: e.notes }), ...(e.context && { context: e.context }), ...(e.maxLength && { maxLength: e.maxLength }) };
      });
      await emit([{ kind: 'keys', keys }], i + 1);
    } else {
      const rows = entries
        .map((e) => ({ e, value: valueOf(e, format) }))
        .filter(({ value }) => value.text !== '' || value.plurals)
        // An export says nothing of review: everything from it is imported as unreviewed.
        .map(({ e, value }) => ({ ref: `${file.name}#${e.key}`, path, key: e.key, locale: file.language, text: value.text, ...(value.plurals && { plurals: value.plurals }), reviewed: false }));
      await emit([{ kind: 'translations', rows }], i + 1);
    }
  }
  if (pending.length > 0) await emit([], steps);
}
