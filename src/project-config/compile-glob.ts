/** The source globs of parlance.yml's file rules: compiled to a RegExp over posix paths, and one sample path each. */

/**
 * Compiles a glob to a RegExp over posix paths: `*` (any run within one path segment), `**` (as a whole segment: any number of
 * directories), `?` (one character other than '/'), `{a,b}` (alternatives, which may hold globs and nest). Everything else is literal.
 */
export function compileGlob(glob: string): RegExp {
  return new RegExp(`^${globSource(glob, glob)}$`, 'u');
}

function globSource(glob: string, whole: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      const double = glob[i + 1] === '*';
      const segmentStart = i === 0 || glob[i - 1] === '/';
      if (double && segmentStart && glob[i + 2] === '/') {
        out += '(?:[^/]+/)*';
        i += 2;
      } else if (double && segmentStart && i + 2 === glob.length) {
        out += '.*';
        i += 1;
      } else {
        out += '[^/]*';
        if (double) i += 1;
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '{') {
      const end = closingBrace(glob, i);
      if (end < 0) throw new Error(`'${whole}' has a '{' without its '}'`);
      out += `(?:${splitAlternatives(glob.slice(i + 1, end)).map((alternative) => globSource(alternative, whole)).join('|')})`;
      i = end;
    } else if (c === '}') {
      throw new Error(`'${whole}' has a '}' without its '{'`);
    } else {
      out += c.replace(/[.+^$()|[\]\\/]/g, '\\$&');
    }
  }
  return out;
}

function closingBrace(glob: string, open: number): number {
  let depth = 0;
  for (let i = open; i < glob.length; i++) {
    if (glob[i] === '{') depth++;
    else if (glob[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** Splits `a,{b,c},d` at its top-level commas. */
function splitAlternatives(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '{') depth++;
    else if (body[i] === '}') depth--;
    else if (body[i] === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

/** One path the glob matches (`*` as 'x', `**` as no directory, the first alternative), to try a template on before any file exists. */
export function sampleOfGlob(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      const double = glob[i + 1] === '*';
      const segmentStart = i === 0 || glob[i - 1] === '/';
      if (double && segmentStart && glob[i + 2] === '/') i += 2;
      else {
        out += 'x';
        if (double) i += 1;
      }
    } else if (c === '?') {
      out += 'x';
    } else if (c === '{') {
      const end = closingBrace(glob, i);
      out += sampleOfGlob(splitAlternatives(glob.slice(i + 1, end))[0] ?? '');
      i = end;
    } else {
      out += c;
    }
  }
  return out;
}
