/**
 * The quick start as a newcomer follows it: `parlance start` on a fresh data directory prints two tokens, says which
 * is which, and the printed `parlance languages add` works on the first try with the manage token.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runParlance, spawnParlance, type ServiceProcess } from '../helpers/parlance-process.js';
import { BACKEND, backendEnv, dropBackend } from '../helpers/service.js';

const TIMEOUT = 240_000;

/** The printout is written in one piece; its last command is the CLI's `sync`. */
async function printout(service: ServiceProcess) {
  await service.waitFor(/npx parlance sync\n/, 'stdout');
  const text = service.stdout();
  return {
    text,
    url: /Parlance is running at (http:\/\/\S+)/.exec(text)![1]!,
    deploy: /export PARLANCE_TOKEN=(prl_[0-9A-Za-z]{38})\n/.exec(text)?.[1],
    manage: /export PARLANCE_MANAGE_TOKEN=(prl_[0-9A-Za-z]{38})\n/.exec(text)?.[1],
  };
}

describe(`npm start, the first time (${BACKEND})`, () => {
  // A fresh data directory (and, on PostgreSQL, a fresh schema), with the demo the quick start gets.
  const env = backendEnv({ PARLANCE_DEMO: 'true', LOG_LEVEL: 'info' });
  // Where the newcomer types the CLI commands: no parlance.yml there.
  const cwd = mkdtempSync(join(tmpdir(), 'parlance-quickstart-'));
  const services: ServiceProcess[] = [];

  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await dropBackend(env);
    rmSync(cwd, { recursive: true, force: true });
  });

  it(
    'prints a deploy token and a manage token, says which is which, and the manage token adds a language on the first try',
    async () => {
      const first = spawnParlance(['start'], env);
      services.push(first);
      const printed = await printout(first);
      expect(printed.deploy).toBeDefined();
      expect(printed.manage).toBeDefined();
      expect(printed.manage).not.toBe(printed.deploy);
      expect(printed.text).toContain('Deploy token (push, pull, read): for CI and the commands below; it cannot change the project.');
      expect(printed.text).toContain('Manage token (push, pull, read, write, manage): yours at the terminal, to change the project');
      expect(printed.text).toContain(`PARLANCE_URL=${printed.url} npx parlance languages add es --token "$PARLANCE_MANAGE_TOKEN"`);

      // The printed command, as the CLI binary runs it.
      const userEnv = { PARLANCE_URL: printed.url, PARLANCE_MANAGE_TOKEN: printed.manage!, PARLANCE_TOKEN: printed.deploy! };
      const added = await runParlance(['languages', 'add', 'es', '--token', printed.manage!], userEnv, cwd);
      expect(added.stderr).toBe('');
      expect(added.code).toBe(0);
      expect(added.stdout).toContain('Added es       target  Spanish');

      // The deploy token (PARLANCE_TOKEN) pushes and pulls but cannot change the project, as the printout says.
      const refused = await runParlance(['languages', 'add', 'it'], userEnv, cwd);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('403 ability_missing');
      const listed = await runParlance(['languages', 'list'], userEnv, cwd);
      expect(listed.code).toBe(0);
      expect(listed.stdout.split('\n').filter(Boolean).map((line) => line.split(/\s+/)[0]).sort()).toEqual(['de', 'en', 'es', 'fr', 'ja']);

      if (BACKEND === 'embedded') {
        // The embedded service keeps both tokens in its data directory and prints them again on the next start.
        expect(await first.stop()).toBe(0);
        const second = spawnParlance(['start'], env);
        services.push(second);
        const again = await printout(second);
        expect([again.deploy, again.manage]).toEqual([printed.deploy, printed.manage]);
        expect(await second.stop()).toBe(0);
      }
    },
    TIMEOUT,
  );
});
