/** Matching a remote system's language codes to the project's BCP-47 target locales, for every connector. */
import { checkLocale } from '../../src/core/locales/locales.js';

/** The same tag up to case and `_`/`-` (pt_BR = pt-BR), canonical where it is a valid BCP-47 tag. */
export function sameLocale(a: string, b: string): boolean {
  const canonical = (tag: string) => {
    const check = checkLocale(tag.replaceAll('_', '-'));
    return (check.ok ? check.tag : tag).toLowerCase();
  };
  return canonical(a) === canonical(b);
}

/**
 * Each project target locale's code in the remote system (through the connection's `locales` map first, then by
 * `sameLocale`), and the targets the remote system does not have.
 */
export function matchLocales(targets: readonly string[], remoteCodes: readonly string[], map: Record<string, string> | undefined): { codes: Map<string, string>; missing: string[] } {
  const codes = new Map<string, string>();
  const missing: string[] = [];
  for (const target of targets) {
    const wanted = map?.[target] ?? target;
    const code = remoteCodes.find((remote) => remote === wanted || sameLocale(remote, wanted));
    if (code) codes.set(target, code);
    else missing.push(target);
  }
  return { codes, missing };
}
