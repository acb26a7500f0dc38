/** Pure helpers of the pull: where a locale's file goes, derived from the source file's path. */
import { variableValues } from '../../src/core/path-templates.js';

/** An Android resource file of the default locale: `…/values/strings.xml`. */
const ANDROID_DEFAULT_VALUES = /(^|\/)values\/([^/]+\.xml)$/;

/**
 * The target file's path: an Android resource file in `values/` goes to `values-<qualifier>/` (`values-de`,
 * `values-pt-rBR`, `values-b+sr+Latn`), as Android looks it up; otherwise path segments or file-name stems spelled as
 * the source locale (`en`, `en-US`, `en_US`) are respelled for the target, and a path with no locale in it gets a
 * `<locale>/` folder in front.
 */
export function targetPath(sourcePath: string, sourceLocale: string, targetLocale: string, extension: string): string {
  if (sourcePath === '') return `${targetLocale}${extension}`;
  if (ANDROID_DEFAULT_VALUES.test(sourcePath)) {
    return sourcePath.replace(ANDROID_DEFAULT_VALUES, (_, lead: string, file: string) => `${lead}values-${variableValues(sourcePath, targetLocale).android_locale}/${file}`);
  }
  const spellings = new Set([sourceLocale, sourceLocale.replace(/-/g, '_')].map((s) => s.toLowerCase()));
  const parts = sourcePath.split('/');
  let replaced = false;
  const out = parts.map((part, index) => {
    const isFile = index === parts.length - 1;
    const dot = isFile ? part.indexOf('.') : -1;
    const stem = dot > 0 ? part.slice(0, dot) : part;
    const rest = dot > 0 ? part.slice(dot) : '';
    if (spellings.has(stem.toLowerCase())) {
      replaced = true;
      return respell(stem, targetLocale) + rest;
    }
    return part;
  });
  return replaced ? out.join('/') : `${targetLocale}/${sourcePath}`;
}

/** Keeps the source's separator style: `en_US` → `pt_BR`, `en-US` → `pt-BR`. */
function respell(stem: string, target: string): string {
  return stem.includes('_') ? target.replace(/-/g, '_') : target;
}
