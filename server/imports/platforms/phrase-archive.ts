/** Reads what `phrase pull` writes (one file per locale in the formats `.phrase.yml` names), zipped, plus TMX memory. */
import { parse as parseYaml } from 'yaml';
import type { ArchiveBudget } from '../../../src/core/archive-limits.js';
import { detectFormat, getCodec, type FormatId } from '../../../src/core/formats/index.js';
import { parseTmx } from '../../../src/core/tmx.js';
import { checkedImportPath, ImportSourceError, keyFromEntry, type ImportChunk, type ImportedMemoryUnit, type ImportedTranslation, type ReaderContext } from '../import-model.js';
import { readExportZip } from '../read-export-zip.js';

/**
 * Phrase's `file_format` names (support.phrase.com, "Supported File Types (Strings)") for the formats Parlance reads.
 * Any other name falls back to detecting the format from the file itself.
 */
const PHRASE_FORMATS: Record<string, FormatId> = {
  simple_json: 'json',
  nested_json: 'json_nested',
  react_simple_json: 'json',
  react_nested_json: 'json_nested',
  xml: 'android_xml',
  strings: 'ios_strings',
  stringsdict: 'ios_stringsdict',
  xcstrings: 'ios_xcstrings',
  xlf: 'xliff12',
  xliff_2: 'xliff2',
  gettext: 'po',
  yml: 'yaml',
  properties: 'properties',
  resx: 'resx',
  arb: 'arb',
  laravel: 'laravel_php',
};

interface FileSpec { file: string; params?: { file_format?: string; locale_id?: string } }
interface PhraseConfig { phrase?: { file_format?: string; push?: { sources?: FileSpec[] }; pull?: { targets?: FileSpec[] } } }

const clean = (p: string) => p.replace(/^\.\//, '').replace(/^\/+/, '');
const LOCALE_PLACEHOLDER = /<locale_name>|<locale_code>/;

function formatOf(path: string, bytes: Uint8Array, phraseFormat: string | undefined): FormatId {
  const known = phraseFormat ? PHRASE_FORMATS[phraseFormat] : undefined;
  const format = known ?? detectFormat(path, bytes);
  if (!format) throw new ImportSourceError(`Phrase archive: cannot tell the format of ${path}${phraseFormat ? ` (Phrase file_format "${phraseFormat}")` : ''}; export it in a format Parlance reads (JSON, Android XML, iOS strings, XLIFF, gettext, YAML, …).`);
  return format;
}

/** `budget`: the zip's, for a file that is an archive itself (an .xlsx). */
function parseFile(path: string, bytes: Uint8Array, format: FormatId, budget: ArchiveBudget) {
  try {
    return getCodec(format)!.parse(bytes, { archive: budget });
  } catch (error) {
    throw new ImportSourceError(`Phrase archive: ${path} is not a readable ${format} file: ${(error as Error).message}`);
  }
}

export async function readPhraseArchive(bytes: Uint8Array, fileName: string, context: ReaderContext): Promise<void> {
  if (/\.tmx$/i.test(fileName)) {
    await context.emit([{ kind: 'memory', units: memoryOf(fileName, bytes) }], { file: 1 });
    return;
  }
  const { entries: files, budget } = readExportZip(bytes, fileName, context.archiveLimits, (reason) => `Phrase archive ${fileName} is not a zip file: ${reason}`);
  // Written with the last step, which every run that gets past .phrase.yml reaches.
  const refused: ImportChunk[] = [];
  const names = Object.keys(files).filter((n) => !n.endsWith('/') && checkedImportPath(n, refused, `an entry of ${fileName}`) !== undefined);
  const configName = names.filter((n) => /(^|\/)\.phrase\.ya?ml$/.test(n)).sort((a, b) => a.length - b.length)[0];
  if (!configName) {
    throw new ImportSourceError(
      `Phrase archive ${fileName} has no .phrase.yml. Phrase stores keys, not files: the .phrase.yml of your repository is what says which file is the source, in which locale, and where each locale's file goes. Run \`phrase pull\` and zip the pulled files together with .phrase.yml.`,
    );
  }
  const root = configName.slice(0, configName.length - configName.split('/').pop()!.length);
  let config: PhraseConfig;
  try {
    config = parseYaml(new TextDecoder().decode(files[configName])) as PhraseConfig;
  } catch (error) {
    throw new ImportSourceError(`Phrase archive: ${configName} is not valid YAML: ${(error as Error).message}`);
  }
  const sources = config.phrase?.push?.sources ?? [];
  const targets = config.phrase?.pull?.targets ?? [];
  const defaultFormat = config.phrase?.file_format;
  const sourceLocale = sources.find((s) => s.params?.locale_id)?.params?.locale_id;
  if (sources.length === 0 || !sourceLocale) {
    throw new ImportSourceError(`Phrase archive: ${configName} names no push source with params.locale_id, so the source files and their locale are unknown.`);
  }

  // Pulled files: each target pattern, with the locale where the placeholder stands.
  const pulled: { name: string; locale: string; pattern: FileSpec }[] = [];
  for (const target of targets) {
    const pattern = clean(target.file);
    if (!LOCALE_PLACEHOLDER.test(pattern)) continue;
    const regex = new RegExp(`^${escapeRegex(root + pattern).replace(/<locale_name>|<locale_code>/g, '([^/]+)')}$`);
    for (const name of names) {
      const match = regex.exec(name);
      if (match) pulled.push({ name, locale: match[1]!, pattern: target });
    }
  }
  const targetLocales = [...new Set(pulled.map((p) => p.locale).filter((l) => l !== sourceLocale))].sort();
  const localesChunk: ImportChunk = { kind: 'locales', source: sourceLocale, targets: targetLocales };
  const start = typeof (context.checkpoint as { file?: unknown } | undefined)?.file === 'number' ? (context.checkpoint as { file: number }).file : 0;
  let step = 0;
  const warnings: string[] = [];

  for (const spec of sources) {
    const path = checkedImportPath(clean(spec.file), refused, `a push source in ${configName}`);
    if (path === undefined) continue;
    const bytesOf = files[root + path];
    const phraseFormat = spec.params?.file_format ?? defaultFormat;
    if (!bytesOf) {
      warnings.push(`Phrase archive: the push source ${path} named in .phrase.yml is not in the archive; its keys were not imported.`);
      continue;
    }
    const format = formatOf(path, bytesOf, phraseFormat);
    const entries = parseFile(path, bytesOf, format, budget);
    const known = new Set(entries.map((e) => e.key));
    const keys = entries.map((e) => keyFromEntry(e, path, format, `${path} ${e.key}`));
    if (step++ >= start) await context.emit([localesChunk, { kind: 'keys', keys }], { file: step });

    // A pull target of the same format in the same directory tree holds this source's translations.
    const mine = pulled.filter((p) => p.locale !== sourceLocale && formatOfSpec(p.pattern, defaultFormat) === phraseFormat && sameTree(p.name, root + path, sources, root));
    for (const file of mine) {
      if (step++ < start) continue;
      const targetFormat = formatOf(file.name, files[file.name]!, file.pattern.params?.file_format ?? defaultFormat);
      const rows: ImportedTranslation[] = [];
      let strays = 0;
      for (const e of parseFile(file.name, files[file.name]!, targetFormat, budget)) {
        if (!known.has(e.key)) {
          strays++;
          continue;
        }
        // Downloads carry text only: Phrase writes neither review state nor verification into locale files.
        rows.push({ ref: `${file.name} ${e.key}`, path, key: e.key, locale: file.locale, text: e.source, ...(e.plurals ? { plurals: e.plurals } : {}), reviewed: false });
      }
      const chunks: ImportChunk[] = [localesChunk, { kind: 'translations', rows }];
      if (strays) chunks.push({ kind: 'warning', message: `Phrase archive: ${strays} keys in ${file.name} are not in its source ${path}; they were left out.` });
      await context.emit(chunks, { file: step });
    }
  }

  const memory = names.filter((n) => /\.tmx$/i.test(n)).flatMap((n) => memoryOf(n, files[n]!));
  if (step++ >= start) {
    await context.emit([localesChunk, ...(memory.length ? [{ kind: 'memory' as const, units: memory }] : []), ...warnings.map((message) => ({ kind: 'warning' as const, message })), ...refused], { file: step });
  }
}

function formatOfSpec(spec: FileSpec, defaultFormat: string | undefined) {
  return spec.params?.file_format ?? defaultFormat;
}

/**
 * Whether a pulled file belongs to a source: the one of the same format whose directory shares the longest prefix
 * with it (values/strings.xml and values-de/strings.xml share app/src/main/res/).
 */
function sameTree(pulledName: string, sourceName: string, sources: FileSpec[], root: string): boolean {
  const shared = (a: string, b: string) => {
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return i;
  };
  const best = sources.map((s) => root + clean(s.file)).sort((a, b) => shared(b, pulledName) - shared(a, pulledName))[0];
  return best === sourceName;
}

function memoryOf(name: string, bytes: Uint8Array): ImportedMemoryUnit[] {
  let doc;
  try {
    doc = parseTmx(bytes);
  } catch (error) {
    throw new ImportSourceError(`Phrase archive: ${name} is not a readable TMX file: ${(error as Error).message}`);
  }
  const units: ImportedMemoryUnit[] = [];
  for (const unit of doc.units) {
    const sourceLocale = doc.sourceLocale ?? unit.variants[0]?.locale;
    const source = unit.variants.find((v) => v.locale === sourceLocale);
    if (!source || !sourceLocale) continue;
    for (const v of unit.variants) if (v !== source) units.push({ sourceLocale, locale: v.locale, source: source.text, text: v.text });
  }
  return units;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
