/** Reads Crowdin's exports: a project build zip (with the source files beside it), a TMX translation memory, a TBX glossary. */
import type { ArchiveBudget } from '../../../src/core/archive-limits.js';
import { detectFormat, getCodec, type Entry, type FormatId } from '../../../src/core/formats/index.js';
import { attribute, childElements, decodeXml, scanXml, textContent, type XmlElement } from '../../../src/core/formats/xml-scan.js';
import { parseTmx } from '../../../src/core/tmx.js';
import { checkedImportPath, ImportSourceError, keyFromEntry, type ImportChunk, type ImportedKey, type ImportedMemoryUnit, type ImportedTerm, type ImportedTranslation, type ReaderContext } from '../import-model.js';
import { readExportZip } from '../read-export-zip.js';

const sameLocale = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Every unit of a TMX file as source → target pairs, one per target variant. */
export function memoryFromTmx(bytes: Uint8Array, sourceLocale: string, ref: string): ImportedMemoryUnit[] {
  let doc;
  try {
    doc = parseTmx(bytes, { sourceLocale });
  } catch (error) {
    throw new ImportSourceError(`${ref} is not a TMX file Parlance can read: ${(error as Error).message}`);
  }
  const from = doc.sourceLocale ?? sourceLocale;
  const units: ImportedMemoryUnit[] = [];
  for (const unit of doc.units) {
    const source = unit.variants.find((v) => sameLocale(v.locale, from));
    if (!source) continue;
    for (const v of unit.variants) if (v !== source && v.text !== '') units.push({ sourceLocale: from, locale: v.locale, source: source.text, text: v.text });
  }
  return units;
}

/** TBX-Basic's administrative status Crowdin writes for a term whose status is 'not recommended': the forbidden term. */
const FORBIDDEN_STATUS = 'deprecatedTerm-admn-sts';

/** Elements named any of `names` below `el`, at any depth. */
function descendants(el: XmlElement, names: readonly string[]): XmlElement[] {
  const out: XmlElement[] = [];
  for (const child of childElements(el)) {
    if (names.includes(child.name)) out.push(child);
    else out.push(...descendants(child, names));
  }
  return out;
}

function typed(el: XmlElement, names: readonly string[], type: string): string | undefined {
  const found = childElements(el).find((c) => names.includes(c.name) && attribute(c, 'type')?.value === type);
  return found ? textContent(found).trim() : undefined;
}

/**
 * The concepts of a TBX file (TBX v2 `martif` as Crowdin's 'tbx' export writes it, or TBX v3): the source language's
 * first term is the glossary term, each other language's first term its translation.
 */
export function glossaryFromTbx(bytes: Uint8Array, sourceLocale: string, ref: string): ImportedTerm[] {
  let root: XmlElement;
  try {
    root = scanXml(decodeXml(bytes).text).root;
  } catch (error) {
    throw new ImportSourceError(`${ref} is not a TBX file Parlance can read: ${(error as Error).message}`);
  }
  if (root.name !== 'martif' && root.name !== 'tbx') throw new ImportSourceError(`${ref} is not a TBX file: its root element is <${root.name}>, not <martif> or <tbx>.`);
  const terms: ImportedTerm[] = [];
  for (const entry of descendants(root, ['termEntry', 'conceptEntry'])) {
    let term: { text: string; forbidden: boolean; notes?: string; caseSensitive?: boolean } | undefined;
    const translations: Record<string, string> = {};
    const conceptNote = typed(entry, ['descrip'], 'definition');
    for (const langSet of childElements(entry).filter((c) => c.name === 'langSet' || c.name === 'langSec')) {
      const locale = attribute(langSet, 'xml:lang')?.value;
      const tig = childElements(langSet).find((c) => c.name === 'tig' || c.name === 'ntig' || c.name === 'termSec');
      const termEl = tig && descendants(tig, ['term'])[0];
      if (!locale || !tig || !termEl) continue;
      const text = textContent(termEl).trim();
      if (sameLocale(locale, sourceLocale)) {
        const notes = typed(tig, ['descrip', 'termNote'], 'definition') ?? typed(langSet, ['descrip'], 'definition') ?? conceptNote ?? childElements(tig, 'note').map(textContent)[0]?.trim();
        term = { text, forbidden: typed(tig, ['termNote'], 'administrativeStatus') === FORBIDDEN_STATUS, ...(notes ? { notes } : {}) };
      } else if (text !== '') translations[locale] = text;
    }
    if (term && term.text !== '') terms.push({ term: term.text, translations, forbidden: term.forbidden, ...(term.notes ? { notes: term.notes } : {}) });
  }
  return terms;
}

interface ArchiveFile {
  path: string;
  bytes: Uint8Array;
}

/** What the zip holds, sorted out: source files, their translations by Crowdin language folder, TMX and TBX files. */
function sortArchive(files: ArchiveFile[], fileName: string) {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const memory = files.filter((f) => /\.tmx$/i.test(f.path));
  const glossaries = files.filter((f) => /\.tbx$/i.test(f.path));
  const resources = files.filter((f) => !/\.(tmx|tbx)$/i.test(f.path));
  const translations: { locale: string; source: string; file: ArchiveFile }[] = [];
  for (const f of resources) {
    // Crowdin's default build layout: `<language id>/<the source file's path>`.
    const slash = f.path.indexOf('/');
    if (slash > 0 && byPath.has(f.path.slice(slash + 1))) translations.push({ locale: f.path.slice(0, slash), source: f.path.slice(slash + 1), file: f });
  }
  const translated = new Set(translations.map((t) => t.file.path));
  const sources = resources.filter((f) => !translated.has(f.path));
  if (translations.length === 0 && sources.length > 0) {
    const folders = new Map<string, number>();
    for (const f of sources) if (f.path.includes('/')) folders.set(f.path.slice(0, f.path.indexOf('/')), (folders.get(f.path.slice(0, f.path.indexOf('/'))) ?? 0) + 1);
    const example = sources.find((f) => f.path.includes('/'))?.path;
    if (folders.size > 1 && example) {
      throw new ImportSourceError(
        `${fileName} holds Crowdin's translations (${[...folders.keys()].slice(0, 5).map((l) => `${l}/`).join(', ')}) but not the source files they translate. ` +
          `Add the source files at their repository paths (for example ${example.slice(example.indexOf('/') + 1)}, as 'crowdin download sources' writes them) to the zip and upload it again.`,
      );
    }
  }
  return { sources, translations, memory, glossaries };
}

/** `budget`: the zip's, for a file that is an archive itself (an .xlsx). */
function parseResource(file: ArchiveFile, format: FormatId, archive: string, budget: ArchiveBudget | undefined): Entry[] {
  try {
    return getCodec(format)!.parse(file.bytes, { archive: budget });
  } catch (error) {
    throw new ImportSourceError(`${file.path} in ${archive} cannot be read as ${format}: ${(error as Error).message}`);
  }
}

/** A translated value that is the source's own text: Crowdin fills untranslated strings so unless 'Skip untranslated strings' is on. */
function isSourceCopy(entry: Entry, key: ImportedKey): boolean {
  if (key.plurals || entry.plurals) return JSON.stringify(entry.plurals ?? {}) === JSON.stringify(key.plurals ?? {});
  return entry.source === key.source;
}

/** Reads a Crowdin build zip (translations in `<language id>/<source path>`, the source files at their own paths, TMX, TBX), or one TMX or TBX file. */
export async function readCrowdinArchive(bytes: Uint8Array, fileName: string, context: ReaderContext): Promise<void> {
  const refused: ImportChunk[] = [];
  let files: ArchiveFile[];
  let budget: ArchiveBudget | undefined;
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    const zip = readExportZip(bytes, fileName, context.archiveLimits, (reason) => `${fileName} is not a zip archive Parlance can open: ${reason}`);
    budget = zip.budget;
    files = Object.entries(zip.entries)
      .filter(([path]) => !path.endsWith('/') && !path.startsWith('__MACOSX/') && checkedImportPath(path, refused, `an entry of ${fileName}`) !== undefined)
      .map(([path, content]) => ({ path: path.replace(/^\/+/, ''), bytes: content }))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  } else if (/\.(tmx|tbx)$/i.test(fileName)) {
    files = [{ path: fileName, bytes }];
  } else {
    throw new ImportSourceError(`${fileName} is not a Crowdin export Parlance reads: expected the zip of a project build (Translations > Build & Download), a .tmx translation memory or a .tbx glossary.`);
  }

  const { sources, translations, memory, glossaries } = sortArchive(files, fileName);
  // The build zip does not name the source language; the TMX header does, and the TBX's martif element.
  const sourceLocale =
    memory.map((f) => parseTmxHeader(f.bytes)).find((l) => l !== undefined) ?? glossaries.map((f) => tbxLanguage(f.bytes)).find((l) => l !== undefined);
  const warnings: ImportChunk[] = [...refused];
  if (!sourceLocale && sources.length > 0) warnings.push({ kind: 'warning', message: `${fileName} does not name its source language (no TMX or TBX file in it says); the import assumes 'en'.` });
  const from = sourceLocale ?? 'en';
  const targets = [...new Set(translations.map((t) => t.locale))];
  const locales: ImportChunk = { kind: 'locales', source: from, targets };

  // One unit of work per file, in a fixed order: the checkpoint is how many are done.
  const done = typeof (context.checkpoint as { done?: unknown } | undefined)?.done === 'number' ? (context.checkpoint as { done: number }).done : 0;
  const keysByPath = new Map<string, Map<string, ImportedKey>>();
  const formats = new Map<string, FormatId>();
  let step = 0;
  // Glossaries first: every translation is then gated against the project's whole glossary.
  for (const f of glossaries) {
    const index = step++;
    if (index < done) continue;
    await context.emit([locales, ...(index === 0 ? warnings : []), { kind: 'glossary', terms: glossaryFromTbx(f.bytes, from, f.path) }], { done: index + 1 });
  }
  for (const file of sources) {
    const format = detectFormat(file.path, file.bytes);
    const index = step++;
    if (!format) {
      if (index >= done) await context.emit([...(index === 0 ? warnings : []), { kind: 'warning', message: `${file.path} in ${fileName} is in no format Parlance reads; it was left out.` }], { done: index + 1 });
      continue;
    }
    formats.set(file.path, format);
    const keys = parseResource(file, format, fileName, budget)
      .filter((e) => e.translatable !== false)
      .map((e) => keyFromEntry(e, file.path, format));
    keysByPath.set(file.path, new Map(keys.map((k) => [k.key, k])));
    if (index >= done) {
      context.progress(`Reading ${file.path}`, index, sources.length + translations.length);
      await context.emit([locales, ...(index === 0 ? warnings : []), { kind: 'keys', keys }], { done: index + 1 });
    }
  }
  for (const t of translations) {
    const index = step++;
    const format = formats.get(t.source);
    const keys = keysByPath.get(t.source);
    if (index < done || !format || !keys) continue;
    context.progress(`Reading ${t.file.path}`, index, sources.length + translations.length);
    const rows: ImportedTranslation[] = [];
    let copies = 0;
    for (const entry of parseResource(t.file, format, fileName, budget)) {
      const key = keys.get(entry.key);
      if (!key) continue;
      if (isSourceCopy(entry, key)) {
        copies++;
        continue;
      }
      rows.push({ ref: `${t.file.path}: ${entry.key}`, path: t.source, key: entry.key, locale: t.locale, text: entry.source, ...(entry.plurals ? { plurals: entry.plurals } : {}), reviewed: false });
    }
    const chunks: ImportChunk[] = [locales, { kind: 'translations', rows }];
    if (copies > 0) chunks.push({ kind: 'warning', message: `${copies} strings of ${t.file.path} are the source text itself (Crowdin exports untranslated strings so unless 'Skip untranslated strings' is on); they were left untranslated.` });
    await context.emit(chunks, { done: index + 1 });
  }
  for (const f of memory) {
    const index = step++;
    if (index < done) continue;
    await context.emit([...(index === 0 ? warnings : []), { kind: 'memory', units: memoryFromTmx(f.bytes, from, f.path) }], { done: index + 1 });
  }
  // Nothing else to read (every entry refused, say): the report still names what was skipped.
  if (step === 0 && warnings.length > 0) await context.emit(warnings, { done: 0 });
}

function parseTmxHeader(bytes: Uint8Array): string | undefined {
  try {
    return parseTmx(bytes).sourceLocale;
  } catch {
    return undefined;
  }
}

function tbxLanguage(bytes: Uint8Array): string | undefined {
  try {
    return attribute(scanXml(decodeXml(bytes).text).root, 'xml:lang')?.value;
  } catch {
    return undefined;
  }
}
