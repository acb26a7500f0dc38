/**
 * The user commands of the `parlance` binary, run as subprocesses in a copy of test/fixtures/cli-repo against an
 * in-process service whose provider is the OpenAI wire mock: init, push, status, pull, review, sync, glossary,
 * tokens, the exit codes (1 config, 2 auth, 4 refused), --json, --dry-run and the 429 wait.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/project-config/load-config.js';
import { matchSources } from '../../src/project-config/match-sources.js';
import { runCli } from '../../src/cli/main.js';
import { mockTranslate, startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { runProcess, type Run } from '../helpers/process.js';
import { startService, waitForBatch, type TestService } from '../helpers/service.js';

const BIN = join(import.meta.dirname, '../../bin/parlance.js');
const FIXTURE = join(import.meta.dirname, '../fixtures/cli-repo');

/** The config the flow runs on after `init`: pinned, so expectations do not hang on detection heuristics (cli-detect.test.ts covers those). */
const CONFIG = `# parlance.yml for the CLI tests
locales: [de, pt-BR]
files:
  - source: locales/en/*.json
    translation: locales/{locale}/{name}.json
  - source: src/main/resources/messages.properties
    translation: src/main/resources/messages_{locale_underscore}.properties
    format: properties
`;

/** Runs the real binary without blocking this process, which hosts the service the binary talks to. */
function parlance(args: string[], options: { cwd: string; env: Record<string, string> }): Promise<Run> {
  return runProcess(process.execPath, [BIN, ...args], { cwd: options.cwd, env: { ...process.env, ...options.env } });
}

function json<T>(run: Run): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`stdout is not one JSON document (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}

/** Every file of a directory with its bytes, to show that a command changed nothing. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files[path.slice(dir.length + 1)] = readFileSync(path, 'latin1');
    }
  }
  return files;
}

/** Waits for a fresh minute window when too little of the current one is left for the requests that follow. */
async function freshWindow(secondsNeeded: number) {
  const left = 60 - (Math.floor(Date.now() / 1000) % 60);
  if (left < secondsNeeded) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 50));
}

/** Drops the first placeholder, as a model that "translates" it does, so the placeholder gate refuses the row. */
const renamePlaceholder = (text: string, locale: string) => mockTranslate(text, locale).replace(/<ph id="0"\/>/, '{datei}');

interface BatchDoc {
  id: string;
  status: string;
  rows: { total: number; outcomes: Record<string, number> };
}
interface PushDoc {
  dry_run: boolean;
  files: { path: string; action: string; reason: string; batch?: BatchDoc; refused?: { key: string; locale: string; line: number | null }[] }[];
}
interface PullDoc {
  dry_run: boolean;
  files: { source: string; locale: string; path: string; action: string; bytes: number; refused: { count: number; keys: string[] } }[];
}

let mock: MockOpenAI;
let service: TestService;
let repo: string;
let env: Record<string, string>;
const scratch: string[] = [];

/** The 429 scenario runs on its own rate-limited service while the flow below runs: it has to wait for the minute window to end. */
let rateLimited: Promise<{ run: Run; cleanup: () => Promise<void> }>;

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

async function startRateLimitedRun() {
  const limited = await startService({ env: { RATE_LIMIT_PER_MINUTE: '2' } });
  const cwd = tempDir('parlance-cli-429-');
  await freshWindow(20);
  // The token's two requests of this minute are used up, so the CLI's first request gets 429 with Retry-After.
  for (let i = 0; i < 2; i++) expect((await limited.api('/v1/languages')).status).toBe(200);
  expect((await limited.api('/v1/languages')).status).toBe(429);
  const run = await parlance(['languages', 'list', '--json'], { cwd, env: { PARLANCE_URL: limited.url, PARLANCE_TOKEN: limited.token } });
  return { run, cleanup: () => limited.stop() };
}

beforeAll(async () => {
  mock = await startMockOpenAI();
  service = await startService({
    env: { TRANSLATION_PROVIDER: 'openai', OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'mock-fast', RATE_LIMIT_PER_MINUTE: '100000' },
  });
  repo = tempDir('parlance-cli-repo-');
  cpSync(FIXTURE, repo, { recursive: true });
  env = { PARLANCE_URL: service.url, PARLANCE_TOKEN: service.token };
  rateLimited = startRateLimitedRun();
  // Settled here too, so a failure is reported by its test and not as an unhandled rejection.
  rateLimited.catch(() => {});
});

afterAll(async () => {
  await rateLimited?.then(({ cleanup }) => cleanup()).catch(() => {});
  await service?.stop();
  await mock?.close();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) => parlance(args, { cwd: repo, env });

describe('parlance (user commands)', () => {
  it('prints one help for both groups of commands, with the exit codes, and the version', async () => {
    const help = await cli('--help');
    expect(help.code).toBe(0);
    for (const command of ['init', 'push', 'pull', 'sync', 'status', 'qa', 'glossary', 'review', 'languages', 'tokens', 'start', 'serve', 'worker', 'migrate', 'admin']) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
    expect(help.stdout).toContain('Exit codes:');
    expect(help.stdout).toMatch(/^ {2}4 {2}a refused row/m);
    expect(help.stdout).toMatch(/^ {2}5 {2}the word allowance is exhausted/m);
    const push = await cli('push', '--help');
    expect(push.code).toBe(0);
    expect(push.stdout).toContain('--dry-run');
    const version = await cli('--version');
    expect(version.code).toBe(0);
    expect(version.stdout).toBe(`${(JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }).version}\n`);
  });

  it('init detects the layout, writes a commented parlance.yml, and overwrites it only with --force', async () => {
    const init = await cli('init');
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('Wrote parlance.yml');
    const written = readFileSync(join(repo, 'parlance.yml'), 'utf8');
    expect(written).toMatch(/^#/m);
    const { config, root } = loadConfig(repo);
    expect(config.files.some((rule) => rule.source.startsWith('locales/') && rule.translation.includes('{locale}'))).toBe(true);
    expect(matchSources(config, root).map((match) => match.path)).toEqual(expect.arrayContaining(['locales/en/app.json', 'locales/en/errors.json']));

    const again = await cli('init');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('parlance.yml already exists');
    expect(again.stderr).toContain('--force');

    const forced = await cli('init', '--force', '--json');
    expect(forced.code).toBe(0);
    expect(json<{ source_locale: string; written: boolean }>(forced)).toMatchObject({ source_locale: 'en', written: true });
    writeFileSync(join(repo, 'parlance.yml'), CONFIG);
  });

  it('languages add canonicalises the tag; list shows it', async () => {
    const added = await cli('languages', 'add', 'pt-br', '--json');
    expect(added.code, added.stderr).toBe(0);
    expect(json<{ tag: string; role: string }>(added)).toMatchObject({ tag: 'pt-BR', role: 'target' });
    const list = json<{ tag: string }[]>(await cli('languages', 'list', '--json'));
    expect(list.map((language) => language.tag)).toEqual(expect.arrayContaining(['en', 'de', 'fr', 'ja', 'pt-BR']));
    const bad = await cli('languages', 'add', 'en_us2');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Invalid locale tag 'en_us2'");
  });

  it('push --dry-run and sync --dry-run list what they would do and change nothing', async () => {
    const before = snapshot(repo);
    const dry = await cli('push', '--dry-run', '--json');
    expect(dry.code, dry.stderr).toBe(0);
    const doc = json<PushDoc>(dry);
    expect(doc.dry_run).toBe(true);
    expect(doc.files.map((file) => [file.path, file.action, file.reason])).toEqual([
      ['locales/en/app.json', 'would_push', 'new'],
      ['locales/en/errors.json', 'would_push', 'new'],
      ['src/main/resources/messages.properties', 'would_push', 'new'],
    ]);
    // sync --dry-run before the first push: the pull side has nothing to pull yet and says so instead of failing.
    const sync = await cli('sync', '--dry-run', '--json');
    expect(sync.code, sync.stderr).toBe(0);
    const syncDoc = json<{ push: PushDoc; pull: PullDoc }>(sync);
    expect(syncDoc.push.files.map((file) => file.action)).toEqual(['would_push', 'would_push', 'would_push']);
    expect(syncDoc.pull.files).toEqual([]);
    expect(sync.stderr).toContain('not pushed locales/en/app.json: the service does not hold it yet, so locales/de/app.json is written after the push');

    expect(((await (await service.api('/v1/batches')).json()) as { items: unknown[] }).items).toHaveLength(0);
    expect(((await (await service.api('/v1/files')).json()) as { items: unknown[] }).items).toHaveLength(0);
    expect(snapshot(repo)).toEqual(before);
  });

  it('push sends every source file; status follows the newest batch to its end', async () => {
    const push = await cli('push', '--json');
    expect(push.code, push.stderr).toBe(0);
    const doc = json<PushDoc>(push);
    expect(doc.files.map((file) => [file.path, file.action])).toEqual([
      ['locales/en/app.json', 'pushed'],
      ['locales/en/errors.json', 'pushed'],
      ['src/main/resources/messages.properties', 'pushed'],
    ]);
    // Two target locales from parlance.yml, not the project's four.
    expect(doc.files[0]!.batch!.rows.total).toBe(4 * 2);

    const status = await cli('status', '--wait');
    expect(status.code, status.stderr).toBe(0);
    const newest = doc.files[2]!.batch!.id;
    expect(status.stdout).toContain(`Batch ${newest} completed src/main/resources/messages.properties (properties)`);
    expect(status.stdout).toContain('4 translated');
    // Without a terminal, progress is plain lines: no carriage returns.
    expect(status.stderr).toMatch(/completed +\[#{24}\] 4\/4 rows 100%/);
    expect(status.stderr).not.toContain('\r');
    for (const file of doc.files) await waitForBatch(service, file.batch!.id);

    const one = await cli('status', doc.files[0]!.batch!.id, '--json');
    expect(json<{ batch: BatchDoc; refused: unknown[] }>(one)).toMatchObject({ batch: { id: doc.files[0]!.batch!.id, status: 'completed' }, refused: [] });
  });

  it('pull --dry-run lists the files it would write and writes none', async () => {
    const before = snapshot(repo);
    const dry = await cli('pull', '--dry-run', '--json');
    expect(dry.code, dry.stderr).toBe(0);
    expect(json<PullDoc>(dry).files.map((file) => [file.path, file.action])).toEqual([
      ['locales/de/app.json', 'would_write'],
      ['locales/pt-BR/app.json', 'would_write'],
      ['locales/de/errors.json', 'would_write'],
      ['locales/pt-BR/errors.json', 'would_write'],
      ['src/main/resources/messages_de.properties', 'would_write'],
      ['src/main/resources/messages_pt_BR.properties', 'would_write'],
    ]);
    expect(snapshot(repo)).toEqual(before);
  });

  it('pull writes each translation at its template path, and leaves files alone when the bytes would not change', async () => {
    const pull = await cli('pull');
    expect(pull.code, pull.stderr).toBe(0);
    expect(pull.stdout).toMatch(/^wrote +locales\/pt-BR\/app\.json \(pt-BR, \d+ bytes\)$/m);
    const app = JSON.parse(readFileSync(join(repo, 'locales/pt-BR/app.json'), 'utf8')) as { greeting: string; nav: { home: string } };
    expect(app).toEqual({ greeting: 'pt-BR: HELLO, {name}!', inbox: 'pt-BR: YOU HAVE {count} NEW MESSAGES', nav: { home: 'pt-BR: HOME', settings: 'pt-BR: SETTINGS' } });
    // The source file's shape is kept: indentation and the final newline.
    expect(readFileSync(join(repo, 'locales/de/errors.json'), 'utf8')).toMatch(/^\{\n {2}"not_found": "de: PAGE NOT FOUND",\n[\s\S]*\}\n$/);
    const properties = readFileSync(join(repo, 'src/main/resources/messages_pt_BR.properties'), 'utf8');
    expect(properties).toContain('# Shown in the window title');
    expect(properties).toMatch(/^app\.welcome=pt-BR\\?: WELCOME BACK, \{0\}$/m);

    const mtimes = ['locales/de/app.json', 'src/main/resources/messages_de.properties'].map((path) => statSync(join(repo, path)).mtimeMs);
    const again = await cli('pull', '--json');
    expect(again.code).toBe(0);
    expect(json<PullDoc>(again).files.every((file) => file.action === 'unchanged')).toBe(true);
    expect(['locales/de/app.json', 'src/main/resources/messages_de.properties'].map((path) => statSync(join(repo, path)).mtimeMs)).toEqual(mtimes);
  });

  it('a second push sends nothing', async () => {
    const batchesBefore = ((await (await service.api('/v1/batches')).json()) as { items: unknown[] }).items.length;
    const push = await cli('push', '--json');
    expect(push.code).toBe(0);
    expect(json<PushDoc>(push).files.map((file) => [file.action, file.reason])).toEqual([
      ['skipped', 'unchanged'],
      ['skipped', 'unchanged'],
      ['skipped', 'unchanged'],
    ]);
    expect(((await (await service.api('/v1/batches')).json()) as { items: unknown[] }).items).toHaveLength(batchesBefore);
    const human = await cli('push');
    expect(human.stdout).toContain('Nothing to push: every source file is unchanged.');
  });

  it('a refused row: push --wait and pull exit 4 naming the file, line, key and locale; review and sync clear it', async () => {
    const source = `{
  "greeting": "Hello, {name}!",
  "inbox": "You have {count} new messages",
  "nav": {
    "home": "Home",
    "settings": "Settings"
  },
  "files": {
    "delete": "Delete {file}?"
  }
}
`;
    writeFileSync(join(repo, 'locales/en/app.json'), source);
    const line = source.split('\n').findIndex((text) => text.includes('"delete"')) + 1;
    mock.script = (row, { locale }) => (row.key === 'files.delete' ? renamePlaceholder(row.text, locale) : undefined);
    try {
      const push = await cli('push', '--wait');
      expect(push.code, push.stderr).toBe(4);
      expect(push.stdout).toMatch(/^pushed +locales\/en\/app\.json → batch \S+ \(queued, 2 rows, 2 words\)$/m);
      expect(push.stdout).toMatch(/^unchanged +locales\/en\/errors\.json$/m);
      for (const locale of ['de', 'pt-BR']) {
        expect(push.stderr).toMatch(new RegExp(`^locales/en/app\\.json:${line}: key 'files\\.delete' \\(${locale}\\) refused: .*\\{file\\}`, 'm'));
      }

      const pull = await cli('pull', '--json');
      expect(pull.code).toBe(4);
      expect(pull.stderr).toMatch(/^locales\/de\/app\.json: 1 key left out \(held_for_review\): files\.delete$/m);
      const refused = json<PullDoc>(pull).files.filter((file) => file.refused.count > 0);
      expect(refused.map((file) => [file.path, file.refused.keys])).toEqual([
        ['locales/de/app.json', ['files.delete']],
        ['locales/pt-BR/app.json', ['files.delete']],
      ]);
      expect((JSON.parse(readFileSync(join(repo, 'locales/de/app.json'), 'utf8')) as { files?: { delete?: string } }).files?.delete).toBeUndefined();
    } finally {
      mock.script = undefined;
    }

    const held = await cli('review', 'list', '--json');
    expect(held.code, held.stderr).toBe(0);
    expect(json<{ key: string; locale: string; state: string }[]>(held).map((row) => [row.key, row.locale, row.state]).sort()).toEqual([
      ['files.delete', 'de', 'held'],
      ['files.delete', 'pt-BR', 'held'],
    ]);
    for (const locale of ['de', 'pt-BR']) {
      const approve = await cli('review', 'approve', 'files.delete', '--locale', locale);
      expect(approve.code, approve.stderr).toBe(0);
      expect(approve.stdout).toContain(`Approved locales/en/app.json 'files.delete' (${locale}) approved`);
    }

    const sync = await cli('sync', '--json');
    expect(sync.code, sync.stderr).toBe(0);
    const doc = json<{ push: PushDoc; pull: PullDoc }>(sync);
    expect(doc.push.files.every((file) => file.action === 'skipped')).toBe(true);
    expect(doc.pull.files.filter((file) => file.action === 'written').map((file) => file.path)).toEqual(['locales/de/app.json', 'locales/pt-BR/app.json']);
    expect(JSON.parse(readFileSync(join(repo, 'locales/de/app.json'), 'utf8'))).toMatchObject({ files: { delete: 'de: DELETE {datei}?' } });
  });

  it('qa runs the gates over stored translations and exits 4 on a refused one', async () => {
    const qa = await cli('qa', '--locale', 'de', '--json');
    const run = json<{ checked: number; refused: number; items: { key: string; outcome: string }[] }>(qa);
    expect(run.checked).toBeGreaterThan(0);
    // The approved 'files.delete' still drops {file}: approving does not make the gates pass it.
    expect(run.items).toContainEqual(expect.objectContaining({ key: 'files.delete', outcome: 'refused' }));
    expect(qa.code).toBe(4);
  });

  it('glossary: add with locked translations, forbid, list, remove; a malformed --translation is a usage error', async () => {
    const added = await cli('glossary', 'add', 'Dashboard', '--translation', 'de=Übersicht', '--translation', 'pt-br=Painel', '--json');
    expect(added.code, added.stderr).toBe(0);
    const term = json<{ id: string; translations: Record<string, string> }>(added);
    expect(term.translations).toEqual({ de: 'Übersicht', 'pt-BR': 'Painel' });
    const forbidden = await cli('glossary', 'forbid', 'Handy');
    expect(forbidden.code, forbidden.stderr).toBe(0);
    expect(forbidden.stdout).toMatch(/^Forbade \S+ {2}Handy {2}forbidden$/m);
    const list = json<{ term: string }[]>(await cli('glossary', 'list', '--json'));
    expect(list.map((t) => t.term).sort()).toEqual(['Dashboard', 'Handy']);
    expect((await cli('glossary', 'rm', term.id)).code).toBe(0);
    expect(json<{ term: string }[]>(await cli('glossary', 'list', '--json')).map((t) => t.term)).toEqual(['Handy']);

    const bad = await cli('glossary', 'add', 'Inbox', '--translation', 'deEingang');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Invalid --translation 'deEingang'. Expected <locale>=<text>, such as de=Übersicht.");
  });

  it('tokens: create shows the secret once, list never does, a revoked token exits 2 without being printed', async () => {
    const created = await cli('tokens', 'create', 'ci', '--abilities', 'read', '--json');
    expect(created.code, created.stderr).toBe(0);
    const token = json<{ id: string; secret: string; abilities: string[] }>(created);
    expect(token.abilities).toEqual(['read']);
    const list = await cli('tokens', 'list', '--json');
    expect(json<{ id: string }[]>(list).map((t) => t.id)).toContain(token.id);
    expect(list.stdout).not.toContain(token.secret);

    const push = await parlance(['push', '--force'], { cwd: repo, env: { ...env, PARLANCE_TOKEN: token.secret } });
    expect(push.code).toBe(2);
    expect(push.stderr).toMatch(/^parlance push: locales\/en\/app\.json: 403 ability_missing: /m);
    expect(push.stderr + push.stdout).not.toContain(token.secret);

    expect((await cli('tokens', 'revoke', token.id)).code).toBe(0);
    const revoked = await parlance(['languages', 'list', '--json', '--token', token.secret], { cwd: repo, env });
    expect(revoked.code).toBe(2);
    expect(revoked.stderr).toContain('401 token_revoked');
    expect(revoked.stderr + revoked.stdout).not.toContain(token.secret);
    expect(json<{ error: { exit_code: number; status: number; code: string } }>(revoked).error).toMatchObject({ exit_code: 2, status: 401, code: 'token_revoked' });

    const none = await parlance(['languages', 'list'], { cwd: repo, env: { ...env, PARLANCE_TOKEN: '' } });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('No token: pass --token <token> or set PARLANCE_TOKEN');
  });

  it('a bad parlance.yml exits 1 naming the file, line and column; bad flags exit 1 quoting the value', async () => {
    const dir = tempDir('parlance-cli-bad-');
    writeFileSync(join(dir, 'parlance.yml'), 'files:\n  - source: locales/en/*.json\n    translaton: locales/{locale}.json\n');
    const push = await parlance(['push'], { cwd: dir, env });
    expect(push.code).toBe(1);
    expect(push.stderr).toMatch(/parlance\.yml:3:5: files\[0\]/);
    const asJson = await parlance(['pull', '--json'], { cwd: dir, env });
    expect(asJson.code).toBe(1);
    expect(json<{ error: { message: string; exit_code: number } }>(asJson).error).toMatchObject({ exit_code: 1, message: expect.stringMatching(/parlance\.yml:3:5/) });

    const missing = await parlance(['push'], { cwd: tempDir('parlance-cli-empty-'), env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("run 'parlance init'");

    const locale = await cli('pull', '--locale', 'en_us2');
    expect(locale.code).toBe(1);
    expect(locale.stderr).toContain("Invalid --locale 'en_us2'");
    const option = await cli('push', '--frobnicate');
    expect(option.code).toBe(1);
    expect(option.stderr).toContain("'--frobnicate'");
  });

  it('on a terminal, status --wait redraws one progress line in place', async () => {
    const res = await service.api('/v1/push', { method: 'POST', json: { keys: [{ key: 'tty.one', source: 'One' }, { key: 'tty.two', source: 'Two' }], locales: ['de'] } });
    const { id } = (await res.json()) as { id: string };
    let stdout = '';
    let stderr = '';
    const code = await runCli(['status', id, '--wait'], {
      stdout: { write: (chunk: string) => (stdout += chunk) },
      stderr: { write: (chunk: string) => (stderr += chunk) },
      env,
      cwd: repo,
      isTTY: true,
    });
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(new RegExp(`\\r${id} completed +\\[#{24}\\] 2/2 rows 100% *\\n$`));
    expect(stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(stdout).toContain(`Batch ${id} completed`);
  });

  it('waits out a 429 (Retry-After), says so on stderr, then succeeds', async () => {
    const { run } = await rateLimited;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^rate limited; waiting \d+(\.\d)? s \(attempt 1\/4\)$/m);
    expect(json<{ tag: string }[]>(run).map((language) => language.tag)).toContain('en');
  }, 120_000);
});

it('the fixture repository is intact (the tests work on a copy)', () => {
  expect(existsSync(join(FIXTURE, 'parlance.yml'))).toBe(false);
  expect(readFileSync(join(FIXTURE, 'locales/de/app.json'), 'utf8')).toBe('{\n  "greeting": "Hallo, {name}!"\n}\n');
});
