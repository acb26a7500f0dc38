/**
 * react-intl / FormatJS message descriptors `{ id, defaultMessage, description }`: in `defineMessages({ name: {…} })`,
 * `defineMessage({…})`, `intl.formatMessage({…})` (or a bare `formatMessage`) and `<FormattedMessage id=… />`. The
 * description is the translator's note. A descriptor passed by reference (`formatMessage(messages.title)`) is read
 * where it is defined. A descriptor without an id gets one from FormatJS's build tooling (a hash of its text), which
 * changes with every rewording: it cannot be keyed stably, so it is reported, not extracted.
 */
import type { Expression, JSXElement, Node, ObjectExpression } from '@babel/types';
import { dottedName, lineOf, literalString, propertyValue } from './ast.js';
import type { Found } from './key-use.js';
import { attributeString } from './trans-element.js';

/** A description is a string, or an object of strings (FormatJS allows any object): flattened to `name: value` pairs. */
function descriptionText(node: Expression | undefined): string | undefined {
  const text = literalString(node);
  if (text !== undefined || node?.type !== 'ObjectExpression') return text;
  const pairs = node.properties.flatMap((p) => (p.type === 'ObjectProperty' && p.key.type === 'Identifier' && literalString(p.value) !== undefined ? [`${p.key.name}: ${literalString(p.value)}`] : []));
  return pairs.length > 0 ? pairs.join('; ') : undefined;
}

function readDescriptor(descriptor: ObjectExpression, what: string, file: string, found: Found): void {
  const line = lineOf(descriptor);
  const idNode = propertyValue(descriptor, 'id');
  const key = literalString(idNode);
  if (key === undefined || key === '') {
    const message =
      idNode === undefined
        ? `${what} without an id: FormatJS would generate one from a hash of its text, which changes with every rewording, so it cannot be keyed stably (give it an id).`
        : `${what} with a dynamic id: not extracted (only literal ids are).`;
    found.warnings.push({ file, line, message });
    return;
  }
  const defaultText = literalString(propertyValue(descriptor, 'defaultMessage'));
  const notes = descriptionText(propertyValue(descriptor, 'description'));
  found.uses.push({ key, ...(defaultText ? { defaultText } : {}), ...(notes ? { notes } : {}), file, line, convention: 'react-intl' });
}

function calleeName(node: Node): string | undefined {
  return dottedName(node)?.split('.').pop();
}

export function readReactIntl(node: Node, file: string, found: Found): void {
  if (node.type === 'CallExpression') {
    const name = calleeName(node.callee);
    const first = node.arguments[0];
    if (first?.type !== 'ObjectExpression') return;
    if (name === 'defineMessages') {
      for (const property of first.properties) {
        if (property.type === 'ObjectProperty' && property.value.type === 'ObjectExpression') readDescriptor(property.value, 'A message of defineMessages', file, found);
      }
    } else if (name === 'defineMessage' || name === 'formatMessage') {
      readDescriptor(first, `${name}({…})`, file, found);
    }
    return;
  }
  if (node.type === 'JSXElement') {
    const element = node as JSXElement;
    const name = element.openingElement.name;
    if (name.type !== 'JSXIdentifier' || name.name !== 'FormattedMessage') return;
    const line = lineOf(node);
    const id = attributeString(element, 'id');
    if (id.value === undefined || id.value === '') {
      found.warnings.push({ file, line, message: id.present ? '<FormattedMessage> with a dynamic id: not extracted (only literal ids are).' : '<FormattedMessage> without an id: FormatJS would generate one from a hash of its text, so it cannot be keyed stably (give it an id).' });
      return;
    }
    const defaultText = attributeString(element, 'defaultMessage').value;
    const notes = attributeString(element, 'description').value;
    found.uses.push({ key: id.value, ...(defaultText ? { defaultText } : {}), ...(notes ? { notes } : {}), file, line, convention: 'react-intl' });
  }
}
