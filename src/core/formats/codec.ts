/** The contract every file-format codec implements: bytes in, entries out; skeleton plus values in, bytes out. */

export const FORMAT_IDS = [
  'json',
  'json_nested',
  'laravel_php',
  'laravel_json',
  'android_xml',
  'ios_strings',
  'ios_stringsdict',
  'ios_xcstrings',
  'arb',
  'xliff12',
  'xliff2',
  'po',
  'yaml',
  'csv',
  'xlsx',
  'properties',
  'resx',
  'markdown',
  'unity_csv',
  'unreal_po',
] as const;

export type FormatId = (typeof FORMAT_IDS)[number];

/** One translatable string found in a source file. */
export interface Entry {
  /** The stored identifier of the string. For nesting formats it is `path` joined with '.'. */
  key: string;
  /** The key as a path of segments where the format nests (json_nested); `[key]` otherwise. */
  path: string[];
  /** The source-language text, unescaped. */
  source: string;
  /** Comment or description attached to the string in the file, if the format has one. */
  notes?: string;
  /** Disambiguating context (msgctxt, resname), if the format has one. */
  context?: string;
  /** Maximum length the format declares for the string, if any. */
  maxLength?: number;
  /** 1-based line of the value in the source file, for annotations. */
  line: number;
  /** 1-based column of the value in the source file. */
  column: number;
}

export interface RenderInput {
  /** The source file exactly as it was pushed. */
  source: Uint8Array;
  /** Translated text per entry key. */
  values: ReadonlyMap<string, string>;
  /** What to do with an entry that has no value: keep the source text, or leave the entry out. */
  missing: 'source' | 'omit';
}

export interface FreshEntry {
  key: string;
  value: string;
  notes?: string;
}

export interface Codec {
  id: FormatId;
  /** File extensions this codec is usually found under, with the dot. */
  extensions: readonly string[];
  /** Parses a source file; throws FileUnparsableError naming line and column on malformed input. */
  parse(bytes: Uint8Array): Entry[];
  /**
   * Renders a target file from the source file's bytes by splicing values in at their offsets.
   * Rendering with every value equal to its source text (or with none and missing 'source')
   * returns the source bytes unchanged.
   */
  render(input: RenderInput): Uint8Array;
  /** Renders a new, conventionally formatted file from entries in the given order (keys pushed without a file). */
  renderFresh(entries: readonly FreshEntry[]): Uint8Array;
}

/** Malformed input: carries the position so the API can name it. */
export class FileUnparsableError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = 'FileUnparsableError';
  }
}
