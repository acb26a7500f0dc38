/**
 * Angular's `$localize` tagged templates, read as @angular/localize's parseMessage reads them:
 * `` $localize`:meaning|description@@customId:Hello ${name}:userName:!` ``. The `@@id` is the key; without one Angular
 * computes the id from the text and meaning, which changes with every rewording, so such a message cannot be keyed
 * stably and is reported instead. The description (and the meaning) are the notes. An expression becomes the
 * placeholder `{name}` (the ICU-style named placeholder src/core/placeholders.ts protects), named by its `:name:` block,
 * else as Angular names it: PH, PH_1, PH_2, ….
 */
import type { Node, TemplateElement } from '@babel/types';
import { lineOf } from './ast.js';
import type { Found } from './key-use.js';

/** A leading `:block:` of a template part: its text (escaped colons unescaped) and the cooked text after it. */
function splitBlock(element: TemplateElement): { block: string | undefined; text: string } {
  const raw = element.value.raw;
  const cooked = element.value.cooked ?? raw;
  if (!raw.startsWith(':')) return { block: undefined, text: cooked };
  let block = '';
  let cookedLength = 1;
  for (let i = 1; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\' && i + 1 < raw.length) {
      block += raw[i + 1] === ':' ? ':' : raw.slice(i, i + 2);
      i++;
      cookedLength++;
      continue;
    }
    if (c === ':') return { block, text: cooked.slice(cookedLength + 1) };
    block += c;
    cookedLength++;
  }
  // No closing colon: Angular reads the whole part as text.
  return { block: undefined, text: cooked };
}

/** Angular's computePlaceholderName: the first expression is PH, the next PH_1, PH_2, …. */
const placeholderName = (index: number) => (index === 1 ? 'PH' : `PH_${index - 1}`);

export function readLocalize(node: Node, file: string, found: Found): void {
  if (node.type !== 'TaggedTemplateExpression' || node.tag.type !== 'Identifier' || node.tag.name !== '$localize') return;
  const parts = node.quasi.quasis;
  const head = splitBlock(parts[0]!);
  let text = head.text;
  for (let i = 1; i < parts.length; i++) {
    const part = splitBlock(parts[i]!);
    const name = part.block?.split('@@')[0] || placeholderName(i);
    text += `{${name}}${part.text}`;
  }
  const [meaningAndDescription = '', customId = ''] = (head.block ?? '').split('@@');
  const [meaning, description] = meaningAndDescription.includes('|') ? meaningAndDescription.split('|', 2) : [undefined, meaningAndDescription];
  // Legacy ids follow the custom id after U+241F; they are Angular's, not the key.
  const key = customId.split('\u241F')[0]!;
  const line = lineOf(node);
  if (key === '') {
    found.warnings.push({ file, line, message: `$localize\`${text.length > 60 ? `${text.slice(0, 57)}…` : text}\` without an @@id: Angular computes its id from the text, which changes with every rewording, so it cannot be keyed stably (add :@@your.id: before the text).` });
    return;
  }
  const notes = [description, meaning ? `Meaning: ${meaning}` : undefined].filter((note) => note !== undefined && note !== '').join(' ');
  found.uses.push({ key, ...(text ? { defaultText: text } : {}), ...(notes ? { notes } : {}), file, line, convention: 'angular' });
}
