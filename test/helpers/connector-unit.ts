/** What connector-level tests share: a context as the sync engine builds it, and the ConnectorError a call rejects with. */
import { expect } from 'vitest';
import { createConnectorHttp } from '../../server/integrations/connector-http.js';
import type { Connector, ConnectorContext, StringUnit, UploadedFile, WriteBack } from '../../server/integrations/connector.js';
import { ConnectorError } from '../../server/integrations/connector-error.js';

export interface ContextOptions {
  /** Default de, fr and ja, as the acceptance kit's project. */
  targetLocales?: string[];
  sourceLocale?: string;
  connectionId?: string;
  /** Retries of one request (default 0: a test sees the first failure). */
  maxRetries?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The file uploaded to the connection, for connectors with `upload` (default: none uploaded). */
  upload?: UploadedFile | null;
}

/** A context for `connector` with settings and secrets parsed by its own schemas (defaults applied, as at connect). */
export function connectorContext<S, K>(connector: Connector<S, K>, settings: unknown, secrets: unknown, options: ContextOptions = {}): ConnectorContext<S, K> {
  const signal = options.signal ?? new AbortController().signal;
  return {
    settings: connector.settings.parse(settings),
    secrets: connector.secrets.parse(secrets),
    http: createConnectorHttp({ signal, maxRetries: options.maxRetries ?? 0, timeoutMs: options.timeoutMs ?? 5000 }),
    sourceLocale: options.sourceLocale ?? 'en',
    targetLocales: options.targetLocales ?? ['de', 'fr', 'ja'],
    signal,
    connectionId: options.connectionId ?? `con_${connector.id}_test`,
    ...(connector.upload ? { upload: options.upload ?? null } : {}),
  };
}

/** The ConnectorError `promise` rejects with; fails the test if it resolves or rejects with anything else. */
export async function rejection(promise: Promise<unknown>): Promise<ConnectorError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConnectorError);
  return error as ConnectorError;
}

/** A write-back of string translations into `unit`, each with the ref the listing gave its key. */
export function stringsWriteBack(unit: StringUnit, rows: readonly { key: string; locale: string; text: string }[]): WriteBack {
  return {
    strings: rows.map((row) => ({ path: unit.path, key: row.key, locale: row.locale, text: row.text, ...(unit.strings.find((s) => s.key === row.key)?.ref !== undefined ? { ref: unit.strings.find((s) => s.key === row.key)!.ref! } : {}) })),
    files: [],
    batches: [],
    problems: [],
  };
}
