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

/** What one structure segment says: a block opens with its first branch, the next branch starts, or the block ends. */
type Structure =
  | { readonly kind: 'head'; readonly argument: string; readonly type: IcuBlockType; readonly selector: string }
  | { readonly kind: 'next'; readonly selector: string }
  | { readonly kind: 'end' }
  | { readonly kind: 'other' };

// Structure segments repeat across messages (`} other {`, `{count, plural, one {`): each is read once. Cleared when
// full, which keeps a long-running server's memory bounded.
const MAX_CACHED_STRUCTURES = 4096;
const structures = new Map<string, Structure>();

function readStructure(value: string): Structure {
  const head = HEAD.exec(value);
  if (head) return { kind: 'head', argument: head[1] as string, type: head[2] as IcuBlockType, selector: selectorOf(head[3] as string) };
  const next = NEXT.exec(value);
  if (next) return { kind: 'next', selector: selectorOf(next[1] as string) };
  return { kind: END.test(value) ? 'end' : 'other' };
}

function structureOf(value: string): Structure {
  let structure = structures.get(value);
  if (!structure) {
    structure = readStructure(value);
    if (structures.size >= MAX_CACHED_STRUCTURES) structures.clear();
    structures.set(value, structure);
  }
  return structure;
}

// runGates hands the same source and target to four gates; remembering the last few texts saves re-tokenizing them.
// A ring scanned with `===` is cheaper here than a Map, which hashes every new string in full.
const MEMO_SIZE = 8;
const memoTexts: (string | undefined)[] = new Array<string | undefined>(MEMO_SIZE);
const memoEntries: { segments: readonly Segment[]; tree?: IcuMessage }[] = new Array(MEMO_SIZE);
let memoNext = 0;

function remembered(text: string): { segments: readonly Segment[]; tree?: IcuMessage } {
  // Newest first: the gates of one row ask for the texts it just added.
  for (let k = 1; k <= MEMO_SIZE; k++) {
    const i = (memoNext - k + MEMO_SIZE) % MEMO_SIZE;
    if (memoTexts[i] === text) return memoEntries[i] as { segments: readonly Segment[]; tree?: IcuMessage };
  }
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
  // Most messages have no plural or select: their one message is the segments as they are (`#` is ICU only in a plural).
  if (!segments.some((segment) => segment.kind === 'icu' && segment.value !== '#')) return { segments, blocks: [] };
  const root = emptyMessage();
  // Each entry is an open block and the message of its current branch.
  const stack: { block: MutableMessage['blocks'][number]; branch: MutableMessage }[] = [];
  let current = root;
  for (const segment of segments) {
    if (segment.kind !== 'icu' || segment.value === '#') {
      current.segments.push(segment);
      continue;
    }
    const structure = structureOf(segment.value);
    if (structure.kind === 'head') {
      const branch = emptyMessage();
      const block = { argument: structure.argument, type: structure.type, branches: [{ selector: structure.selector, message: branch }] };
      current.blocks.push(block);
      stack.push({ block, branch });
      current = branch;
      continue;
    }
    const top = stack[stack.length - 1];
    if (structure.kind === 'next' && top) {
      const branch = emptyMessage();
      top.block.branches.push({ selector: structure.selector, message: branch });
      top.branch = branch;
      current = branch;
    } else if (structure.kind === 'end' && top) {
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
