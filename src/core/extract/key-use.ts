/** What the extractor finds in code: each use of a translation key, and what it could not read (a dynamic key, a file skipped). */

/** The library convention a use was written in, for the report and the notes. */
export type Convention = 'i18next' | 'vue-i18n' | 'react-intl' | 'angular';

/** One literal key used at one place in the code. */
export interface KeyUse {
  key: string;
  /** The default text the code gives (`t('key', 'Default')`, `defaultMessage`, `<Trans>` children), if any. */
  defaultText?: string;
  /** A description for translators (react-intl `description`, `$localize`'s `meaning|description`). */
  notes?: string;
  /** Repository-relative posix path. */
  file: string;
  /** 1-based. */
  line: number;
  convention: Convention;
}

/** Something the extractor reports instead of guessing: a dynamic key, an unparsable or oversized file. */
export interface ExtractWarning {
  file: string;
  /** 1-based; null when the problem is the whole file (too large). */
  line: number | null;
  message: string;
}

/** A file's text for the extractor, with its repository-relative posix path. */
export interface SourceText {
  path: string;
  text: string;
}

/** What one call of a convention's reader adds to. */
export interface Found {
  uses: KeyUse[];
  warnings: ExtractWarning[];
}
