/** The one error a connector throws: its kind tells the framework whether a retry can help. */

/**
 * Why a sync could not go on. `auth` (the credentials were refused) and `config` (a setting names something the
 * remote system does not have) fail the sync at once; `unavailable` (the remote system is down, busy or timing out)
 * is retried with backoff.
 */
export class ConnectorError extends Error {
  constructor(
    readonly kind: 'auth' | 'config' | 'unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'ConnectorError';
  }

  /** Whether retrying cannot help (the HTTP client rethrows such an error at once). */
  get permanent(): boolean {
    return this.kind !== 'unavailable';
  }
}
