/** What the conventions share over Babel's AST: a walk over every node, literal values, and where a node is. */
import type { Expression, Node, ObjectExpression, ObjectProperty } from '@babel/types';
import type { Found } from './key-use.js';

/** A convention's reader: looks at one node and adds the keys (or warnings) it finds there. */
export type NodeReader = (node: Node, file: string, found: Found) => void;

/** Node members that hold positions or comments, never code. */
const SKIPPED = new Set(['loc', 'start', 'end', 'extra', 'leadingComments', 'trailingComments', 'innerComments', 'comments', 'tokens', 'errors']);

/** Calls `visit` on `root` and every node under it, parents before children, in source order. */
export function walk(root: Node, visit: (node: Node) => void): void {
  // An explicit stack: a deeply nested file (generated code) cannot overflow the call stack.
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    visit(node);
    const children: Node[] = [];
    for (const [name, value] of Object.entries(node)) {
      if (SKIPPED.has(name) || value === null || typeof value !== 'object') continue;
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) children.push(item);
      } else if (isNode(value)) {
        children.push(value);
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** The 1-based line a node starts on (Babel counts from the `startLine` it was given). */
export function lineOf(node: Node): number {
  return node.loc?.start.line ?? 1;
}

/** A string literal's value, or a template literal's without expressions; undefined for anything computed. */
export function literalString(node: Node | null | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'StringLiteral') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** The name an object property is written under (`id`, `'id'`), undefined for a computed one. */
export function propertyName(property: ObjectProperty): string | undefined {
  if (property.computed) return literalString(property.key);
  if (property.key.type === 'Identifier') return property.key.name;
  return literalString(property.key);
}

/** The value of `name` in an object literal, undefined when it has no such plain property. */
export function propertyValue(object: ObjectExpression, name: string): Expression | undefined {
  for (const property of object.properties) {
    if (property.type === 'ObjectProperty' && propertyName(property) === name) return property.value as Expression;
  }
  return undefined;
}

/** `a.b.c` for a chain of plain member accesses on an identifier (or `this`), undefined for anything else. */
export function dottedName(node: Node): string | undefined {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'ThisExpression') return 'this';
  if ((node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression') && !node.computed && node.property.type === 'Identifier') {
    const object = dottedName(node.object);
    return object === undefined ? undefined : `${object}.${node.property.name}`;
  }
  return undefined;
}
