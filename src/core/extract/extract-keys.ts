/**
 * The extractor's entry: every literal translation key the given files use, in the conventions of i18next, vue-i18n,
 * react-intl / FormatJS and Angular's `$localize`, read with Babel's parser (loaded on first use, so a command that
 * extracts nothing never loads it), and what it could not read as warnings with file:line. It reads text it is given:
 * the CLI gives it files from disk, the source-code connector files from a repository's API.
 */
import type { ParserOptions, ParserPlugin } from '@babel/parser';
import type { File, Node } from '@babel/types';
import { walk, type NodeReader } from './ast.js';
import { DEFAULT_EXTRACT_LIMITS, type ExtractLimits } from './extract-limits.js';
import type { ExtractWarning, Found, KeyUse, SourceText } from './key-use.js';
import { readLocalize } from './localize.js';
import { readReactIntl } from './react-intl.js';
import { readTransElement } from './trans-element.js';
import { readTranslateCall } from './translate-calls.js';
import { splitVueFile, templateCode } from './vue-file.js';

export interface Extraction {
  /** Every use of a literal key, by file and line. */
  uses: KeyUse[];
  warnings: ExtractWarning[];
  /** Files read, and files skipped (too large, unparsable). */
  files: number;
  skipped: number;
}

/** More code than the limits allow: the caller names a narrower set of files. */
export class ExtractLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExtractLimitError';
  }
}

type Babel = typeof import('@babel/parser');

const READERS: readonly NodeReader[] = [readTranslateCall, readTransElement, readReactIntl, readLocalize];

function pluginsFor(extension: string): ParserPlugin[] {
  if (extension === 'ts' || extension === 'mts' || extension === 'cts') return ['typescript', 'decorators-legacy'];
  if (extension === 'tsx') return ['typescript', 'jsx', 'decorators-legacy'];
  return ['jsx', 'decorators-legacy'];
}

const BASE_OPTIONS: ParserOptions = {
  sourceType: 'module',
  errorRecovery: true,
  allowReturnOutsideFunction: true,
  allowAwaitOutsideFunction: true,
  allowImportExportEverywhere: true,
  allowUndeclaredExports: true,
};

/** 1-based line and 0-based column of each offset, from the file's line starts. */
function positions(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - starts[low]! };
  };
}

function readTree(root: Node, file: string, found: Found): void {
  walk(root, (node) => {
    for (const read of READERS) read(node, file, found);
  });
}

/** The syntax error Babel throws (with `loc`) or recovered from, as a warning at its line. */
function syntaxWarning(file: string, error: unknown, what: string): ExtractWarning {
  const loc = (error as { loc?: { line: number } }).loc;
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\(\d+:\d+\)$/, '');
  return { file, line: loc?.line ?? null, message: `${what}: ${message}` };
}

/** Babel's SyntaxError, or the RangeError of code nested deeper than its recursive descent goes: the file's fault, not ours. */
function unparsable(error: unknown): boolean {
  return error instanceof SyntaxError || error instanceof RangeError;
}

/** Parses a script (a file, or a .vue block starting at `at`); false when it could not be parsed at all. */
function readScript(babel: Babel, code: string, file: string, plugins: ParserPlugin[], at: { line: number; column: number }, found: Found): boolean {
  let ast: File;
  try {
    ast = babel.parse(code, { ...BASE_OPTIONS, plugins, startLine: at.line, startColumn: at.column });
  } catch (error) {
    if (!unparsable(error)) throw error;
    found.warnings.push(syntaxWarning(file, error, 'not parsed, skipped'));
    return false;
  }
  const recovered = (ast as File & { errors?: unknown[] }).errors ?? [];
  if (recovered.length > 0) found.warnings.push(syntaxWarning(file, recovered[0], `parsed past ${recovered.length === 1 ? 'a syntax error' : `${recovered.length} syntax errors`}, keys near it may be missed`));
  readTree(ast.program, file, found);
  return true;
}

function readVue(babel: Babel, text: string, file: string, found: Found): boolean {
  const at = positions(text);
  const parts = splitVueFile(text);
  let ok = true;
  for (const script of parts.scripts) {
    const lang = script.lang ?? 'js';
    ok = readScript(babel, script.content, file, pluginsFor(lang), at(script.offset), found) && ok;
  }
  if (!parts.template) return ok;
  for (const code of templateCode(parts.template.content, parts.template.offset)) {
    const start = at(code.offset);
    const options = { ...BASE_OPTIONS, plugins: pluginsFor('ts'), startLine: start.line, startColumn: start.column };
    let root: Node;
    try {
      // An event handler may be statements (`count++; save()`); everything else is one expression.
      root = code.kind === 'handler' ? babel.parse(code.code, options).program : babel.parseExpression(code.code, options);
    } catch (error) {
      if (!unparsable(error)) throw error;
      found.warnings.push(syntaxWarning(file, error, `template expression ${code.where}="${code.code.trim().slice(0, 40)}" not parsed`));
      continue;
    }
    if (code.kind === 'v-t') readVueDirective(root, file, start.line, found);
    else readTree(root, file, found);
  }
  return ok;
}

/** vue-i18n's `v-t="'key'"` or `v-t="{ path: 'key' }"`. */
function readVueDirective(root: Node, file: string, line: number, found: Found): void {
  let key: string | undefined;
  if (root.type === 'StringLiteral') key = root.value;
  if (root.type === 'ObjectExpression') {
    for (const p of root.properties) if (p.type === 'ObjectProperty' && p.key.type === 'Identifier' && p.key.name === 'path' && p.value.type === 'StringLiteral') key = p.value.value;
  }
  if (key === undefined || key === '') found.warnings.push({ file, line, message: 'v-t with a dynamic key: not extracted (only literal keys are).' });
  else found.uses.push({ key, file, line, convention: 'vue-i18n' });
}

/** Reads every file; a file over the size limit or that cannot be parsed is a warning and is skipped, never fatal. */
export async function extractKeys(files: readonly SourceText[], limits: Readonly<ExtractLimits> = DEFAULT_EXTRACT_LIMITS): Promise<Extraction> {
  if (files.length > limits.maxFiles) throw new ExtractLimitError(`${files.length} code files, more than the ${limits.maxFiles} one run reads: name fewer files (narrower paths or include globs).`);
  // @babel/parser is CommonJS: Node's import names its exports, the CLI package's bundle gives them as `default` only.
  const loaded = (await import('@babel/parser')) as Babel & { default?: Babel };
  const babel = typeof loaded.parse === 'function' ? loaded : loaded.default!;
  const found: Found = { uses: [], warnings: [] };
  let read = 0;
  let skipped = 0;
  let total = 0;
  for (const { path, text } of files) {
    const bytes = Buffer.byteLength(text);
    if (bytes > limits.maxFileBytes) {
      found.warnings.push({ file: path, line: null, message: `skipped: ${bytes} bytes, over the ${limits.maxFileBytes}-byte limit for one code file (generated or bundled code?).` });
      skipped++;
      continue;
    }
    total += bytes;
    if (total > limits.maxTotalBytes) throw new ExtractLimitError(`The code files hold more than ${limits.maxTotalBytes} bytes together: name fewer files (narrower paths or include globs).`);
    const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
    const ok = extension === 'vue' ? readVue(babel, text, path, found) : readScript(babel, text, path, pluginsFor(extension), { line: 1, column: 0 }, found);
    if (ok) read++;
    else skipped++;
  }
  const byPlace = (a: { file: string; line: number | null }, b: { file: string; line: number | null }) => (a.file < b.file ? -1 : a.file > b.file ? 1 : (a.line ?? 0) - (b.line ?? 0));
  return { uses: found.uses.sort(byPlace), warnings: found.warnings.sort(byPlace), files: read, skipped };
}
