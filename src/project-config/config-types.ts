/** The shape of a parsed parlance.yml, apart from its parser, so the modules that use a config never import the parser back. */
/** How a file rule's i18next plural suffixes (`items_one`, `items_other`) are read: as one plural key, or as unrelated keys. */
export const PLURALS_MODES = ['i18next', 'none'] as const;
export type PluralsMode = (typeof PLURALS_MODES)[number];

/** Parlance locale (canonical BCP-47) → the name the repository's paths use for it (`de` → `de-DE`, `zh-Hans` → `zh_CN`). */
export type LanguagesMapping = Record<string, string>;

export interface FileRule {
  source: string;
  translation: string;
  format?: string;
  careful?: string[];
  /** Globs (the syntax of `source`) of files `source` matches that are not source files. */
  ignore?: string[];
  /** Over the config's own languages_mapping, for this rule's paths. */
  languages_mapping?: LanguagesMapping;
  plurals?: PluralsMode;
}

export interface ParlanceConfig {
  service?: string;
  source_locale?: string;
  locales?: string[];
  /** For every rule's paths; a rule's own languages_mapping overrides it locale by locale. */
  languages_mapping?: LanguagesMapping;
  files: FileRule[];
}
