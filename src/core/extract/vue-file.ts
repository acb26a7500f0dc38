/**
 * A Vue single-file component split into what holds code: its `<script>` and `<script setup>` blocks, and the
 * expressions of its `<template>` (mustaches `{{ … }}`, directive values of `:x`, `v-bind:x`, `v-x`, `@x`), each with
 * its offset in the file so that keys found in it get the file's own line numbers. The markup is scanned as Vue's own
 * tokenizer reads it (tags, quoted or bare attribute values, comments); the code inside is left to Babel.
 */

export interface VueScript {
  content: string;
  /** Offset of the content's first character in the file. */
  offset: number;
  lang: string | undefined;
}

export interface TemplateCode {
  /** `expression`: a binding or mustache; `handler`: an `@event` value (statements allowed); `v-t`: vue-i18n's directive. */
  kind: 'expression' | 'handler' | 'v-t';
  code: string;
  offset: number;
  /** How it is written, for messages: `{{ }}`, `:title`, `v-t`. */
  where: string;
}

export interface VueParts {
  scripts: VueScript[];
  template: { content: string; offset: number } | undefined;
}

// Attribute names and bare values hold no `<`: a stray `<a <a <a …` with no `>` then fails at the next `<`, not at the end of the file.
const OPEN_TAG = /<([A-Za-z][\w-]*)((?:\s+[^\s"'<>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/y;
const CLOSE_TAG = /<\/([A-Za-z][\w-]*)\s*>/y;
const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** The top-level blocks; a `<template>` ends at the `</template>` that closes it (templates nest), a script at its first `</script>`. */
export function splitVueFile(text: string): VueParts {
  const scripts: VueScript[] = [];
  let template: VueParts['template'];
  let i = 0;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      i = end < 0 ? text.length : end + 3;
      continue;
    }
    OPEN_TAG.lastIndex = lt;
    const open = OPEN_TAG.exec(text);
    if (!open) {
      i = lt + 1;
      continue;
    }
    const name = open[1]!.toLowerCase();
    const start = lt + open[0].length;
    if (open[3] === '/') {
      i = start;
      continue;
    }
    const end = name === 'template' ? closingTemplate(text, start) : text.indexOf(`</${name}`, start);
    const stop = end < 0 ? text.length : end;
    if (name === 'script') scripts.push({ content: text.slice(start, stop), offset: start, lang: attributes(open[2] ?? '').find((a) => a.name === 'lang')?.value });
    else if (name === 'template' && template === undefined) template = { content: text.slice(start, stop), offset: start };
    const close = text.indexOf('>', stop);
    i = close < 0 ? text.length : close + 1;
  }
  return { scripts, template };
}

function closingTemplate(text: string, from: number): number {
  let depth = 1;
  // `[^<>]`: a `<template` with no `>` fails at the next `<` rather than scanning on to the end of the file.
  const tags = /<(\/?)template\b[^<>]*?(\/?)>/gi;
  tags.lastIndex = from;
  for (let m = tags.exec(text); m; m = tags.exec(text)) {
    if (m[1] === '/') {
      if (--depth === 0) return m.index;
    } else if (m[2] !== '/') {
      depth++;
    }
  }
  return -1;
}

interface Attribute {
  name: string;
  value: string | undefined;
  /** Offset of the value within the attribute source string. */
  valueAt: number;
}

function attributes(source: string): Attribute[] {
  const found: Attribute[] = [];
  ATTRIBUTE.lastIndex = 0;
  for (let m = ATTRIBUTE.exec(source); m; m = ATTRIBUTE.exec(source)) {
    const value = m[2] ?? m[3] ?? m[4];
    const valueAt = value === undefined ? -1 : m.index + m[0].length - value.length - (m[4] === undefined ? 1 : 0);
    found.push({ name: m[1]!, value, valueAt });
  }
  return found;
}

/** Vue decodes these in attribute values before it compiles them; the same length is kept where it can be. */
function decodeEntities(value: string): string {
  return value.replace(/&(quot|amp|lt|gt|apos|#39);/g, (_, name: string) => ({ quot: '"', amp: '&', lt: '<', gt: '>', apos: "'", '#39': "'" })[name]!);
}

/** The code of a directive attribute, or undefined for plain attributes and those whose value is no expression (v-slot, v-for's alias). */
function directiveCode(name: string, value: string): { kind: TemplateCode['kind']; code: string } | undefined {
  if (name === 'v-t') return { kind: 'v-t', code: value };
  if (name.startsWith('@') || name.startsWith('v-on:') || name === 'v-on') return { kind: 'handler', code: value };
  if (name.startsWith('#') || name.startsWith('v-slot')) return undefined;
  if (name === 'v-for') {
    // `item in items` / `(item, i) of items`: only the right-hand side is an expression.
    const m = /\s(?:in|of)\s/.exec(value);
    return m ? { kind: 'expression', code: `${' '.repeat(m.index + m[0].length)}${value.slice(m.index + m[0].length)}` } : undefined;
  }
  if (name.startsWith(':') || name.startsWith('.') || name.startsWith('v-')) return { kind: 'expression', code: value };
  return undefined;
}

/** Every expression of a template: mustaches in text, directive values in tags; `v-pre` elements are left alone. */
export function templateCode(template: string, offset: number): TemplateCode[] {
  const found: TemplateCode[] = [];
  let i = 0;
  let pre: { name: string; depth: number } | undefined;
  while (i < template.length) {
    if (template.startsWith('<!--', i)) {
      const end = template.indexOf('-->', i + 4);
      i = end < 0 ? template.length : end + 3;
      continue;
    }
    if (template[i] === '<') {
      CLOSE_TAG.lastIndex = i;
      const close = CLOSE_TAG.exec(template);
      if (close) {
        if (pre && close[1] === pre.name && --pre.depth === 0) pre = undefined;
        i += close[0].length;
        continue;
      }
      OPEN_TAG.lastIndex = i;
      const open = OPEN_TAG.exec(template);
      if (open) {
        const source = open[2] ?? '';
        const sourceAt = i + 1 + open[1]!.length;
        const attrs = attributes(source);
        if (pre) {
          if (open[1] === pre.name && open[3] !== '/') pre.depth++;
        } else if (attrs.some((a) => a.name === 'v-pre')) {
          if (open[3] !== '/') pre = { name: open[1]!, depth: 1 };
        } else {
          for (const attribute of attrs) {
            if (attribute.value === undefined) continue;
            const code = directiveCode(attribute.name, decodeEntities(attribute.value));
            if (code) found.push({ ...code, offset: offset + sourceAt + attribute.valueAt, where: attribute.name });
          }
        }
        i += open[0].length;
        continue;
      }
    }
    if (!pre && template.startsWith('{{', i)) {
      const end = template.indexOf('}}', i + 2);
      if (end < 0) break;
      found.push({ kind: 'expression', code: template.slice(i + 2, end), offset: offset + i + 2, where: '{{ }}' });
      i = end + 2;
      continue;
    }
    i++;
  }
  return found;
}
