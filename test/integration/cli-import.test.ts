/**
 * `parlance import`, the real binary against an in-process service: an import from POEditor's API with the token
 * from the environment, followed to its report; an export imported with --archive; status and cancel; --json; and
 * the usage errors (no token, unknown platform, both sources); an export entry outside the repository named in the report.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportJob } from '../../src/client/types.js';
import { importFixture } from '../helpers/import-fixture.js';
import { poeditorArchive, startPoeditorMock, type PoeditorMock } from '../helpers/platform-mocks/poeditor.js';
import { runProcess, type Run } from '../helpers/process.js';
import { startService, type TestService } from '../helpers/service.js';

const BIN = join(import.meta.dirname, '../../bin/parlance.js');
const fixture = importFixture();

let service: TestService;
let mock: PoeditorMock;
let cwd: string;

beforeAll(async () => {
  mock = await startPoeditorMock(fixture);
  service = await startService({ env: { PARLANCE_SECRET_KEY: 'c'.repeat(64), RATE_LIMIT_PER_MINUTE: '100000' } });
  cwd = mkdtempSync(join(tmpdir(), 'parlance-cli-import-'));
  writeFileSync(join(cwd, 'poeditor-export.zip'), poeditorArchive(fixture));
  writeFileSync(join(cwd, 'poeditor-paths.zip'), zipSync({ ...unzipSync(poeditorArchive(fixture)), '../../fr.json': strToU8('[]') }));
});
afterAll(async () => {
  await service?.stop();
  await mock?.stop();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return runProcess(process.execPath, [BIN, ...args, '--service', service.url, '--token', service.token], { cwd, env: { ...process.env, PARLANCE_URL: '', PARLANCE_TOKEN: '', POEDITOR_TOKEN: '', ...env } });
}

describe('parlance import', () => {
  it('imports through the API with the token from the environment, and prints the report', async () => {
    const run = await cli(['import', 'poeditor', '--project', mock.projectId, '--base-url', mock.url], { POEDITOR_TOKEN: mock.token });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/keys +520 added, 0 updated, 0 unchanged/);
    expect(run.stdout).toMatch(/pt-BR +\d+ keys, \d+ translations \(\d+ reviewed \(human\), \d+ machine, 0 held, \d+ flagged\), 0 kept, \d+ memory units, \d+ glossary terms/);
    expect(run.stdout).toMatch(/locales +pt-br → pt-BR/);
    expect(run.stdout).toMatch(/gates +\d+ failure\(s\), imported all the same/);
    expect(run.stdout).toMatch(/de screen0\.item7: placeholders: .* \[human\]/);
    expect(run.stderr).toContain('Importing from poeditor');
    expect(`${run.stdout}${run.stderr}`).not.toContain(mock.token);
  });

  it('imports an export with --archive, as JSON', async () => {
    const run = await cli(['import', 'poeditor', '--archive', 'poeditor-export.zip', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const job = JSON.parse(run.stdout) as ImportJob;
    expect(job).toMatchObject({ platform: 'poeditor', source: 'archive', status: 'completed', archive_name: 'poeditor-export.zip' });
    // The same keys as the API import: nothing added, nothing changed.
    expect(job.report.keys).toEqual({ added: 0, updated: 0, unchanged: 520 });
  });

  it('names an export entry outside the repository among the skipped files', async () => {
    const run = await cli(['import', 'poeditor', '--archive', 'poeditor-paths.zip']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/keys +0 added, 0 updated, 520 unchanged/);
    expect(run.stdout).toMatch(/skipped +1 file\(s\) whose path is not a relative path inside the repository:/);
    expect(run.stdout).toContain("Skipped '../../fr.json' (an entry of poeditor-paths.zip): '..' segments are not allowed.");
  });

  it('lists imports and shows one; cancelling a finished import is refused', async () => {
    const list = await cli(['import', 'status']);
    expect(list.code, list.stderr).toBe(0);
    const ids = [...list.stdout.matchAll(/^(imp_\S+) +poeditor/gm)].map((m) => m[1]!);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    const one = await cli(['import', 'status', ids[0]!]);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain(ids[0]!);
    const cancel = await cli(['import', 'cancel', ids[0]!]);
    expect(cancel.code).toBe(1);
    expect(cancel.stderr).toMatch(/already completed/);
  });

  it('refuses what it cannot do, naming the fix', async () => {
    const noToken = await cli(['import', 'poeditor', '--project', '1']);
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toMatch(/Set \$POEDITOR_TOKEN to your poeditor API token/);
    const unknown = await cli(['import', 'smartling', '--project', '1']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/Invalid platform 'smartling'\. Expected one of: crowdin, lokalise, phrase, transifex, tolgee, poeditor/);
    const both = await cli(['import', 'poeditor', '--project', '1', '--archive', 'poeditor-export.zip']);
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/either --project .* or --archive/);
    const missing = await cli(['import', 'poeditor', '--archive', 'nope.zip']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/Cannot read --archive 'nope\.zip': no such file/);
    const help = await cli(['import', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('$CROWDIN_TOKEN');
  });
});
