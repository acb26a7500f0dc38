// Unit tests for fuzzy translation-memory matching: token edit-distance scores, best-match selection, search words.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bestMatches, searchWords, similarity } from '../../src/core/similarity.js';

describe('similarity', () => {
  it.each<[string, string, number]>([
    // One word of four differs: the CAT-tool 75% match.
    ['Delete this file?', 'Delete this folder?', 0.75],
    ['The file could not be saved.', 'The file could not be opened.', 6 / 7],
    // Case is ignored word by word.
    ['DELETE THIS FOLDER?', 'Delete this file?', 0.75],
    // A placeholder is one token: only `{firstName}` vs `{lastName}` differs, not its braces or its letters.
    ['Hello {firstName}, welcome', 'Hello {lastName}, welcome', 0.75],
    ['%1$s of %2$s files', '%2$s of %1$s files', 0.5],
    ['Click <b>Save</b>', 'Click <i>Save</i>', 0.5],
    // Punctuation marks are tokens of their own.
    ['Save', 'Save!', 0.5],
    ['Saved', 'Saved...', 0.25],
    // Words, not characters: reordering two words changes both positions.
    ['file deleted', 'deleted file', 0],
    ["Don't save", 'Do not save', 1 / 3],
    // Han and Kana are written without spaces: each character is a token.
    ['文件已删除', '文件夹已删除', 5 / 6],
    ['', 'Anything', 0],
  ])('scores %j against %j as %d', (a, b, expected) => {
    expect(similarity(a, b)).toBeCloseTo(expected, 10);
    expect(similarity(b, a)).toBeCloseTo(expected, 10);
  });

  it('gives 1 only to identical text; case, spacing or Unicode form alone scores 0.99', () => {
    expect(similarity('Delete this file?', 'Delete this file?')).toBe(1);
    expect(similarity('', '')).toBe(1);
    expect(similarity('Delete this file?', 'delete this file?')).toBe(0.99);
    expect(similarity('Delete  this file?', 'Delete this file?')).toBe(0.99);
    expect(similarity('Caf\u00e9', 'Cafe\u0301')).toBe(0.99);
    expect(similarity(' ', '')).toBe(0.99);
  });

  it('keeps a placeholder apart from the same characters written as text', () => {
    // ICU `#` in a plural branch is the number; a literal '#' outside one is punctuation.
    expect(similarity('{n, plural, other {# items}}', '{n, plural, other {#items}}')).toBe(0.99);
    expect(similarity('Item {id}', 'Item { id }')).toBeLessThan(1);
    expect(similarity('Item :count', 'Item count')).toBe(0.5);
  });

  it('is symmetric, within 0..1, and 1 exactly for identical text (property)', () => {
    const piece = fc.constantFrom('Delete', 'delete', 'this', 'file', 'folder', '?', '!', ' ', '  ', '{name}', '%s', '<b>', '</b>', '文', '件', "don't");
    const text = fc.array(fc.oneof(piece, fc.string({ maxLength: 3 })), { maxLength: 10 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, (a, b) => {
        const score = similarity(a, b);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(1);
        expect(similarity(b, a)).toBe(score);
        expect(similarity(a, a)).toBe(1);
        if (a !== b) expect(score).toBeLessThan(1);
      }),
    );
  });
});

describe('bestMatches', () => {
  const memory = [
    { source: 'Delete this folder?', translation: 'Diesen Ordner löschen?' },
    { source: 'Rename this file?', translation: 'Diese Datei umbenennen?' },
    { source: 'Delete all files?', translation: 'Alle Dateien löschen?' },
    { source: 'Delete this file?', translation: 'Diese Datei löschen?' },
    { source: 'Sign in', translation: 'Anmelden' },
  ];

  it('returns the best matches first, at least `min`, at most `limit`', () => {
    expect(bestMatches('Delete this file?', memory)).toEqual([
      { source: 'Delete this file?', translation: 'Diese Datei löschen?', score: 1 },
      { source: 'Delete this folder?', translation: 'Diesen Ordner löschen?', score: 0.75 },
      { source: 'Rename this file?', translation: 'Diese Datei umbenennen?', score: 0.75 },
    ]);
    expect(bestMatches('Delete this file?', memory, { limit: 1 }).map((m) => m.score)).toEqual([1]);
    expect(bestMatches('Delete this file?', memory, { min: 0.5, limit: 10 }).map((m) => m.source)).toEqual([
      'Delete this file?',
      'Delete this folder?',
      'Rename this file?',
      'Delete all files?',
    ]);
    expect(bestMatches('Delete this file?', memory, { min: 0.8 }).map((m) => m.source)).toEqual(['Delete this file?']);
    expect(bestMatches('Export report', memory)).toEqual([]);
  });

  it('keeps the caller’s extra fields and leaves out repeated pairs', () => {
    const rows = [
      { id: 1, source: 'Open file', translation: 'Datei öffnen' },
      { id: 2, source: 'Open file', translation: 'Datei öffnen' },
      { id: 3, source: 'Open file', translation: 'Öffnen' },
    ];
    expect(bestMatches('Open files', rows, { min: 0 })).toEqual([
      { id: 1, source: 'Open file', translation: 'Datei öffnen', score: 0.5 },
      { id: 3, source: 'Open file', translation: 'Öffnen', score: 0.5 },
    ]);
  });

  it('refuses options outside their range, naming the value', () => {
    expect(() => bestMatches('a', memory, { min: 1.5 })).toThrow(new RangeError('Invalid minimum match score 1.5: expected a number from 0 to 1'));
    expect(() => bestMatches('a', memory, { min: Number.NaN })).toThrow(/^Invalid minimum match score NaN/);
    expect(() => bestMatches('a', memory, { limit: 2.5 })).toThrow(new RangeError('Invalid match limit 2.5: expected a whole number of at least 0'));
    expect(bestMatches('Sign in', memory, { limit: 0 })).toEqual([]);
  });

  it('agrees with scoring every candidate and sorting (property)', () => {
    const word = fc.constantFrom('delete', 'Delete', 'this', 'file', 'folder', 'all', '?', '{name}', 'the', 'open');
    const text = fc.array(word, { maxLength: 7 }).map((w) => w.join(' '));
    const candidate = fc.record({ source: text, translation: fc.constantFrom('x', 'y') });
    fc.assert(
      fc.property(text, fc.array(candidate, { maxLength: 12 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.nat(5), (source, candidates, min, limit) => {
        const seen = new Set<string>();
        const expected = candidates
          .filter((c) => !seen.has(`${c.source}|${c.translation}`) && seen.add(`${c.source}|${c.translation}`))
          .map((c) => ({ ...c, score: similarity(source, c.source) }))
          .filter((m) => m.score >= min)
          .sort((a, b) => b.score - a.score)
          .slice(0, limit);
        expect(bestMatches(source, candidates, { min, limit })).toEqual(expected);
      }),
    );
  });
});

describe('searchWords', () => {
  it('lists distinct lower-case words of three or more letters, longest first, without placeholders', () => {
    expect(searchWords("Delete {fileName} from the Trash? You can't undo this.")).toEqual(['delete', 'trash', 'from', 'undo', 'this', 'the', 'you', 'can']);
    expect(searchWords('Save SAVE save')).toEqual(['save']);
  });

  it('leaves out markup, splits at digits and reads ICU branch text', () => {
    expect(searchWords('<strong>Warning</strong>: disk full &amp; %1$s left')).toEqual(['warning', 'disk', 'full', 'left']);
    expect(searchWords('mp3player v2')).toEqual(['player']);
    expect(searchWords('{count, plural, one {# message} other {# messages}}')).toEqual(['messages', 'message']);
  });

  it('reads any alphabet but gives no words for Han and Kana text', () => {
    expect(searchWords('Öffnen Sie die Datei')).toEqual(['öffnen', 'datei', 'sie', 'die']);
    expect(searchWords('Удалить этот файл?')).toEqual(['удалить', 'этот', 'файл']);
    expect(searchWords('ファイルを削除しますか？')).toEqual([]);
    expect(searchWords('')).toEqual([]);
  });

  it('returns words that occur in the lower-cased text, distinct and longest first (property)', () => {
    const piece = fc.constantFrom('Delete', 'FILE', 'file', ' ', '{name}', '<b>', 'ab', "n't", 'Ünïcode', '3', 'über', '文字');
    const text = fc.array(fc.oneof(piece, fc.string({ maxLength: 4 })), { maxLength: 10 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (t) => {
        const words = searchWords(t);
        expect(new Set(words).size).toBe(words.length);
        for (const w of words) {
          expect(t.toLowerCase()).toContain(w);
          expect(w).toBe(w.toLowerCase());
          expect(w.match(/\p{L}/gu)?.length ?? 0).toBeGreaterThanOrEqual(3);
        }
        const lengths = words.map((w) => [...w].length);
        expect(lengths).toEqual([...lengths].sort((a, b) => b - a));
      }),
    );
  });
});
