/** How the console writes numbers, dates, errors and text direction. */
import { ApiError, NetworkError } from '../../../src/client/client.js';
import type { GateFailure } from '../../../src/client/types.js';
import { localeDisplayName } from '../../../src/core/locales/locales.js';

const numbers = new Intl.NumberFormat('en');
const dates = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

export const formatNumber = (n: number): string => numbers.format(n);

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : dates.format(time);
}

export function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;
}

/** The sentence to show for a failed request: the service's own `detail` whenever there is one. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.detail;
  if (error instanceof NetworkError) return `Could not reach the service: ${error.message}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

export function errorCode(error: unknown): string | undefined {
  return error instanceof ApiError ? error.code : undefined;
}

/** The gate failures a 422 gate_refused problem lists. */
export function refusalFailures(error: unknown): GateFailure[] {
  if (!(error instanceof ApiError)) return [];
  const body = error.body as { failures?: unknown } | null;
  return Array.isArray(body?.failures) ? (body.failures as GateFailure[]) : [];
}

// Scripts written right to left (ISO 15924). Intl.Locale#maximize supplies the likely script of a bare language tag.
const RTL_SCRIPTS: ReadonlySet<string> = new Set(['Arab', 'Hebr', 'Thaa', 'Syrc', 'Nkoo', 'Adlm', 'Rohg', 'Mand', 'Samr', 'Mend', 'Yezi', 'Aran']);
const RTL_LANGUAGES: ReadonlySet<string> = new Set(['ar', 'he', 'iw', 'fa', 'ur', 'ps', 'sd', 'ug', 'yi', 'dv', 'ckb', 'syr', 'ks', 'arc', 'nqo', 'prs', 'lrc', 'mzn', 'glk', 'pnb']);

/** 'rtl' for locales written right to left (ar, he, fa, ur, …; also e.g. 'az-Arab'), else 'ltr'. */
export function localeDirection(tag: string): 'ltr' | 'rtl' {
  try {
    const locale = new Intl.Locale(tag);
    const script = locale.script ?? locale.maximize().script;
    if (script !== undefined) return RTL_SCRIPTS.has(script) ? 'rtl' : 'ltr';
    return RTL_LANGUAGES.has(locale.language) ? 'rtl' : 'ltr';
  } catch {
    return RTL_LANGUAGES.has(tag.split('-')[0]?.toLowerCase() ?? '') ? 'rtl' : 'ltr';
  }
}

/** "de — German" */
export function localeLabel(tag: string): string {
  const name = localeDisplayName(tag);
  return name ? `${tag} — ${name}` : tag;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}
