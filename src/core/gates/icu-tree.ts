/** The plural/select tree of a message, rebuilt from the tokenizer's segments so the gates read ICU exactly as masking does. */
import { tokenize, type Segment } from '../placeholders.js';

export type IcuBlockType = 'plural' | 'selectordinal' | 'select';

export interface IcuBranch {
  /** As written, with spaces inside `= 1` removed: `one`, `=0`, `female`. */
  readonly selector: string;
  readonly message: IcuMessage;
}

export interface IcuBlock {
  readonly argument: string;
  readonly type: IcuBlockType;
  readonly branches: readonly IcuBranch[];
}

export interface IcuMessage {
  /** Text, placeholder and markup segments directly in this message, outside nested blocks; `#` stays as an `icu` segment. */
  readonly segments: readonly Segment[];
  readonly blocks: readonly IcuBlock[];
}

const SELECTOR = String.raw`(=\s*-?\d+(?:\.\d+)?|[\p{L}_][\p{L}\p{N}_-]*)`;
// The tokenizer emits a block's structure as these three shapes: head with the first selector, `} next {`, and `}}`.
const HEAD = new RegExp(String.raw`^\{\s*([\p{L}\p{N}_$][\p{L}\p{N}_$.-]*)\s*,\s*(plural|selectordinal|select)\s*,\s*(?:offset\s*:\s*\d+\s*)?${SELECTOR}\s*\{$`, 'u');
const NEXT = new RegExp(String.raw`^\}\s*${SELECTOR}\s*\{$`, 'u');
const END = /^\}\s*\}$/;

interface MutableMessage {
  segments: Segment[];
  blocks: { argument: string; type: IcuBlockType; branches: IcuBranch[] }[];
}

const emptyMessage = (): MutableMessage => ({ segments: [], blocks: [] });
const selectorOf = (raw: string): string => raw.replace(/\s+/g, '');

// runGates hands the same source and target to four gates; remembering the last few texts saves re-tokenizing them.
// A ring scanned with `===` is cheaper here than a Map, which hashes every new string in full.
const MEMO_SIZE = 8;
const memoTexts: (string | undefined)[] = new Array<string | undefined>(MEMO_SIZE);
const memoEntries: { segments: readonly Segment[]; tree?: IcuMessage }[] = new Array(MEMO_SIZE);
let memoNext = 0;

function remembered(text: string): { segments: readonly Segment[]; tree?: IcuMessage } {
  for (let i = 0; i < MEMO_SIZE; i++) if (memoTexts[i] === text) return memoEntries[i] as { segments: readonly Segment[]; tree?: IcuMessage };
  const entry = { segments: tokenize(text) };
  memoTexts[memoNext] = text;
  memoEntries[memoNext] = entry;
  memoNext = (memoNext + 1) % MEMO_SIZE;
  return entry;
}

/** The tokenizer's segments of `text` (shared: callers must not modify them). */
export function segmentsOf(text: string): readonly Segment[] {
  return remembered(text).segments;
}

/**
 * The block tree of `text`. Text that is not well-formed ICU (unbalanced braces) has no blocks: the tokenizer reads
 * it as literal text, which is also how masking and the provider see it.
 */
export function icuTree(text: string): IcuMessage {
  const entry = remembered(text);
  entry.tree ??= buildTree(entry.segments);
  return entry.tree;
}

function buildTree(segments: readonly Segment[]): IcuMessage {
  const root = emptyMessage();
  // Each entry is an open block and the message of its current branch.
  const stack: { block: MutableMessage['blocks'][number]; branch: MutableMessage }[] = [];
  let current = root;
  for (const segment of segments) {
    if (segment.kind !== 'icu' || segment.value === '#') {
      current.segments.push(segment);
      continue;
    }
    const head = HEAD.exec(segment.value);
    if (head) {
      const branch = emptyMessage();
      const block = { argument: head[1] as string, type: head[2] as IcuBlockType, branches: [{ selector: selectorOf(head[3] as string), message: branch }] };
      current.blocks.push(block);
      stack.push({ block, branch });
      current = branch;
      continue;
    }
    const next = NEXT.exec(segment.value);
    const top = stack[stack.length - 1];
    if (next && top) {
      const branch = emptyMessage();
      top.block.branches.push({ selector: selectorOf(next[1] as string), message: branch });
      top.branch = branch;
      current = branch;
    } else if (END.test(segment.value) && top) {
      stack.pop();
      current = stack[stack.length - 1]?.branch ?? root;
    } else {
      // Unreachable with the current tokenizer; kept as text rather than thrown so a tokenizer change degrades softly.
      current.segments.push({ kind: 'text', value: segment.value });
    }
  }
  return root;
}

/** Every block of the tree, nested ones included, depth first. */
export function allBlocks(message: IcuMessage): IcuBlock[] {
  const out: IcuBlock[] = [];
  const visit = (m: IcuMessage): void => {
    for (const block of m.blocks) {
      out.push(block);
      for (const branch of block.branches) visit(branch.message);
    }
  };
  visit(message);
  return out;
}
