/**
 * `parlance extract` run as the real binary on a temporary app repository, offline (no service, no token): the report
 * (keys, missing, unused, warnings with file:line), --json, --check's exit code, and --write adding the missing keys
 * with the code's default text while a person's text already in the source file stays as it is.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_EXTRACT_LIMITS } from '../../src/core/extract/extract-limits.js';
import { runProcess, type Run } from '../helpers/process.js';

const BIN = join(import.meta.dirname, '../../bin/parlance.js');
const made: string[] = [];

const FILES: Record<string, string> = {
  'parlance.yml': "files:\n  - source: 'locales/en.json'\n    translation: 'locales/{locale}.json'\nlocales: [de]\n",
  'locales/en.json': '{\n  "welcome": "Welcome, dear customer",\n  "legacy": "No longer used"\n}\n',
  'src/App.tsx': `import { useTranslation } from 'react-i18next';

export function App({ page }: { page: string }) {
  const { t } = useTranslation();
  return (
    <main>
      <h1>{t('welcome', 'Welcome')}</h1>
      <p>{t('cart.empty', 'Your cart is empty')}</p>
      <p>{t('profile.bio')}</p>
      <nav>{t(page)}</nav>
    </main>
  );
}
`,
  'src/Header.vue': "<template>\n  <header :title=\"$t('header.title', 'Our shop')\">{{ $t('welcome') }}</header>\n</template>\n",
  'src/App.test.tsx': "t('only.in.tests', 'Test');\n",
  'src/broken.ts': "t('lost');\nconst = ;\n",
};

function app(files: Record<string, string> = FILES): string {
  const root = mkdtempSync(join(tmpdir(), 'parlance-extract-'));
  made.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

function parlance(cwd: string, ...args: string[]): Promise<Run> {
  // No token and no service: extract must not need either.
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.PARLANCE_TOKEN;
  delete env.PARLANCE_URL;
  return runProcess(process.execPath, [BIN, 'extract', ...args], { cwd, env, timeout: 60_000 });
}

afterAll(() => {
  for (const root of made) rmSync(root, { recursive: true, force: true });
});

describe('parlance extract', () => {
  it('reports the keys, those missing from and unused in the source file, and what it could not read', async () => {
    const root = app();
    const run = await parlance(root);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      [
        '4 keys in 2 files:',
        '  welcome  "Welcome"  src/App.tsx:7 and 1 more',
        '  cart.empty  "Your cart is empty"  src/App.tsx:8',
        '  profile.bio  (no default text)  src/App.tsx:9',
        '  header.title  "Our shop"  src/Header.vue:2',
        'Missing from locales/en.json (3):',
        '  cart.empty  "Your cart is empty"  src/App.tsx:8',
        '  profile.bio  (no default text)  src/App.tsx:9',
        '  header.title  "Our shop"  src/Header.vue:2',
        'In locales/en.json but used by no code (1):',
        '  legacy',
        '',
      ].join('\n'),
    );
    expect(run.stderr).toContain('src/App.tsx:10: t(…) with a dynamic key');
    expect(run.stderr).toContain('src/broken.ts:2: not parsed, skipped');
    expect(run.stderr).not.toContain('only.in.tests');
  });

  it('--json: one document; --check exits 1 while a key is missing', async () => {
    const root = app();
    const run = await parlance(root, '--json', '--check');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { source: string; keys: { key: string }[]; missing: { key: string; default_text: string | null; context: string }[]; unused: string[]; warnings: { file: string; line: number | null }[] };
    expect(report.source).toBe('locales/en.json');
    expect(report.keys.map((k) => k.key)).toEqual(['welcome', 'cart.empty', 'profile.bio', 'header.title']);
    expect(report.missing[0]).toEqual({ key: 'cart.empty', default_text: 'Your cart is empty', notes: null, context: 'src/App.tsx:8', uses: [{ file: 'src/App.tsx', line: 8 }] });
    expect(report.unused).toEqual(['legacy']);
    expect(report.warnings).toContainEqual({ file: 'src/App.tsx', line: 10, message: expect.stringContaining('dynamic key') });
    // Named files only, and a source file with every key: --check passes.
    const clean = app({ ...FILES, 'locales/en.json': '{ "welcome": "Hi", "cart.empty": "Empty", "header.title": "Shop" }\n' });
    const ok = await parlance(clean, 'src/App.tsx', '--check', '--source', 'locales/en.json');
    expect(ok.stdout).toContain('Missing from locales/en.json (1):');
    expect(ok.code).toBe(1);
    const pass = await parlance(clean, 'src/Header.vue', '--check');
    expect(pass.code, pass.stdout + pass.stderr).toBe(0);
    expect(pass.stdout).toContain('None missing from locales/en.json.');
  });

  it("--write adds the missing keys with the code's default text, and keeps a person's text", async () => {
    const root = app();
    const run = await parlance(root, '--write');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Added 2 keys to locales/en.json with the code's default text: cart.empty, header.title. No key already there was changed.");
    expect(run.stdout).toContain('Not added (no default text in the code; add the text by hand): profile.bio.');
    expect(JSON.parse(readFileSync(join(root, 'locales/en.json'), 'utf8'))).toEqual({
      // The code says 'Welcome'; the person's text stays.
      welcome: 'Welcome, dear customer',
      legacy: 'No longer used',
      'cart.empty': 'Your cart is empty',
      'header.title': 'Our shop',
    });
    // Written twice: nothing more to add; --check still fails for the key without a text.
    const again = await parlance(root, '--write', '--check');
    expect(again.code).toBe(1);
    expect(again.stdout).not.toContain('Added');
    expect(again.stdout).toContain('Missing from locales/en.json (1):');
    // Written through a temporary file and a rename: none is left beside the source file.
    expect(readdirSync(join(root, 'locales'))).toEqual(['en.json']);
  });

  it('--write refuses a source file that a symbolic link leads out of the repository', async () => {
    const outside = app({ 'en.json': '{\n  "welcome": "Welcome"\n}\n' });
    const { 'locales/en.json': _, ...rest } = FILES;
    const root = app(rest);
    mkdirSync(join(root, 'locales'));
    symlinkSync(join(outside, 'en.json'), join(root, 'locales/en.json'));
    const run = await parlance(root, '--write');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Refusing to write locales/en.json');
    expect(run.stderr).toContain('outside the repository root');
    expect(readFileSync(join(outside, 'en.json'), 'utf8')).toBe('{\n  "welcome": "Welcome"\n}\n');
  });

  it('code files over the total limit are refused from their sizes, before any is read', async () => {
    const root = app({ 'locales/en.json': '{}\n' });
    mkdirSync(join(root, 'src'));
    // Sparse files: each just under the one-file limit, together over the total.
    const each = DEFAULT_EXTRACT_LIMITS.maxFileBytes;
    for (let n = 0; n <= DEFAULT_EXTRACT_LIMITS.maxTotalBytes / each; n++) {
      writeFileSync(join(root, `src/f${n}.js`), '');
      truncateSync(join(root, `src/f${n}.js`), each);
    }
    const run = await parlance(root);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`more than the ${DEFAULT_EXTRACT_LIMITS.maxTotalBytes} bytes one run reads: name a narrower path`);
  });

  it('without a source file, lists the keys; --check then is a usage error', async () => {
    const root = app({ 'src/a.js': "t('a', 'A');\n" });
    const run = await parlance(root);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('No source file to compare with');
    const check = await parlance(root, '--check');
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('parlance extract: --check needs a source file');
    const missing = await parlance(root, 'lib');
    expect(missing.stderr).toContain("No file or directory 'lib'");
  });
});
