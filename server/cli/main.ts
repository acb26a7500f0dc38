/** The `parlance` command: run the service (start, serve, worker), migrate, and operator administration. */
import { ConfigError, loadConfig } from '../config.js';
import { bootstrapDemo, nextSteps } from '../bootstrap.js';
import { createRuntime, type Roles } from '../runtime.js';
import { runAdmin } from './admin.js';

const HELP = `Usage: parlance <command> [options]

Service:
  start            API and workers in one process (the embedded default; creates a demo project on first start)
  serve            API only (needs DATABASE_URL and REDIS_URL; run workers with 'parlance worker')
  worker           Job workers only (needs DATABASE_URL and REDIS_URL)
  migrate          Apply database migrations and exit

Operators:
  admin ...        Organisations, projects and tokens; run 'parlance admin help'

Configuration comes from environment variables; see the README.
`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'start':
        return await runService({ api: true, worker: true }, true);
      case 'serve':
        return await runService({ api: true, worker: false }, false);
      case 'worker':
        return await runService({ api: false, worker: true }, false);
      case 'migrate': {
        const runtime = await createRuntime(loadConfig(), { roles: { api: true, worker: true } });
        await runtime.stop();
        console.log('Migrations are up to date.');
        return 0;
      }
      case 'admin':
        return await runAdmin(rest);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(HELP);
        return command === undefined ? 1 : 0;
      default:
        process.stderr.write(`Unknown command '${command}'.\n\n${HELP}`);
        return 1;
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    process.stderr.write(`parlance: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

async function runService(roles: Roles, demo: boolean): Promise<number> {
  const config = loadConfig();
  const runtime = await createRuntime(config, { roles });
  // Signals are handled from the start, so a stop during start-up is graceful too.
  let resolveExit!: (code: number) => void;
  const exited = new Promise<number>((resolve) => (resolveExit = resolve));
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    runtime.log.info(`${signal} received: stopping (finishing running chunks, closing connections)`);
    runtime.stop().then(
      () => resolveExit(0),
      (error: unknown) => {
        runtime.log.error('stop failed', { error });
        resolveExit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));

  const { url } = await runtime.start();
  const role = roles.api && roles.worker ? 'API and workers' : roles.api ? 'API' : 'workers';
  const storage = `${config.database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'}, ${config.redis ? 'Redis queue' : 'in-process queue'}`;
  runtime.log.info(`parlance ${role} started`, { url, storage });
  if (demo && url && config.demo && !stopping) {
    const { token } = await bootstrapDemo(runtime);
    process.stdout.write(nextSteps(url, token));
  }
  return exited;
}
