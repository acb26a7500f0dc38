/**
 * `parlance login` and `parlance logout`, run as the real binary against an in-process service, with the user's
 * config directory in a temporary XDG_CONFIG_HOME: the token is checked, stored 0600 keyed by service URL, used
 * without PARLANCE_TOKEN, refused when others can read it, and removed again.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../helpers/process.js';
import { startService, type TestService } from '../helpers/service.js';

const BIN = join(import.meta.dirname, '../../bin/parlance.js');

let service: TestService;
const scratch: string[] = [];

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

/** The binary with `input` on stdin and no PARLANCE_TOKEN in its environment. */
function parlance(args: string[], options: { config: string; input?: string; cwd?: string }): Promise<Run> {
  const { PARLANCE_TOKEN: _token, PARLANCE_URL: _url, ...env } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? options.config,
      env: { ...env, XDG_CONFIG_HOME: options.config, PARLANCE_URL: service.url },
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: 45_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

interface CredentialsDoc {
  version: number;
  services: Record<string, { token: string; project: { id: string; name: string } | null; saved_at: string }>;
}

const credentialsOf = (config: string) => join(config, 'parlance', 'credentials');
const read = (config: string) => JSON.parse(readFileSync(credentialsOf(config), 'utf8')) as CredentialsDoc;

beforeAll(async () => {
  service = await startService();
});

afterAll(async () => {
  await service?.stop();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('parlance login', () => {
  const config = () => tempDir('parlance-xdg-');

  it('checks the token, names its project, stores it 0600 in a 0700 folder, and commands use it without PARLANCE_TOKEN', async () => {
    const xdg = config();
    const login = await parlance(['login', '--token-stdin'], { config: xdg, input: `${service.token}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(`Logged in to ${service.url}: the token belongs to project 'Web' (${service.projectId}) of Acme.`);
    expect(login.stdout + login.stderr).not.toContain(service.token);

    const path = credentialsOf(xdg);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(xdg, 'parlance')).mode & 0o777).toBe(0o700);
    expect(read(xdg)).toMatchObject({ version: 1, services: { [service.url]: { token: service.token, project: { id: service.projectId, name: 'Web' } } } });

    const languages = await parlance(['languages', 'list', '--json'], { config: xdg });
    expect(languages.code, languages.stderr).toBe(0);
    expect((JSON.parse(languages.stdout) as { tag: string }[]).map((language) => language.tag)).toContain('de');

    // A second service URL is a second entry; logging out of one keeps the other.
    const other = service.url.replace('127.0.0.1', 'localhost');
    const second = await parlance(['login', '--url', `${other}/v1/`, '--token-stdin', '--json'], { config: xdg, input: service.token });
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ service: other, project: { id: service.projectId, name: 'Web', organisation: 'Acme' } });
    expect(Object.keys(read(xdg).services).sort()).toEqual([service.url, other].sort());

    const logout = await parlance(['logout', '--url', other], { config: xdg });
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stdout).toContain(`Logged out of ${other}`);
    expect(Object.keys(read(xdg).services)).toEqual([service.url]);
    expect(statSync(path).mode & 0o777).toBe(0o600);

    // The last entry takes the file with it; then there is no token, and the error says how to get one.
    const last = await parlance(['logout'], { config: xdg });
    expect(last.code, last.stderr).toBe(0);
    expect(existsSync(path)).toBe(false);
    const none = await parlance(['languages', 'list'], { config: xdg });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`No token: pass --token <token> or set PARLANCE_TOKEN (a project token, prl_…), or store one for ${service.url} with 'parlance login'.`);
    const again = await parlance(['logout'], { config: xdg });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`No token stored for ${service.url}`);
  });

  it('a refused token is not stored, and an earlier entry stays as it was', async () => {
    const xdg = config();
    const bad = await parlance(['login', '--token-stdin'], { config: xdg, input: 'prl_000000000000000000000000000000000000nope\n' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(new RegExp(`${service.url.replaceAll('.', '\\.')} refused the token: 401 token_\\w+: .* Nothing was stored\\.`));
    expect(existsSync(credentialsOf(xdg))).toBe(false);

    expect((await parlance(['login', '--token-stdin'], { config: xdg, input: service.token })).code).toBe(0);
    const before = readFileSync(credentialsOf(xdg), 'utf8');
    const revoked = await parlance(['login', '--token-stdin'], { config: xdg, input: 'prl_000000000000000000000000000000000000nope' });
    expect(revoked.code).toBe(2);
    expect(readFileSync(credentialsOf(xdg), 'utf8')).toBe(before);
  });

  it('never takes the token from the command line, and asks for stdin when there is no terminal', async () => {
    const xdg = config();
    const argv = await parlance(['login', '--token', service.token], { config: xdg });
    expect(argv.code).toBe(1);
    expect(argv.stderr).toContain('parlance login does not take --token');
    expect(argv.stderr).not.toContain(service.token);
    const noTty = await parlance(['login'], { config: xdg });
    expect(noTty.code).toBe(1);
    expect(noTty.stderr).toContain('No terminal to ask for the token on');
    const empty = await parlance(['login', '--token-stdin'], { config: xdg, input: '\n' });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('No token on stdin');
    const url = await parlance(['login', '--url', 'ftp://example.com', '--token-stdin'], { config: xdg, input: service.token });
    expect(url.code).toBe(1);
    expect(url.stderr).toContain("Invalid --url 'ftp://example.com'");
    expect(existsSync(credentialsOf(xdg))).toBe(false);
  });

  it('refuses a credentials file others can read, as ssh refuses such a key', async () => {
    const xdg = config();
    expect((await parlance(['login', '--token-stdin'], { config: xdg, input: service.token })).code).toBe(0);
    chmodSync(credentialsOf(xdg), 0o644);
    const refused = await parlance(['languages', 'list'], { config: xdg });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${credentialsOf(xdg)} is accessible by others (mode 0644); refusing to use its tokens`);
    expect(refused.stderr).toContain(`chmod 600 ${credentialsOf(xdg)}`);
    expect(refused.stderr).not.toContain(service.token);
    chmodSync(credentialsOf(xdg), 0o600);
    expect((await parlance(['languages', 'list'], { config: xdg })).code).toBe(0);
  });
});
