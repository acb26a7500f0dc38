/** Reads a Transifex archive (`.tx/config` with the files `tx pull` wrote, TMX and glossary CSV downloads) and maps Transifex's formats and keys to Parlance's. */
import { z } from 'zod';
import { ArchiveBudget } from '../../../src/core/archive-limits.js';
import { detectFormat, getCodec, type Entry, type FormatId } from '../../../src/core/formats/index.js';
import { scanCsv } from '../../../src/core/formats/csv-scan.js';
import { parseTmx } from '../../../src/core/tmx.js';
import { checkedImportPath, ImportSourceError, pathRefusal, type ImportChunk, type ImportedKey, type ImportedMemoryUnit, type ImportedTerm, type ImportedTranslation, type ReaderContext } from '../import-model.js';
import { readExportZip } from '../read-export-zip.js';

/**
 * Transifex i18n format ids (the API's `i18n_format` and `.tx/config`'s `type`) that a Parlance codec reads. The ids
 * are openformats' handler names (KEYVALUEJSON, ANDROID, ARB, PO, STRINGSDICT) and the `type` values of `.tx/config`.
 */
const I18N_FORMATS: Readonly<Record<string, FormatId>> = {
  KEYVALUEJSON: 'json',
  ANDROID: 'android_xml',
  BETA_ANDROID: 'android_xml',
  ARB: 'arb',
  PO: 'po',
  STRINGS: 'ios_strings',
  STRINGSDICT: 'ios_stringsdict',
  YML: 'yaml',
  YAML_GENERIC: 'yaml',
  PROPERTIES: 'properties',
  RESX: 'resx',
  XLIFF: 'xliff12',
};

export function formatOfI18nType(i18nType: string): FormatId | undefined {
  return I18N_FORMATS[i18nType.toUpperCase()];
}

/**
 * A Transifex string key as a push of the same file would name it in Parlance. openformats escapes '.' and '\' inside
 * a JSON member name (a flat `"a.b"` becomes `a\.b`, nested `{"a":{"b"}}` becomes `a.b`), where Parlance joins both
 * as `a.b`; it names Android string-array items `name[0]` where Parlance says `name.0`.
 */
export function parlanceKey(key: string, i18nType: string): string {
  const type = i18nType.toUpperCase();
  if (type === 'KEYVALUEJSON' || type === 'STRUCTURED_JSON') return key.replace(/\\([\\.])/g, '$1');
  if (type === 'ANDROID' || type === 'BETA_ANDROID') return key.replace(/^(.*)\[(\d+)\]$/, '$1.$2');
  return key;
}

// ---------------------------------------------------------------------------------------------------------------
// `.tx/config` (INI), as transifex/cli reads it: [main] with lang_map, one section per resource.

interface TxResource {
  section: string;
  /** The section's resource id, `o:org:p:project:r:slug` (or `project.slug` in the old client's config). */
  resourceId: string;
  sourceFile: string;
  fileFilter: string;
  sourceLanguage: string;
  type: string;
  /** Transifex code → local code, the resource's mappings over [main]'s. */
  langMap: Map<string, string>;
  /** `trans.<local code> = path`: a translation file outside file_filter. */
  overrides: Map<string, string>;
}

function parseTxConfig(text: string, where: string): TxResource[] {
  const sections = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  let lastKey: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/^\uFEFF/, '');
    if (/^\s*([#;]|$)/.test(line)) continue;
    const header = /^\s*\[(.+)\]\s*$/.exec(line);
    if (header) {
      current = new Map();
      sections.set(header[1]!.trim(), current);
      lastKey = undefined;
      continue;
    }
    // A continuation line (indented) extends the previous value, as INI readers allow for long lang_maps.
    if (/^\s/.test(line) && current && lastKey) {
      current.set(lastKey, `${current.get(lastKey)} ${line.trim()}`);
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0 || !current) continue;
    lastKey = line.slice(0, eq).trim();
    current.set(lastKey, line.slice(eq + 1).trim());
  }
  const main = sections.get('main') ?? new Map<string, string>();
  const mainMap = langMapOf(main.get('lang_map') ?? '', where);
  const resources: TxResource[] = [];
  for (const [section, keys] of sections) {
    if (section === 'main') continue;
    const fileFilter = keys.get('file_filter') ?? '';
    const sourceFile = keys.get('source_file') ?? '';
    if (!fileFilter.includes('<lang>') || !sourceFile) {
      throw new ImportSourceError(`The Transifex config ${where} has resource [${section}] without a source_file or a file_filter with <lang>; the archive cannot say which files belong to it.`);
    }
    const langMap = new Map([...mainMap, ...langMapOf(keys.get('lang_map') ?? '', where)]);
    const overrides = new Map<string, string>();
    for (const [key, value] of keys) if (key.startsWith('trans.')) overrides.set(key.slice('trans.'.length), value);
    resources.push({
      section,
      resourceId: section,
      sourceFile: normalisePath(sourceFile),
      fileFilter: normalisePath(fileFilter),
      sourceLanguage: keys.get('source_lang') ?? main.get('source_lang') ?? '',
      type: keys.get('type') ?? main.get('type') ?? '',
      langMap,
      overrides,
    });
  }
  return resources;
}

/** `lang_map = pt_BR: pt-rBR, de: de-DE` (Transifex code: local code). */
function langMapOf(value: string, where: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const pair of value.split(',')) {
    if (pair.trim() === '') continue;
    const [remote, local, ...rest] = pair.split(':').map((s) => s.trim());
    if (!remote || !local || rest.length > 0) throw new ImportSourceError(`Invalid lang_map entry '${pair.trim()}' in the Transifex config ${where}. Expected 'transifex_code: local_code', e.g. 'pt_BR: pt-rBR'.`);
    map.set(remote, local);
  }
  return map;
}

function normalisePath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.\//, '');
}

// ---------------------------------------------------------------------------------------------------------------

type Files = Map<string, Uint8Array>;

/** One piece of the archive read and emitted with one checkpoint. */
interface Item {
  label: string;
  read(): ImportChunk[];
}

/** How many items of the archive, in their fixed order, are written. */
const checkpointSchema = z.object({ done: z.number().int().min(0) });
const checkpointOf = (done: number): z.infer<typeof checkpointSchema> => ({ done });

export async function readTransifexArchive(bytes: Uint8Array, fileName: string, context: ReaderContext): Promise<void> {
  const refused: ImportChunk[] = [];
  // Shared by the zip and any archive in it (an .xlsx source file), so nesting does not multiply the limits.
  const budget = new ArchiveBudget(context.archiveLimits);
  const files = filesOf(bytes, fileName, refused, budget);
  const configPath = [...files.keys()].filter((p) => /(^|\/)\.tx\/config$/.test(p)).sort((a, b) => a.split('/').length - b.split('/').length)[0];
  const root = configPath ? configPath.slice(0, -'.tx/config'.length) : '';
  const resources = configPath ? parseTxConfig(new TextDecoder().decode(files.get(configPath)), configPath) : [];

  const items: Item[] = [];
  const targets = new Set<string>();
  let sourceLanguage = resources.find((r) => r.sourceLanguage)?.sourceLanguage ?? '';
  for (const resource of resources) items.push(...resourceItems(resource, files, root, targets, budget));

  const tmxPaths = [...files.keys()].filter((p) => /\.tmx$/i.test(p)).sort();
  const csvPaths = [...files.keys()].filter((p) => /\.csv$/i.test(p) && isGlossary(files.get(p)!)).sort();
  if (resources.length === 0 && tmxPaths.length === 0 && csvPaths.length === 0) {
    throw new ImportSourceError(
      `${fileName} holds nothing a Transifex import reads: no .tx/config (the Transifex CLI's config, with the files 'tx pull' wrote), no TMX file and no glossary CSV (columns term, pos, comment, translation_<lang>).`,
    );
  }
  if (!sourceLanguage) sourceLanguage = tmxPaths.map((p) => parseTmx(files.get(p)!).sourceLocale).find((l) => !!l) ?? 'en';
  for (const path of tmxPaths) items.push({ label: path, read: () => memoryChunks(path, files.get(path)!, sourceLanguage) });
  // Glossaries first: every translation is then gated against the project's whole glossary.
  items.unshift(...csvPaths.map((path) => ({ label: path, read: () => glossaryChunks(path, files.get(path)!) })));

  const locales: ImportChunk = { kind: 'locales', source: sourceLanguage, targets: [...targets].sort() };
  const saved = checkpointSchema.safeParse(context.checkpoint);
  const start = saved.success && saved.data.done <= items.length ? saved.data.done : 0;
  if (start === 0 && items.length === 0) await context.emit([locales, ...refused], checkpointOf(0));
  for (let i = start; i < items.length; i++) {
    context.progress(`reading ${items[i]!.label}`, i, items.length);
    await context.emit([locales, ...(i === 0 ? refused : []), ...items[i]!.read()], checkpointOf(i + 1));
  }
}

/** The archive's files by normalised path; an entry whose own name breaks the repository path rule is refused into `refused`. */
function filesOf(bytes: Uint8Array, fileName: string, refused: ImportChunk[], budget: ArchiveBudget): Files {
  const isZip = bytes[0] === 0x50 && bytes[1] === 0x4b;
  if (!isZip) {
    if (/\.(tmx|csv)$/i.test(fileName)) return new Map([[fileName.split('/').pop()!, bytes]]);
    throw new ImportSourceError(`${fileName} is neither a zip nor a TMX or glossary CSV file; a Transifex import reads a zip of the repository's .tx/config with the pulled files, a TMX or a glossary CSV.`);
  }
  const { entries } = readExportZip(bytes, fileName, budget, (reason) => `${fileName} is not a readable zip archive: ${reason}`);
  return new Map(
    Object.entries(entries)
      .filter(([path]) => !path.endsWith('/') && checkedImportPath(path, refused, `an entry of ${fileName}`) !== undefined)
      .map(([path, data]) => [normalisePath(path), data]),
  );
}

function resourceItems(resource: TxResource, files: Files, root: string, targets: Set<string>, budget: ArchiveBudget): Item[] {
  // The source_file is the keys' path in Parlance: .tx/config, not an entry name, says it.
  const refusal = pathRefusal(resource.sourceFile, `the source_file of [${resource.section}] in .tx/config`);
  if (refusal) return [{ label: resource.sourceFile, read: () => [refusal] }];
  const format = formatOfI18nType(resource.type) ?? detectFormat(resource.sourceFile, files.get(root + resource.sourceFile) ?? new Uint8Array());
  const codec = format && getCodec(format);
  const sourceBytes = files.get(root + resource.sourceFile);
  const ref = (key: string) => `Transifex resource ${resource.resourceId}, key ${key}`;
  if (!codec || !sourceBytes) {
    const why = !sourceBytes ? `its source file ${resource.sourceFile} is not in the archive` : `its type ${resource.type || '(none)'} has no Parlance codec`;
    return [{ label: resource.sourceFile, read: () => [{ kind: 'warning', message: `Transifex resource [${resource.section}] was not imported: ${why}.`, ref: resource.resourceId }] }];
  }
  const sourceEntries = () => parseFile(codec.id, sourceBytes, resource.sourceFile, budget).filter((e) => e.translatable !== false);

  const remoteOf = new Map([...resource.langMap].map(([remote, local]) => [local, remote]));
  const translationFiles = new Map<string, string>();
  const pattern = new RegExp(`^${escapeRegExp(resource.fileFilter).replace('<lang>', '([^/]+)')}$`);
  for (const path of files.keys()) {
    if (!path.startsWith(root)) continue;
    const match = pattern.exec(path.slice(root.length));
    if (match) translationFiles.set(remoteOf.get(match[1]!) ?? match[1]!, path);
  }
  for (const [local, path] of resource.overrides) {
    if (files.has(root + normalisePath(path))) translationFiles.set(remoteOf.get(local) ?? local, root + normalisePath(path));
  }
  translationFiles.delete(resource.sourceLanguage);
  for (const language of translationFiles.keys()) targets.add(language);

  const items: Item[] = [
    {
      label: resource.sourceFile,
      read: () => [{ kind: 'keys', keys: sourceEntries().map((e): ImportedKey => keyOf(e, resource.sourceFile, codec.id, ref(e.key))) }],
    },
  ];
  for (const [language, path] of [...translationFiles].sort(([a], [b]) => a.localeCompare(b))) {
    items.push({
      label: path,
      read: () => {
        const sources = new Map(sourceEntries().map((e) => [e.key, e]));
        const rows: ImportedTranslation[] = [];
        let sameAsSource = 0;
        for (const entry of parseFile(codec.id, files.get(path)!, path, budget)) {
          const source = sources.get(entry.key);
          if (!source) continue;
          if (!entry.plurals && entry.source === '') continue;
          // Transifex's default download fills an untranslated string with its source: it cannot be told from a translation.
          if (!entry.plurals && entry.source === source.source) {
            sameAsSource++;
            continue;
          }
          rows.push({ ref: `${ref(entry.key)}, ${language}`, path: resource.sourceFile, key: entry.key, locale: language, text: entry.source, ...(entry.plurals && { plurals: entry.plurals }), reviewed: false });
        }
        const chunks: ImportChunk[] = [{ kind: 'translations', rows }];
        if (sameAsSource > 0) {
          chunks.push({
            kind: 'warning',
            message: `${path}: ${sameAsSource} strings equal to their source were taken as untranslated (Transifex fills untranslated strings with the source when downloading in its default mode).`,
            ref: resource.resourceId,
          });
        }
        return chunks;
      },
    });
  }
  return items;
}

function keyOf(entry: Entry, path: string, format: FormatId, ref: string): ImportedKey {
  return {
    ref,
    path,
    format,
    key: entry.key,
    source: entry.source,
    ...(entry.plurals && { plurals: entry.plurals }),
    ...(entry.notes && { notes: entry.notes }),
    ...(entry.context && { context: entry.context }),
    ...(entry.maxLength !== undefined && { maxLength: entry.maxLength }),
  };
}

/** `budget`: the zip's, for a file that is an archive itself (an .xlsx). */
function parseFile(format: FormatId, bytes: Uint8Array, path: string, budget: ArchiveBudget): Entry[] {
  try {
    return getCodec(format)!.parse(bytes, { archive: budget });
  } catch (error) {
    throw new ImportSourceError(`${path} in the Transifex archive cannot be read as ${format}: ${(error as Error).message}`);
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// ---------------------------------------------------------------------------------------------------------------
// Translation memory (TMX) and glossary (CSV)

function memoryChunks(path: string, bytes: Uint8Array, sourceLanguage: string): ImportChunk[] {
  let document;
  try {
    document = parseTmx(bytes, { sourceLocale: sourceLanguage });
  } catch (error) {
    throw new ImportSourceError(`${path} in the Transifex archive is not a readable TMX file: ${(error as Error).message}`);
  }
  const sourceTag = document.sourceLocale ?? sourceLanguage;
  const units: ImportedMemoryUnit[] = [];
  for (const unit of document.units) {
    const source = unit.variants.find((v) => sameLanguage(v.locale, sourceTag));
    if (!source) continue;
    for (const v of unit.variants) if (v !== source && v.text !== '') units.push({ sourceLocale: sourceLanguage, locale: v.locale, source: source.text, text: v.text });
  }
  return [{ kind: 'memory', units }];
}

function sameLanguage(a: string, b: string): boolean {
  return a.replace(/_/g, '-').toLowerCase() === b.replace(/_/g, '-').toLowerCase();
}

function headerOf(bytes: Uint8Array): string[] {
  const records = scanCsv(bytes).records;
  return records[0]?.fields.map((f) => f.value.trim()) ?? [];
}

/** Transifex's glossary export: `term`, `pos`, `comment`, then `translation_<lang>` and `comment_<lang>` per language. */
function isGlossary(bytes: Uint8Array): boolean {
  const header = headerOf(bytes);
  return header.includes('term') && header.some((h) => h.startsWith('translation_'));
}

function glossaryChunks(path: string, bytes: Uint8Array): ImportChunk[] {
  const [head, ...rows] = scanCsv(bytes).records.map((r) => r.fields.map((f) => f.value));
  const column = new Map((head ?? []).map((name, i) => [name.trim(), i]));
  const termAt = column.get('term')!;
  const commentAt = column.get('comment');
  const languages = [...column].filter(([name]) => name.startsWith('translation_')).map(([name, i]) => ({ language: name.slice('translation_'.length), i }));
  const terms: ImportedTerm[] = [];
  for (const row of rows) {
    const term = row[termAt]?.trim();
    if (!term) continue;
    const translations: Record<string, string> = {};
    for (const { language, i } of languages) {
      const text = row[i]?.trim();
      if (text) translations[language] = text;
    }
    const notes = commentAt === undefined ? '' : (row[commentAt]?.trim() ?? '');
    terms.push({ term, translations, forbidden: false, ...(notes && { notes }) });
  }
  return [
    { kind: 'glossary', terms },
    { kind: 'warning', message: `${path}: Transifex glossaries have no forbidden-term flag; every term was imported as allowed. Mark forbidden terms again in Parlance.` },
  ];
}
