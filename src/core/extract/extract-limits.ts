/** How much code the extractor reads: the CLI and the connector check these before reading a file, the extractor again before parsing. */

export interface ExtractLimits {
  /** Files larger than this are skipped with a warning (minified bundles, generated code). */
  maxFileBytes: number;
  /** The most files one run reads; more is an error naming the count, so a narrower include is chosen. */
  maxFiles: number;
  /** The most bytes all files read together may hold. */
  maxTotalBytes: number;
}

export const DEFAULT_EXTRACT_LIMITS: Readonly<ExtractLimits> = Object.freeze({ maxFileBytes: 512 * 1024, maxFiles: 5000, maxTotalBytes: 64 * 1024 * 1024 });

/** The extensions the extractor reads: JavaScript and TypeScript with or without JSX, and Vue single-file components. */
export const CODE_EXTENSIONS: readonly string[] = ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts', '.vue'];

export function isCodeFile(path: string): boolean {
  return CODE_EXTENSIONS.some((extension) => path.endsWith(extension)) && !path.endsWith('.d.ts');
}

/** The code files read when none are named: application code under src/. */
export const DEFAULT_INCLUDE: readonly string[] = ['src/**/*.{js,jsx,ts,tsx,vue}'];
/** Files the globs match that are not application code: tests (which use keys of their own) and type declarations. */
export const DEFAULT_EXCLUDE: readonly string[] = ['**/*.{test,spec}.*', '**/__tests__/**', '**/*.d.ts'];
