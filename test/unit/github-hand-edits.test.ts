/** Which values of a managed translation file count as a person's hand edits in one push (issue 30, items 4 and 5). */
import { describe, expect, it } from 'vitest';
import { jsonCodec } from '../../src/core/formats/index.js';
import { handEdits, newestParlanceCommit } from '../../server/github-app/handlers/hand-edits.js';
import { pushedBranchRole } from '../../server/github-app/handlers/push.js';

const file = (value: Record<string, string>) => new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);
const keys = (entries: { key: string; source: string }[]) => entries.map((e) => `${e.key}=${e.source}`);

describe('handEdits against the file before the push', () => {
  // main's German file lags behind the open pull request for cart.empty; the person edits cart.title only.
  const before = file({ 'cart.title': 'de: YOUR CART', 'cart.empty': 'de: YOUR CART IS EMPTY (old source)' });
  const after = file({ 'cart.title': 'Ihr Warenkorb', 'cart.empty': 'de: YOUR CART IS EMPTY (old source)' });

  it('takes only the keys whose value the push changed, never the lagging ones', () => {
    expect(keys(handEdits(jsonCodec, after, [before]))).toEqual(['cart.title=Ihr Warenkorb']);
    expect(handEdits(jsonCodec, before, [before])).toEqual([]);
  });

  it('counts every value of a file the push added, unless the App wrote it', () => {
    expect(keys(handEdits(jsonCodec, after, [null]))).toEqual(['cart.title=Ihr Warenkorb', 'cart.empty=de: YOUR CART IS EMPTY (old source)']);
    // Added by merging the translation pull request: the App's commit holds the same values.
    expect(handEdits(jsonCodec, after, [null, after])).toEqual([]);
  });

  it("a merge of the translation pull request brings the App's values, not hand edits; a fix made while merging is one", () => {
    const app = file({ 'cart.title': 'de: YOUR CART', 'cart.empty': 'de: NOTHING IN YOUR CART YET' });
    const merged = file({ 'cart.title': 'de: YOUR CART', 'cart.empty': 'de: NOTHING IN YOUR CART YET' });
    expect(handEdits(jsonCodec, merged, [before, app])).toEqual([]);
    const fixed = file({ 'cart.title': 'Ihr Korb', 'cart.empty': 'de: NOTHING IN YOUR CART YET' });
    expect(keys(handEdits(jsonCodec, fixed, [before, app]))).toEqual(['cart.title=Ihr Korb']);
  });

  it('still takes one rendered file, as before', () => {
    expect(keys(handEdits(jsonCodec, after, before))).toEqual(['cart.title=Ihr Warenkorb']);
  });
});

describe('newestParlanceCommit', () => {
  it("finds the newest commit of the push carrying the batch trailer (a merge's App commit, a squash's bullet list)", () => {
    const commits = [
      { id: 'a'.repeat(40), message: 'Update translations from Parlance batch bat_1\n\nde: 3 translated\n\nParlance-Batch: bat_1' },
      { id: 'b'.repeat(40), message: 'Update translations from Parlance batch bat_2\n\nParlance-Batch: bat_2' },
      { id: 'c'.repeat(40), message: "Merge pull request #1 from acme/parlance/main\n\nParlance: update translations for main" },
    ];
    expect(newestParlanceCommit(commits)).toBe('b'.repeat(40));
    expect(newestParlanceCommit([{ id: 'd'.repeat(40), message: 'Parlance: update translations (#1)\n\n* Update translations\n\nParlance-Batch: bat_3\n\n* Fix' }])).toBe('d'.repeat(40));
    expect(newestParlanceCommit([{ id: 'e'.repeat(40), message: 'Fix the German title' }])).toBeUndefined();
    // Mentioning the trailer inside a sentence is no trailer.
    expect(newestParlanceCommit([{ id: 'f'.repeat(40), message: 'Explain the Parlance-Batch: trailer in the docs' }])).toBeUndefined();
  });
});

describe('pushedBranchRole', () => {
  it('tells the base branch and its translation branch from any other', () => {
    expect(pushedBranchRole({ base_branch: 'main' }, 'main')).toBe('base');
    expect(pushedBranchRole({ base_branch: 'main' }, 'parlance/main')).toBe('translation');
    expect(pushedBranchRole({ base_branch: 'main' }, 'parlance/develop')).toBeNull();
    expect(pushedBranchRole({ base_branch: 'release/2' }, 'parlance/release/2')).toBe('translation');
  });
});
