/**
 * `parlance admin` while `parlance start` runs, through the binary: on the embedded database the running service runs
 * the command (server/cli/admin-channel.ts), on PostgreSQL admin opens the database beside the service. Either way the
 * output is what the same command prints with the service stopped, and the service sees the new rows at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runParlance, serviceUrl, spawnParlance, type ServiceProcess } from '../helpers/parlance-process.js';
import { BACKEND, backendEnv, dropBackend } from '../helpers/service.js';

const START_TIMEOUT = 180_000;

interface Org {
  id: string;
  name: string;
}
interface Project {
  id: string;
  name: string;
  target_locales: string[];
}
interface Token {
  id: string;
  secret: string;
  abilities: string[];
}

/** One request line on the admin socket, as any local program could send it; the service's reply line. */
function rawRequest(socket: string, payload: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const connection = connect(socket);
    let reply = '';
    connection.on('connect', () => connection.write(payload));
    connection.on('data', (chunk: Buffer) => (reply += chunk.toString()));
    connection.on('end', () => resolve(reply));
    connection.on('error', (error: NodeJS.ErrnoException) => (reply ? resolve(reply) : reject(error)));
  });
}

describe(`parlance admin while parlance start runs (${BACKEND})`, () => {
  const env = backendEnv({ LOG_LEVEL: 'info' }, { migrated: true });
  const dataDir = env.PARLANCE_DATA_DIR!;
  let service: ServiceProcess;
  let url: string;
  const admin = (...args: string[]) => runParlance(['admin', ...args], env);

  beforeAll(async () => {
    service = spawnParlance(['start'], env);
    url = await serviceUrl(service);
  }, START_TIMEOUT);

  afterAll(async () => {
    await service?.stop();
    await dropBackend(env);
  });

  it(
    'creates an organisation, a project and a token that the running service uses at once, with the output of the same commands offline',
    async () => {
      const org = await admin('org', 'create', '--name', 'Acme', '--plan', 'starter', '--json');
      expect(org.stderr).toBe('');
      expect(org.code).toBe(0);
      const orgId = (JSON.parse(org.stdout) as Org).id;
      const project = JSON.parse((await admin('project', 'create', '--org', orgId, '--name', 'Web', '--source', 'en', '--targets', 'de,fr', '--json')).stdout) as Project;
      expect(project).toMatchObject({ name: 'Web', target_locales: ['de', 'fr'] });
      const token = JSON.parse((await admin('token', 'create', '--project', project.id, '--name', 'ops', '--abilities', 'read,manage', '--json')).stdout) as Token;
      expect(token.abilities).toEqual(['read', 'manage']);
      const humanToken = await admin('token', 'create', '--project', project.id, '--name', 'CI');
      expect(humanToken.code).toBe(0);
      expect(humanToken.stdout).toMatch(/^Created token tok_\w+ \(push, pull, read\)\. The secret is shown once:\n\n {2}prl_[0-9A-Za-z]{38}\n\n$/);

      // The service sees the new rows: the token authenticates, and it manages the new project.
      const headers = { authorization: `Bearer ${token.secret}` };
      const seen = await fetch(`${url}/v1/project`, { headers });
      expect(seen.status).toBe(200);
      expect(await seen.json()).toMatchObject({ name: 'Web', target_locales: ['de', 'fr'] });
      const added = await fetch(`${url}/v1/languages`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ tag: 'ja' }) });
      expect(added.status).toBe(201);

      // Usage problems and the service's refusals come back with the exit code and the message of the offline command.
      const missing = await admin('project', 'create', '--org', orgId, '--name', 'X');
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/^Missing --source\.\n\nUsage: parlance admin/);
      const unknown = await admin('token', 'create', '--project', 'prj_nope');
      expect(unknown).toMatchObject({ code: 1, stdout: '' });
      expect(unknown.stderr).toMatch(/^parlance admin: .*prj_nope/);

      const lists = [
        ['org', 'list'],
        ['project', 'list', '--org', orgId],
        ['token', 'list', '--project', project.id],
      ];
      const running = await Promise.all(lists.map((args) => admin(...args)));
      expect(running[0]!.stdout).toContain('Acme');
      expect(running[2]!.stdout).toContain('ops');
      expect(running[2]!.stdout).toContain('CI');
      const wrongWhileRunning = [missing, unknown];

      // The service kept running through all of it.
      expect(service.running()).toBe(true);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      if (BACKEND === 'embedded') {
        expect(existsSync(join(dataDir, 'admin.sock'))).toBe(true);
      } else {
        // On PostgreSQL admin opens the database itself; the service opens no channel.
        expect(existsSync(join(dataDir, 'admin.sock'))).toBe(false);
      }

      expect(await service.stop()).toBe(0);
      expect(existsSync(join(dataDir, 'admin.sock'))).toBe(false);
      expect(existsSync(join(dataDir, 'admin.json'))).toBe(false);

      const offline = [];
      for (const args of lists) offline.push(await admin(...args));
      expect(offline.map((run) => [run.code, run.stdout, run.stderr])).toEqual(running.map((run) => [run.code, run.stdout, run.stderr]));
      const offlineWrong = [await admin('project', 'create', '--org', orgId, '--name', 'X'), await admin('token', 'create', '--project', 'prj_nope')];
      expect(offlineWrong.map((run) => [run.code, run.stdout, run.stderr])).toEqual(wrongWhileRunning.map((run) => [run.code, run.stdout, run.stderr]));
      const offlineToken = await admin('token', 'create', '--project', project.id, '--name', 'CI');
      expect(offlineToken.stdout.replace(/tok_\w+|prl_\w+/g, '…')).toBe(humanToken.stdout.replace(/tok_\w+|prl_\w+/g, '…'));
      // Offline, two commands at once take turns at the data directory's lock rather than one failing.
      const together = await Promise.all([admin('org', 'list'), admin('project', 'list')]);
      expect(together.map((run) => run.code)).toEqual([0, 0]);
    },
    START_TIMEOUT,
  );
});

describe.runIf(BACKEND === 'embedded')('the admin channel of the embedded database', () => {
  // Made in beforeAll, so the pass on PostgreSQL, which skips this block, leaves no directory behind.
  let env: Record<string, string>;
  let dataDir: string;
  let service: ServiceProcess;
  const admin = (...args: string[]) => runParlance(['admin', ...args], env);
  const orgNames = async () => ((JSON.parse((await admin('org', 'list', '--json')).stdout) as Org[]).map((o) => o.name));

  beforeAll(async () => {
    env = backendEnv({ LOG_LEVEL: 'info' }, { migrated: true });
    dataDir = env.PARLANCE_DATA_DIR!;
    service = spawnParlance(['start'], env);
    await serviceUrl(service);
  }, START_TIMEOUT);

  afterAll(async () => {
    await service?.stop();
    if (env) await dropBackend(env);
  });

  it('is a socket and a channel file only their owner can open', () => {
    expect(statSync(join(dataDir, 'admin.sock')).isSocket()).toBe(true);
    expect(statSync(join(dataDir, 'admin.sock')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'admin.json')).mode & 0o777).toBe(0o600);
  });

  it('refuses a request without the secret, through the binary and on the raw socket, and runs nothing', async () => {
    const file = join(dataDir, 'admin.json');
    const channel = JSON.parse(readFileSync(file, 'utf8')) as { pid: number; socket: string; secret: string };
    expect(channel.pid).toBe(service.proc.pid);
    expect(channel.socket).toBe(join(dataDir, 'admin.sock'));
    const before = await orgNames();

    // A channel file with another secret (a copy from elsewhere, a guess): the binary passes on the refusal.
    writeFileSync(file, JSON.stringify({ ...channel, secret: 'not-the-secret' }), { mode: 0o600 });
    try {
      const refused = await admin('org', 'create', '--name', 'Intruder');
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toBe('parlance admin: the service refused the command: the admin secret does not match this service (admin.json in its data directory).\n');
    } finally {
      writeFileSync(file, JSON.stringify(channel), { mode: 0o600 });
    }
    const raw = JSON.parse(await rawRequest(channel.socket, JSON.stringify({ secret: '', argv: ['org', 'create', '--name', 'Intruder'] }) + '\n')) as { code: number; stderr: string };
    expect(raw).toMatchObject({ code: 1, stdout: '' });
    expect(raw.stderr).toContain('the admin secret does not match');
    expect(await orgNames()).toEqual(before);
  });

  it('refuses a request larger than 64 KiB unread, and what is not a command line, and goes on answering', async () => {
    const { socket, secret } = JSON.parse(readFileSync(join(dataDir, 'admin.json'), 'utf8')) as { socket: string; secret: string };
    const large = JSON.parse(await rawRequest(socket, JSON.stringify({ secret, argv: ['org', 'create', '--name', 'x'.repeat(70_000)] }) + '\n')) as { code: number; stderr: string };
    expect(large.code).toBe(1);
    expect(large.stderr).toContain('the request is larger than 65536 bytes');
    const notJson = JSON.parse(await rawRequest(socket, 'org list\n')) as { code: number; stderr: string };
    expect(notJson).toMatchObject({ code: 1, stderr: 'parlance admin: the service refused the command: the request is not JSON.\n' });
    const notCommand = JSON.parse(await rawRequest(socket, JSON.stringify({ secret, argv: 'org list' }) + '\n')) as { code: number; stderr: string };
    expect(notCommand.stderr).toContain('the request is not an admin command line');
    expect(await orgNames()).not.toContain('x'.repeat(70_000));
    const listed = await admin('org', 'list');
    expect(listed.code).toBe(0);
  });

  it.runIf(process.getuid?.() === 0)('refuses another user at the socket itself (run as root: the client runs as nobody)', async () => {
    // The data directory of the test is 0700; let another user reach the socket, whose own mode must then keep it out.
    chmodSync(dataDir, 0o755);
    try {
      const { socket } = JSON.parse(readFileSync(join(dataDir, 'admin.json'), 'utf8')) as { socket: string };
      const script = `require('node:net').connect(${JSON.stringify(socket)}).on('connect', () => { console.log('connected'); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(0); });`;
      const child = spawn(process.execPath, ['-e', script], { uid: 65534, gid: 65534, stdio: ['ignore', 'pipe', 'pipe'], cwd: '/' });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await new Promise((resolve) => child.on('close', resolve));
      expect(output.trim()).toBe('EACCES');
    } finally {
      chmodSync(dataDir, 0o700);
    }
  });
});

describe.runIf(BACKEND === 'embedded')('a data directory held by a process that takes no admin commands', () => {
  let env: Record<string, string>;
  let dataDir: string;
  let holder: ChildProcess;

  beforeAll(() => {
    // admin waits ADMIN_WAIT_SECONDS for the holder, then names it: 4 s here rather than the default 20.
    env = backendEnv({ ADMIN_WAIT_SECONDS: '4' }, { migrated: true });
    dataDir = env.PARLANCE_DATA_DIR!;
    // A live process that is not a parlance service (like one that reused a dead service's pid, or an older parlance).
    holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    writeFileSync(join(dataDir, 'lock'), String(holder.pid));
  });

  afterAll(async () => {
    holder?.kill('SIGKILL');
    if (env) await dropBackend(env);
  });

  it('says which process holds it and why the command cannot go to it', async () => {
    // No channel file: admin waits (a starting service opens its channel, another admin command ends), then says so.
    const noChannel = await runParlance(['admin', 'org', 'list'], env);
    expect(noChannel.code).toBe(1);
    expect(noChannel.stderr).toContain(`parlance admin: waiting for process ${holder.pid}, which holds the embedded database in ${dataDir}`);
    expect(noChannel.stderr).toContain(`parlance admin: The embedded database in ${dataDir} is in use by process ${holder.pid}, which does not take admin commands (${join(dataDir, 'admin.json')} is missing).`);
    expect(noChannel.stderr).toContain(`the lock ${join(dataDir, 'lock')} is stale: remove it.`);

    // A channel file whose socket is gone: nothing to wait for.
    writeFileSync(join(dataDir, 'admin.json'), JSON.stringify({ pid: holder.pid, socket: join(dataDir, 'admin.sock'), secret: 's' }), { mode: 0o600 });
    const gone = await runParlance(['admin', 'org', 'list'], env);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(`is in use by process ${holder.pid}, which does not answer on its admin socket ${join(dataDir, 'admin.sock')} (ENOENT)`);
    expect(gone.stderr).not.toContain('waiting');
  }, 60_000);
});
