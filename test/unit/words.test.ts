/** Word counting per the documented rule, across scripts and placeholder syntaxes. */
import { describe, expect, it } from 'vitest';
import { WORD_COUNT_RULE, countWords } from '../../src/core/words.js';

describe('countWords', () => {
  it.each([
    ['', 0],
    ['   \n\t ', 0],
    ['Hello', 1],
    ['Hello world', 2],
    ['  Hello   world  \n again ', 3],
    ["Don't save e-mail drafts", 4],
    ['Version 2.0 released', 3],
    ['— ... !!! ?', 0],
    ['Save — Cancel', 2],
    ['Größe ändern', 2],
    ['Привет, мир!', 2],
    ['مرحبا بالعالم', 2],
    ['नमस्ते दुनिया', 2],
  ])('%j → %i', (text, words) => {
    expect(countWords(text)).toBe(words);
  });

  it('does not count placeholders or markup', () => {
    expect(countWords('Hello {name}')).toBe(1);
    expect(countWords('{{count}} %d %1$s :name %{x} {0}')).toBe(0);
    expect(countWords('Welcome, :name! You have %d new <b>messages</b>.')).toBe(5);
    expect(countWords('Read the <a href="https://example.com/very long attribute">terms</a> &amp; conditions')).toBe(4);
  });

  it('treats a placeholder or tag as a word break', () => {
    expect(countWords('Line one<br/>Line two')).toBe(4);
    expect(countWords('{count}files')).toBe(1);
  });

  it('counts the text of every ICU branch but not the syntax or #', () => {
    expect(countWords('{count, plural, one {# file} other {# files}}')).toBe(2);
    expect(countWords('{g, select, male {He replied} female {She replied} other {They replied}}')).toBe(6);
    expect(countWords('You have {n, number} items')).toBe(3);
  });

  it('counts CJK characters one word each', () => {
    expect(countWords('日本語')).toBe(3);
    expect(countWords('ひらがな')).toBe(4);
    expect(countWords('カタカナ')).toBe(4);
    expect(countWords('ｶﾀｶﾅ')).toBe(4);
    expect(countWords('コーヒー')).toBe(4);
    expect(countWords('设置已保存。')).toBe(5);
    expect(countWords('한국어 문장')).toBe(5);
  });

  it('mixes CJK characters and space-separated words', () => {
    expect(countWords('iPhone用のアプリ')).toBe(6);
    expect(countWords('{name}さん、こんにちは')).toBe(7);
    expect(countWords('Open 设置 now')).toBe(4);
  });

  it('documents the rule', () => {
    expect(WORD_COUNT_RULE).toMatch(/Han/);
    expect(WORD_COUNT_RULE).toMatch(/whitespace/);
    expect(WORD_COUNT_RULE).not.toContain('\n');
  });
});
