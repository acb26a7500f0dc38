/** In-process S3 (s3rver) and Azure Blob (Azurite) servers on 127.0.0.1, each over a temporary directory, that can go down and come back on the same port. */
import { ContainerClient, ContainerSASPermissions, generateBlobSASQueryParameters, StorageSharedKeyCredential } from '@azure/storage-blob';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Neither package ships type declarations, so each is loaded through require and typed by the little this file uses.
const require = createRequire(import.meta.url);

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: Server;
  store: { putBucket(name: string): Promise<unknown> };
}
type S3rverClass = new (options: { port: number; address: string; silent: boolean; directory: string; resetOnClose: boolean }) => S3rverInstance;

interface AzuriteBlobServer {
  start(): Promise<void>;
  close(): Promise<void>;
  httpServer: Server;
}
type AzuriteBlobServerClass = new (configuration: unknown) => AzuriteBlobServer;
type AzuriteBlobConfigurationClass = new (...args: unknown[]) => unknown;

/** What the sync and client tests need of a storage server, besides its own credentials. */
export interface RestartableServer {
  port: number;
  /** Stops the server for good and removes its data. */
  stop(): Promise<void>;
  /** Stops listening but keeps the data, so clients see the target down until restart(). */
  halt(): Promise<void>;
  /** Brings the server back (stopping it first when it runs) on the same port with the same data. */
  restart(): Promise<void>;
}

export interface S3rverHandle extends RestartableServer {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  createBucket(name: string): Promise<void>;
}

export interface AzuriteHandle extends RestartableServer {
  connectionString: string;
  /** The account's blob endpoint, path style: http://127.0.0.1:<port>/devstoreaccount1. */
  accountUrl: string;
  accountName: string;
  accountKey: string;
  createContainer(name: string): Promise<void>;
  /** A URL of the container with a SAS token (read, add, create, write, delete, list) valid for an hour. */
  containerSasUrl(name: string): Promise<string>;
}

export const AZURITE_ACCOUNT_NAME = 'devstoreaccount1';
export const AZURITE_ACCOUNT_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

/**
 * Runs `start(port)` (port 0 the first time, then the port it got) and keeps it restartable: both servers are built
 * afresh for each start because neither can listen again once closed, and the data directory carries the state across.
 */
async function restartable<S>(directory: string, start: (port: number) => Promise<{ server: S; port: number }>, close: (server: S) => Promise<void>): Promise<RestartableServer> {
  let { server: running, port } = await start(0);
  let current: S | undefined = running;
  const halt = async () => {
    if (!current) return;
    const server = current;
    current = undefined;
    await close(server);
  };
  return {
    port,
    halt,
    async restart() {
      await halt();
      ({ server: running, port } = await start(port));
      current = running;
    },
    async stop() {
      await halt();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Closes `server` and waits until its port is free again, dropping kept-alive connections rather than waiting them out. */
async function closeHttpServer(server: Server, close: () => Promise<void>): Promise<void> {
  const closed = server.listening ? new Promise<void>((resolve) => server.once('close', () => resolve())) : Promise.resolve();
  await close();
  server.closeAllConnections();
  await closed;
  // Let clients in this process read the FIN on their kept-alive sockets: a restart is otherwise so quick that the next
  // request goes out on a socket the old server closed and fails with "socket hang up" (a real outage does that too,
  // and the caller's retry covers it, but a test calling right after restart() should see the server back).
  await new Promise((resolve) => setTimeout(resolve, 20));
}

export async function startS3rver(): Promise<S3rverHandle> {
  const S3rver = require('s3rver') as S3rverClass;
  const directory = mkdtempSync(join(tmpdir(), 'parlance-s3rver-'));
  let current: S3rverInstance | undefined;
  const server = await restartable(
    directory,
    async (port) => {
      const instance = new S3rver({ port, address: '127.0.0.1', silent: true, directory, resetOnClose: false });
      const address = await instance.run();
      current = instance;
      return { server: instance, port: address.port };
    },
    async (instance) => {
      current = undefined;
      await closeHttpServer(instance.httpServer as Server, () => instance.close());
    },
  );
  return {
    ...server,
    endpoint: `http://127.0.0.1:${server.port}`,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    async createBucket(name) {
      if (!current) throw new Error(`s3rver on port ${server.port} is not running: cannot create bucket '${name}'.`);
      await current.store.putBucket(name);
    },
  };
}

export async function startAzurite(): Promise<AzuriteHandle> {
  const BlobServer = (require('azurite/dist/src/blob/BlobServer.js') as { default: AzuriteBlobServerClass }).default;
  const BlobConfiguration = (require('azurite/dist/src/blob/BlobConfiguration.js') as { default: AzuriteBlobConfigurationClass }).default;
  const directory = mkdtempSync(join(tmpdir(), 'parlance-azurite-'));
  const server = await restartable(
    directory,
    async (port) => {
      const configuration = new BlobConfiguration(
        '127.0.0.1',
        port,
        0, // keepAliveTimeout: 0 keeps Node's default
        join(directory, '__azurite_db_blob__.json'),
        join(directory, '__azurite_db_blob_extent__.json'),
        [{ locationId: 'Default', locationPath: join(directory, '__blobstorage__'), maxConcurrency: 10 }],
        false, // enableAccessLog
        undefined,
        false, // enableDebugLog
        undefined,
        true, // loose: accept headers Azurite does not implement
        true, // skipApiVersionCheck: the SDK may be newer than this Azurite
      );
      const instance = new BlobServer(configuration);
      await instance.start();
      return { server: instance, port: (instance.httpServer.address() as AddressInfo).port };
    },
    (instance) => closeHttpServer(instance.httpServer, () => instance.close()),
  );
  const accountUrl = `http://127.0.0.1:${server.port}/${AZURITE_ACCOUNT_NAME}`;
  const connectionString = `DefaultEndpointsProtocol=http;AccountName=${AZURITE_ACCOUNT_NAME};AccountKey=${AZURITE_ACCOUNT_KEY};BlobEndpoint=${accountUrl};`;
  const sharedKey = new StorageSharedKeyCredential(AZURITE_ACCOUNT_NAME, AZURITE_ACCOUNT_KEY);
  return {
    ...server,
    connectionString,
    accountUrl,
    accountName: AZURITE_ACCOUNT_NAME,
    accountKey: AZURITE_ACCOUNT_KEY,
    async createContainer(name) {
      await new ContainerClient(`${accountUrl}/${name}`, sharedKey).create();
    },
    async containerSasUrl(name) {
      const sas = generateBlobSASQueryParameters(
        { containerName: name, permissions: ContainerSASPermissions.parse('racwdl'), startsOn: new Date(Date.now() - 60_000), expiresOn: new Date(Date.now() + 3_600_000) },
        sharedKey,
      );
      return `${accountUrl}/${name}?${sas.toString()}`;
    },
  };
}
