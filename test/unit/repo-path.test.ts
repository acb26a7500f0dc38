/** The repository path rule: every way a path can leave the repository or confuse what reads it, refused with a message naming the problem. */
import { describe, expect, it } from 'vitest';
import { MAX_REPO_PATH_BYTES, RepoPathError, repoPath, repoPathProblem } from '../../src/core/repo-path.js';
import { templatePathProblem, translationPath } from '../../src/core/path-templates.js';

function refusal(value: string): RepoPathError {
  try {
    repoPath(value);
  } catch (error) {
    if (error instanceof RepoPathError) return error;
    throw error;
  }
  throw new Error(`'${value}' was accepted`);
}

describe('repoPath', () => {
  it('returns normalised relative POSIX paths as they are', () => {
    for (const path of ['en.json', 'locales/en.json', 'app/src/main/res/values-b+sr+Latn/strings.xml', '.github/parlance.yml', 'a/.hidden/...json', 'ü/日本語/ファイル.json', 'ab:c/x.json']) {
      expect(repoPath(path)).toBe(path);
    }
  });

  it("names '..' segments, quoting the value and the expected form", () => {
    expect(refusal('../../etc/passwd').message).toBe(
      "Invalid path '../../etc/passwd': '..' segments are not allowed; expected a relative path inside the repository such as 'locales/en.json'.",
    );
    for (const path of ['..', 'a/..', 'a/../b', 'locales/en/../../x']) expect(refusal(path).problem).toBe('dot_segment');
  });

  it("refuses '.' segments: the path is not normalised", () => {
    for (const path of ['.', './en.json', 'a/./b', 'a/.']) expect(refusal(path)).toMatchObject({ problem: 'dot_segment', message: expect.stringContaining("'.' segments are not allowed") });
  });

  it('refuses absolute paths', () => {
    for (const path of ['/etc/passwd', '/', '//server/share/x']) expect(refusal(path).problem).toBe('absolute');
  });

  it('refuses backslashes, also as a Windows separator or UNC prefix', () => {
    for (const path of ['locales\\en.json', '..\\..\\x', '\\\\server\\share', 'a\\']) expect(refusal(path).problem).toBe('backslash');
  });

  it('refuses a drive letter', () => {
    for (const path of ['C:', 'C:/Windows/x', 'c:x.json', 'z:']) expect(refusal(path).problem).toBe('drive_letter');
  });

  it('refuses NUL and every control character, escaped in the message', () => {
    expect(refusal('a\u0000b').message).toBe("Invalid path 'a\\u0000b': it contains the control character U+0000; expected a relative path inside the repository such as 'locales/en.json'.");
    for (const c of ['\n', '\r', '\t', '\u001b', '\u007f', '\u0085', '\u009f']) expect(refusal(`a${c}b.json`).problem).toBe('control_character');
  });

  it('refuses empty segments: doubled, leading or trailing slashes', () => {
    for (const path of ['a//b', 'a/', 'locales/en/']) expect(refusal(path).problem).toBe('empty_segment');
  });

  it('refuses the empty path', () => {
    expect(refusal('')).toMatchObject({ problem: 'empty', message: expect.stringContaining("Invalid path '': the path is empty") });
  });

  it(`accepts ${MAX_REPO_PATH_BYTES} UTF-8 bytes and refuses one more, counting bytes, not characters`, () => {
    expect(repoPath('a'.repeat(MAX_REPO_PATH_BYTES))).toHaveLength(MAX_REPO_PATH_BYTES);
    expect(refusal('a'.repeat(MAX_REPO_PATH_BYTES + 1)).problem).toBe('too_long');
    // 342 three-byte characters are 1,026 bytes, though only 342 characters.
    expect(refusal('語'.repeat(342)).message).toContain('it is 1026 bytes long (UTF-8); at most 1024 are allowed');
  });

  it('keeps a long value short in the message', () => {
    expect(refusal(`../${'x'.repeat(5000)}`).message.length).toBeLessThan(400);
  });

  it('repoPathProblem reports instead of throwing', () => {
    expect(repoPathProblem('locales/en.json')).toBeUndefined();
    expect(repoPathProblem('../x')).toEqual({ problem: 'dot_segment', reason: "'..' segments are not allowed" });
  });
});

describe('translation templates and their expansions', () => {
  it('holds a template to the rule, with its variables as names', () => {
    expect(templatePathProblem('locales/{locale}/{name}.json')).toBeUndefined();
    expect(templatePathProblem('../{locale}.json')?.problem).toBe('dot_segment');
    expect(templatePathProblem('/tmp/{locale}.json')?.problem).toBe('absolute');
    expect(templatePathProblem('C:/{locale}.json')?.problem).toBe('drive_letter');
    expect(templatePathProblem('locales\\{locale}.json')?.problem).toBe('backslash');
    expect(templatePathProblem('locales//{locale}.json')?.problem).toBe('empty_segment');
    expect(templatePathProblem('./{locale}.json')?.problem).toBe('dot_segment');
    expect(templatePathProblem('a\u0000/{locale}.json')?.problem).toBe('control_character');
    expect(templatePathProblem(`${'x'.repeat(1100)}/{locale}`)?.problem).toBe('too_long');
  });

  it("lets '..' follow {dir} only, and checks the filled path", () => {
    expect(templatePathProblem('{dir}/../{apple_locale}.lproj/{name}.strings')).toBeUndefined();
    expect(templatePathProblem('{dir}/../../{locale}.json')).toBeUndefined();
    expect(templatePathProblem('{dir}/x/../{locale}.json')?.reason).toContain("only right after {dir}");
    expect(translationPath('{dir}/../{locale}.lproj/{name}.strings', 'App/en.lproj/Main.strings', 'de')).toBe('App/de.lproj/Main.strings');
    expect(() => translationPath('{dir}/../../{locale}.json', 'locales/en.json', 'de')).toThrow("Invalid path '../de.json': '..' segments are not allowed");
  });

  it('refuses a template or a source path that fails the rule when filling it', () => {
    expect(() => translationPath('../{locale}.json', 'en.json', 'de')).toThrow(RepoPathError);
    expect(() => translationPath('{locale}/{name}.json', 'a\\b.json', 'de')).toThrow("Invalid path 'a\\b.json'");
    expect(() => translationPath('{locale}/{name}/x.json', 'locales/...json', 'de')).toThrow("Invalid path 'de/../x.json': '..' segments are not allowed");
    // The same odd name is harmless where it does not form a segment of its own.
    expect(translationPath('{locale}/{name}.json', 'locales/...json', 'de')).toBe('de/...json');
  });
});
