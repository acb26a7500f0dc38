/** The `parlance` command: run the service (start, serve, worker), migrate, and operator administration; every other command (and help) is a user command of src/cli. */
import { ConfigError, loadConfig } from '../config.js';
import type { Roles, Runtime } from '../runtime.js';
import type { AdminChannel } from './admin-channel.js';

// The service modules (database, queue, providers) take over a second to load, so each command imports what it
// needs when it runs: `parlance push` never loads the service, and a problem in the user CLI never stops `parlance start`.

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
        const { createRuntime } = await import('../runtime.js');
        const runtime = await createRuntime(loadConfig(), { roles: { api: true, worker: true } });
        await runtime.stop();
        console.log('Migrations are up to date.');
        return 0;
      }
      case 'github-app': {
        return await runGithubApp();
      }
      case 'admin': {
        const { runAdmin } = await import('./admin.js');
        return await runAdmin(rest);
      }
      default: {
        // One binary, two groups: the user commands, the combined help and the unknown-command message live with the user CLI.
        const { runCli } = await import('../../src/cli/main.js');
        return await runCli(argv);
      }
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
  const [{ createRuntime }, { bootstrapDemo, nextSteps }] = await Promise.all([import('../runtime.js'), import('../bootstrap.js')]);
  const config = loadConfig();
  const runtime = await createRuntime(config, { roles });
  // Signals are handled from the start, so a stop during start-up is graceful too.
  let resolveExit!: (code: number) => void;
  const exited = new Promise<number>((resolve) => (resolveExit = resolve));
  let stopping = false;
  let adminChannel: AdminChannel | undefined;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    runtime.log.info(`${signal} received: stopping (finishing running chunks, closing connections)`);
    // Admin commands already received finish on the open database before it closes.
    Promise.resolve(adminChannel?.close()).then(() => runtime.stop()).then(
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
  // The embedded database is this process's alone, so `parlance admin` hands its commands to it (admin-channel.ts).
  if (config.database.kind === 'pglite' && config.database.dataDir && !stopping) {
    try {
      adminChannel = await openAdminChannel(runtime);
      if (stopping) await adminChannel.close();
    } catch (error) {
      // The service is still of use without it; admin then needs the service stopped.
      runtime.log.warn("admin channel not available: 'parlance admin' cannot run while this service runs", { error });
    }
  }
  const role = roles.api && roles.worker ? 'API and workers' : roles.api ? 'API' : 'workers';
  const storage = `${config.database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'}, ${config.redis ? 'Redis queue' : 'in-process queue'}`;
  runtime.log.info(`parlance ${role} started`, { url, storage, ...(adminChannel ? { admin: adminChannel.socket } : {}) });
  if (demo && url && config.demo && !stopping) {
    const { tokens, hasUsers } = await bootstrapDemo(runtime);
    process.stdout.write(nextSteps(url, tokens, hasUsers));
  }
  return exited;
}

async function openAdminChannel(runtime: Runtime): Promise<AdminChannel> {
  const [channel, { runAdminArgv }] = await Promise.all([import('./admin-channel.js'), import('./admin.js')]);
  return channel.openAdminChannel({ dataDir: runtime.config.dataDir, log: runtime.log, run: (argv, out) => runAdminArgv(runtime.db, argv, out) });
}

/** `parlance github-app`: the App alone, for operators who run it apart from the API (shared PostgreSQL and Redis). */
async function runGithubApp(): Promise<number> {
  const config = loadConfig();
  const app = config.githubApp.app;
  if (!app) throw new Error('The GitHub App is not configured: set GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY (or GITHUB_APP_PRIVATE_KEY_PATH) and GITHUB_APP_WEBHOOK_SECRET.');
  const [{ createRuntime }, { startGithubAppServer }] = await Promise.all([import('../runtime.js'), import('../github-app/server.js')]);
  // Neither role: the runtime only opens the database the links live in; the App reaches the API over HTTP.
  const runtime = await createRuntime(config, { roles: { api: false, worker: false } });
  const serviceUrl = config.publicUrl ?? `http://${config.host}:${config.port}`;
  const server = await startGithubAppServer({
    db: runtime.db, links: runtime.githubLinks, serviceUrl, log: runtime.log, logLevel: config.logLevel,
    appId: app.id, privateKey: app.privateKey, webhookSecret: app.webhookSecret, githubApiUrl: config.githubApp.apiUrl, host: config.host, port: config.githubApp.port,
  });
  runtime.log.info('parlance GitHub App started', { url: server.url, service: serviceUrl, github: config.githubApp.apiUrl });
  const signal = await new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  runtime.log.info(`${signal} received: stopping the GitHub App`);
  await server.close();
  await runtime.stop();
  return 0;
}
