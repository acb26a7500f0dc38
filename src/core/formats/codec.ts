/** The contract every file-format codec implements: bytes in, entries out; skeleton plus values in, bytes out. */
import type { ArchiveBudget, ArchiveLimits } from '../archive-limits.js';

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

/** CLDR plural categories, in CLDR's canonical order. */
export const PLURAL_CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
export type PluralCategory = (typeof PLURAL_CATEGORIES)[number];
/** Plural forms by CLDR category; a complete set for a locale has exactly its `Intl.PluralRules` categories. */
export type PluralForms = Partial<Record<PluralCategory, string>>;

/** A value written into a file: plain text, or plural forms (only given to codecs whose `plurals` capability is true). */
export type Value = string | { plurals: PluralForms };

/** One translatable string found in a source file. */
export interface Entry {
  /** The stored identifier of the string. For nesting formats it is `path` joined with '.'. */
  key: string;
  /** The key as a path of segments where the format nests (json, json_nested, yaml, …); `[key]` otherwise. */
  path: string[];
  /** The source-language text, unescaped. For a plural entry: its `other` form. */
  source: string;
  /** Set when the entry is a plural: the source's forms by CLDR category (plural formats only). */
  plurals?: PluralForms;
  /** False for strings the file marks as not to be translated (Android translatable="false", xcstrings shouldTranslate). Default true. */
  translatable?: boolean;
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
  /** Translated value per entry key. Plural values have exactly the target locale's categories. */
  values: ReadonlyMap<string, Value>;
  /** What to do with an entry that has no value: keep the source bytes, or leave the entry out where the format allows. */
  missing: 'source' | 'omit';
  /** Target locale (BCP-47), for plural categories and locale headers or attributes the format carries. Default: the source locale. */
  locale?: string;
  /** Locale of the source file (BCP-47). Default 'en'. */
  sourceLocale?: string;
  /** What the source may inflate to, where the format is an archive (xlsx). Default: DEFAULT_ARCHIVE_LIMITS. */
  archive?: Readonly<ArchiveLimits>;
}

export interface ParseOptions {
  /**
   * What the file may inflate to, where the format is an archive (xlsx): limits, or the budget of the archive the file
   * was found in, spent together with it. Default: DEFAULT_ARCHIVE_LIMITS.
   */
  archive?: Readonly<ArchiveLimits> | ArchiveBudget;
  /**
   * How the json codecs read i18next plural suffixes (`items_one`, `items_other`, `place_ordinal_one`): by default a
   * family with an `_other` member is one plural entry; `i18next` makes every suffix family one; `none` keeps every
   * key on its own. Other codecs ignore it.
   */
  plurals?: 'i18next' | 'none';
}

export interface FreshEntry {
  key: string;
  value: Value;
  notes?: string;
}

export interface FreshOptions {
  /** Locale the file is written for (BCP-47). Default 'en'. */
  locale?: string;
}

export interface Codec {
  id: FormatId;
  /** File extensions this codec is usually found under, with the dot. */
  extensions: readonly string[];
  /** Whether the format can express plural forms; the service never gives plural values to a codec that cannot. */
  plurals: boolean;
  /**
   * How sure the codec is that a file with this name and content is in its format: 0 (no) to 1 (certain).
   * Used to detect a missing `format`; look at the name and the first bytes only, cheaply.
   */
  detect(fileName: string, head: string): number;
  /**
   * Parses a source file; throws FileUnparsableError naming line and column on malformed input (ArchiveLimitError, one
   * of them, for an archive past its limits).
   */
  parse(bytes: Uint8Array, options?: ParseOptions): Entry[];
  /**
   * Renders a target file from the source file's bytes by splicing values in at their offsets.
   * Rendering with every value equal to its source text (or with none and missing 'source')
   * returns the source bytes unchanged.
   */
  render(input: RenderInput): Uint8Array;
  /** Renders a new, conventionally formatted file from entries in the given order (keys pushed without a file). */
  renderFresh(entries: readonly FreshEntry[], options?: FreshOptions): Uint8Array;
}

