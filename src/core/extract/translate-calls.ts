/**
 * The translate calls of i18next and vue-i18n, which share one shape: `t('key')`, `t('key', 'Default')`,
 * `t('key', { defaultValue: 'Default' })` (i18next's option), `i18n.t(…)`, `i18next.t(…)`, and vue-i18n's `$t`, `$tc`,
 * `this.$t`, `i18n.global.t`. A `t` from `useTranslation()` or `useI18n()` is the plain `t` here: which library a bare
 * `t` belongs to does not change the key, so the file decides the name shown (a .vue file: vue-i18n).
 */
import type { CallExpression, Node } from '@babel/types';
import { dottedName, lineOf, literalString, propertyValue } from './ast.js';
import type { Convention, Found } from './key-use.js';

/** Callees that are i18next's (or either library's) translate function. */
const SHARED = new Set(['t', 'i18n.t', 'i18next.t']);
/** Callees only vue-i18n has. */
const VUE = new Set(['$t', '$tc', 'i18n.global.t', 'i18n.global.tc']);

function conventionOf(callee: Node, file: string): Convention | undefined {
  const name = dottedName(callee);
  if (name === undefined) return undefined;
  if (VUE.has(name) || name.endsWith('.$t') || name.endsWith('.$tc')) return 'vue-i18n';
  if (SHARED.has(name)) return file.endsWith('.vue') ? 'vue-i18n' : 'i18next';
  return undefined;
}

export function readTranslateCall(node: Node, file: string, found: Found): void {
  if (node.type !== 'CallExpression' && node.type !== 'OptionalCallExpression') return;
  const convention = conventionOf(node.callee, file);
  if (convention === undefined) return;
  const [first, second] = (node as CallExpression).arguments;
  if (first === undefined) return;
  const key = literalString(first);
  const name = dottedName(node.callee);
  if (key === undefined || key === '') {
    found.warnings.push({ file, line: lineOf(node), message: `${name}(…) with a ${key === '' ? 'empty' : 'dynamic'} key: not extracted (only literal keys are; list the keys it can take where a literal names them).` });
    return;
  }
  let defaultText: string | undefined;
  if (second !== undefined) {
    defaultText = literalString(second);
    if (defaultText === undefined && second.type === 'ObjectExpression') defaultText = literalString(propertyValue(second, 'defaultValue'));
  }
  found.uses.push({ key, ...(defaultText !== undefined && defaultText !== '' ? { defaultText } : {}), file, line: lineOf(node), convention });
}
