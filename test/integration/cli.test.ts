/** The `parlance` binary: configuration errors, operator administration, and the first-start demo. */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVICE_NODE_FLAGS } from '../helpers/parlance-process.js';
import { backendEnv, dropBackend, filePush } from '../helpers/service.js';

const BIN = join(import.meta.dirname, '../../bin/parlance.js');

function run(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('configuration errors', () => {
  it('a bad value stops start-up with a message naming the variable', () => {
    const result = run(['start'], { ...backendEnv(), PORT: 'eighty', RATE_LIMIT_PER_MINUTE: '-1' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("PORT='eighty'");
    expect(result.stderr).toContain("RATE_LIMIT_PER_MINUTE='-1'");
  });

  it('serve and worker refuse the embedded database with a clear message', () => {
    const env = backendEnv();
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    const result = run(['serve'], env);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/DATABASE_URL and REDIS_URL/);
  });

  it('unknown commands print usage and exit 1', () => {
    const result = run(['frobnicate'], backendEnv());
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Unknown command 'frobnicate'");
    expect(result.stderr).toContain('parlance <command>');
  });
});

describe('the bin', () => {
  it('without build/ says how to make it, and exits 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'parlance-bin-'));
    try {
      mkdirSync(join(dir, 'bin'));
      copyFileSync(BIN, join(dir, 'bin/parlance.js'));
      const result = spawnSync(process.execPath, [join(dir, 'bin/parlance.js'), '--help'], { encoding: 'utf8', timeout: 60_000 });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('build/parlance.js is missing');
      expect(result.stderr).toContain('npm run build');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('parlance admin', () => {
  const env = backendEnv({}, { migrated: true });
  afterAll(async () => {
    await dropBackend(env);
  });

  it('creates and lists organisations, projects and tokens, and revokes tokens', () => {
    const org = JSON.parse(run(['admin', 'org', 'create', '--name', 'Acme', '--plan', 'starter', '--json'], env).stdout) as { id: string; plan: string; words_remaining: number };
    expect(org).toMatchObject({ plan: 'starter', words_remaining: 300_000 });
    const project = JSON.parse(run(['admin', 'project', 'create', '--org', org.id, '--name', 'Web', '--source', 'en', '--targets', 'de,FR,pt-br', '--json'], env).stdout) as {
      id: string;
      target_locales: string[];
    };
    expect(project.target_locales).toEqual(['de', 'fr', 'pt-BR']);
    const token = JSON.parse(run(['admin', 'token', 'create', '--project', project.id, '--name', 'CI', '--json'], env).stdout) as { id: string; secret: string; abilities: string[] };
    expect(token.secret).toMatch(/^prl_/);
    expect(token.abilities).toEqual(['push', 'pull', 'read']);

    const human = run(['admin', 'token', 'create', '--project', project.id, '--abilities', 'read,manage', '--expires-in-days', '7'], env);
    expect(human.status).toBe(0);
    expect(human.stdout).toMatch(/The secret is shown once:\n\n {2}prl_[0-9A-Za-z]{38}/);

    const list = JSON.parse(run(['admin', 'token', 'list', '--project', project.id, '--json'], env).stdout) as { id: string }[];
    expect(list).toHaveLength(2);
    expect(JSON.stringify(list)).not.toContain(token.secret);

    const revoked = JSON.parse(run(['admin', 'token', 'revoke', token.id, '--json'], env).stdout) as { revoked_at: string | null };
    expect(revoked.revoked_at).not.toBeNull();
    expect(run(['admin', 'org', 'list'], env).stdout).toContain('Acme');
    expect(run(['admin', 'project', 'list', '--org', org.id], env).stdout).toContain('Web');
  });

  it('refuses API tokens on the free plan but makes console session tokens; one project only', () => {
    const org = JSON.parse(run(['admin', 'org', 'create', '--name', 'Hobby', '--plan', 'free', '--json'], env).stdout) as { id: string };
    const project = JSON.parse(run(['admin', 'project', 'create', '--org', org.id, '--name', 'Hobby', '--source', 'en', '--json'], env).stdout) as { id: string };
    const refused = run(['admin', 'token', 'create', '--project', project.id], env);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('free plan');
    const session = JSON.parse(run(['admin', 'token', 'create', '--project', project.id, '--session', '--abilities', 'read,write', '--json'], env).stdout) as { kind: string; expires_at: string };
    expect(session.kind).toBe('session');
    expect(new Date(session.expires_at).getTime()).toBeLessThanOrEqual(Date.now() + 12 * 3_600_000 + 60_000);
    const second = run(['admin', 'project', 'create', '--org', org.id, '--name', 'Two', '--source', 'en'], env);
    expect(second.status).toBe(1);
    expect(second.stderr).toContain('allows 1 project');
  });

  it('explains bad input', () => {
    const plan = run(['admin', 'org', 'create', '--name', 'X', '--plan', 'gold'], env);
    expect(plan.status).toBe(1);
    expect(plan.stderr).toContain("Invalid --plan 'gold'");
    const ability = run(['admin', 'token', 'create', '--project', 'prj_x', '--abilities', 'push,admin'], env);
    expect(ability.stderr).toContain("Unknown ability 'admin'");
    const locale = run(['admin', 'project', 'create', '--org', 'org_x', '--name', 'X', '--source', 'en_us2'], env);
    expect(locale.stderr).toContain("Invalid locale 'en_us2'");
    const missing = run(['admin', 'project', 'create', '--name', 'X'], env);
    expect(missing.stderr).toContain('Missing --org');
  });
});

describe('first start', () => {
  it('creates the demo project, prints a working token and the curl commands, and prints the same token on the next start', async () => {
    const env = backendEnv({ PARLANCE_DEMO: 'true', LOG_LEVEL: 'info' });
    delete env.DATABASE_URL;
    delete env.DATABASE_SCHEMA;
    delete env.REDIS_URL;
    env.PORT = String(await freePort());
    try {
      const first = await startAndReadToken(env);
      expect(first.stdout).toContain('/v1/push');
      expect(first.stdout).toContain('/v1/pull?locale=de');
      const headers = { authorization: `Bearer ${first.token}` };
      const project = (await (await fetch(`http://127.0.0.1:${env.PORT}/v1/project`, { headers })).json()) as { source_locale: string; target_locales: string[]; organisation: { plan: string } };
      expect(project).toMatchObject({ source_locale: 'en', target_locales: ['de', 'fr', 'ja'], organisation: { plan: 'starter' } });
      const push = await fetch(`http://127.0.0.1:${env.PORT}/v1/push`, { method: 'POST', headers, body: filePush('{"hello": "Hello"}', { format: 'json', path: 'en.json' }) });
      expect(push.status).toBe(202);
      // The deploy token cannot manage the project.
      expect((await fetch(`http://127.0.0.1:${env.PORT}/v1/tokens`, { headers })).status).toBe(403);
      // The console: the first start says how a person signs in.
      expect(first.stdout).toContain(`Console: open http://127.0.0.1:${env.PORT}/ in a browser. Sign up there: the first account becomes owner of the Demo organisation.`);
      const signUp = await fetch(`http://127.0.0.1:${env.PORT}/v1/auth/sign-up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${env.PORT}` },
        body: JSON.stringify({ email: 'first@example.com', password: 'a long enough passphrase' }),
      });
      expect(signUp.status).toBe(201);
      expect(((await signUp.json()) as { organisations: { name: string; role: string }[] }).organisations).toEqual([expect.objectContaining({ name: 'Demo', role: 'owner' })]);
      expect(await first.stop()).toBe(0);

      const second = await startAndReadToken(env);
      expect(second.token).toBe(first.token);
      expect(second.stdout).toContain('Sign in with your account.');
      expect(await second.stop()).toBe(0);
    } finally {
      await dropBackend(env);
    }
  });
});

async function startAndReadToken(env: Record<string, string>) {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, BIN, 'start'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const token = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no token printed in time\nstdout: ${stdout}\nstderr: ${stderr}`)), 45_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /export PARLANCE_TOKEN=(prl_[0-9A-Za-z]{38})/.exec(stdout);
      if (match && stdout.includes('/v1/pull')) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.on('exit', () => reject(new Error(`exited early\nstdout: ${stdout}\nstderr: ${stderr}`)));
  });
  return {
    token,
    stdout,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
