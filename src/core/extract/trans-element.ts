/**
 * i18next's `<Trans i18nKey="key">Hello <strong>{{ name }}</strong>, <Link to="/">go</Link></Trans>`: the key, and
 * the children as the default text exactly as react-i18next's `nodesToString` writes them (its defaults
 * transSupportBasicHtmlNodes and transKeepBasicHtmlNodesFor `br strong i p`): an element with props becomes `<N>…</N>`
 * after its index among the children, a prop-less basic element keeps its tag, `{{ name }}` stays `{{name}}`. A
 * `defaults` prop is the default instead; without an `i18nKey`, i18next uses that default text as the key.
 */
import type { JSXAttribute, JSXElement, JSXFragment, Node } from '@babel/types';
import { lineOf, literalString } from './ast.js';
import type { Found } from './key-use.js';

const KEEP_BASIC = new Set(['br', 'strong', 'i', 'p']);

type Child = JSXElement['children'][number];

function elementName(node: JSXElement): string | undefined {
  const name = node.openingElement.name;
  if (name.type === 'JSXIdentifier') return name.name;
  if (name.type === 'JSXMemberExpression' && name.property.type === 'JSXIdentifier') return name.property.name;
  return undefined;
}

function attribute(node: JSXElement, name: string): JSXAttribute | undefined {
  return node.openingElement.attributes.find((a): a is JSXAttribute => a.type === 'JSXAttribute' && a.name.type === 'JSXIdentifier' && a.name.name === name);
}

/** An attribute's literal string value (`key="x"`, `key={'x'}`, key={`x`}); undefined when absent or computed. */
export function attributeString(node: JSXElement, name: string): { present: boolean; value: string | undefined } {
  const found = attribute(node, name);
  if (!found) return { present: false, value: undefined };
  const value = found.value;
  if (value?.type === 'StringLiteral') return { present: true, value: value.value };
  if (value?.type === 'JSXExpressionContainer') return { present: true, value: literalString(value.expression) };
  return { present: true, value: undefined };
}

/** JSX text as React sees it: lines trimmed where they meet a line break, blank lines dropped, the rest joined by spaces. */
function jsxText(value: string): string {
  const lines = value.split(/\r\n|\n|\r/);
  let lastNonEmpty = -1;
  lines.forEach((line, i) => {
    if (/[^ \t]/.test(line)) lastNonEmpty = i;
  });
  let text = '';
  lines.forEach((line, i) => {
    let trimmed = line.replace(/\t/g, ' ');
    if (i !== 0) trimmed = trimmed.replace(/^[ ]+/, '');
    if (i !== lines.length - 1) trimmed = trimmed.replace(/[ ]+$/, '');
    if (trimmed) text += i === lastNonEmpty ? trimmed : `${trimmed} `;
  });
  return text;
}

/** The children React passes on: whitespace-only text and `{/* comments *\/}` are not children. */
function reactChildren(children: Child[]): (Child | string)[] {
  const out: (Child | string)[] = [];
  for (const child of children) {
    if (child.type === 'JSXText') {
      const text = jsxText(child.value);
      if (text !== '') out.push(text);
    } else if (child.type === 'JSXExpressionContainer' && child.expression.type === 'JSXEmptyExpression') {
      continue;
    } else {
      out.push(child);
    }
  }
  return out;
}

/** nodesToString; throws a message naming what it cannot render (a variable child: i18next warns and drops it). */
function nodesToString(children: Child[]): string {
  let out = '';
  reactChildren(children).forEach((child, index) => {
    if (typeof child === 'string') {
      out += child;
      return;
    }
    if (child.type === 'JSXElement' || child.type === 'JSXFragment') {
      const type = child.type === 'JSXElement' ? elementName(child) : undefined;
      const props = child.type === 'JSXElement' ? child.openingElement.attributes.length : 0;
      const inner = reactChildren(child.children);
      const propsCount = props + (inner.length > 0 ? 1 : 0);
      const keep = type !== undefined && KEEP_BASIC.has(type);
      if (inner.length === 0 && keep && propsCount === 0) out += `<${type}/>`;
      else if (inner.length === 0) out += `<${index}></${index}>`;
      else if (keep && propsCount === 1 && inner.length === 1 && typeof inner[0] === 'string') out += `<${type}>${inner[0]}</${type}>`;
      else out += `<${index}>${nodesToString((child as JSXElement | JSXFragment).children)}</${index}>`;
      return;
    }
    if (child.type === 'JSXExpressionContainer') {
      const expression = child.expression;
      const text = literalString(expression);
      if (text !== undefined) {
        out += text;
        return;
      }
      // `{{ name }}` or `{{ count, format }}`-style objects: one interpolation; i18next's `format` member joins after a comma.
      if (expression.type === 'ObjectExpression') {
        const names = expression.properties.map((p) => (p.type === 'ObjectProperty' && !p.computed && p.key.type === 'Identifier' ? p.key.name : undefined));
        const format = expression.properties.find((p) => p.type === 'ObjectProperty' && !p.computed && p.key.type === 'Identifier' && p.key.name === 'format');
        const plain = names.filter((n) => n !== undefined && n !== 'format');
        if (plain.length === 1 && names.every((n) => n !== undefined)) {
          const formatValue = format?.type === 'ObjectProperty' ? literalString(format.value) : undefined;
          out += `{{${plain[0]}${formatValue !== undefined ? `, ${formatValue}` : ''}}}`;
          return;
        }
      }
      throw new Error(`a child expression at line ${lineOf(child)} that is not {{ name }}`);
    }
    throw new Error(`a ${child.type} child at line ${lineOf(child)}`);
  });
  return out;
}

export function readTransElement(node: Node, file: string, found: Found): void {
  if (node.type !== 'JSXElement' || elementName(node) !== 'Trans') return;
  const line = lineOf(node);
  const key = attributeString(node, 'i18nKey');
  const defaults = attributeString(node, 'defaults');
  let defaultText = defaults.value;
  let problem: string | undefined;
  if (defaultText === undefined && node.children.length > 0) {
    try {
      defaultText = nodesToString(node.children);
    } catch (error) {
      problem = (error as Error).message;
    }
  }
  if (key.present && key.value === undefined) {
    found.warnings.push({ file, line, message: '<Trans> with a dynamic i18nKey: not extracted (only literal keys are).' });
    return;
  }
  const name = key.value ?? defaultText;
  if (name === undefined || name === '') {
    found.warnings.push({ file, line, message: `<Trans> without an i18nKey${problem ? `, and its children hold ${problem}` : ' or children'}: not extracted (give it an i18nKey).` });
    return;
  }
  if (problem) found.warnings.push({ file, line, message: `<Trans i18nKey="${name}">: no default text taken, its children hold ${problem} (i18next drops such children too).` });
  found.uses.push({ key: name, ...(defaultText ? { defaultText } : {}), file, line, convention: 'i18next' });
}
