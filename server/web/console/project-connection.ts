/**
 * A signed-in person's connection to one project: the short-lived project credential, held only in this closure
 * (never in storage or cookies), renewed before it expires and once when the API says it expired or was revoked.
 */
import type { AccountClient } from '../../../src/client/account.js';
import { ApiError, createClient, type ParlanceClient } from '../../../src/client/client.js';
import type { ProjectCredential } from '../../../src/client/types.js';

/** Renew this long before `expires_at`, so a request in flight never carries an expired credential. */
const RENEW_BEFORE_MS = 60_000;
const MIN_RENEW_DELAY_MS = 5_000;
const RETRY_RENEW_MS = 30_000;
const STALE_CODES: ReadonlySet<string> = new Set(['token_expired', 'token_revoked']);
const ABILITY_REFRESH_MS = 30_000;

export interface ProjectConnection {
  readonly projectId: string;
  readonly client: ParlanceClient;
  /** Resolves with the first credential; rejects when the project cannot be opened (ApiError). */
  readonly ready: Promise<ProjectCredential>;
  /** The current credential's role and abilities (the token itself stays inside). */
  current(): Pick<ProjectCredential, 'role' | 'abilities' | 'expires_at'> | undefined;
  close(): void;
}

export interface ConnectionOptions {
  account: AccountClient;
  projectId: string;
  /** The session is gone (minting a credential answered 401): the person must sign in again. */
  onSignedOut: () => void;
  /** A new credential arrived; its role or abilities may have changed. */
  onRenewed?: (credential: ProjectCredential) => void;
  onRetry?: (message: string) => void;
}

export function connectProject(options: ConnectionOptions): ProjectConnection {
  const { account, projectId } = options;
  let credential: ProjectCredential | undefined;
  let minting: Promise<ProjectCredential> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let lastAbilityRefresh = 0;

  function schedule(delayMs: number) {
    clearTimeout(timer);
    if (closed) return;
    timer = setTimeout(() => void mint().catch(() => undefined), Math.max(MIN_RENEW_DELAY_MS, delayMs));
  }

  function mint(): Promise<ProjectCredential> {
    minting ??= account
      .credential(projectId)
      .then((fresh) => {
        credential = fresh;
        schedule(Date.parse(fresh.expires_at) - Date.now() - RENEW_BEFORE_MS);
        if (!closed) options.onRenewed?.(fresh);
        return fresh;
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 401) {
          credential = undefined;
          if (!closed) {
            closed = true;
            clearTimeout(timer);
            options.onSignedOut();
          }
        } else if (credential !== undefined) {
          // A passing outage: keep the current credential while it lasts and try again.
          schedule(RETRY_RENEW_MS);
        }
        throw error;
      })
      .finally(() => {
        minting = undefined;
      });
    return minting;
  }

  const ready = mint();
  // Callers that never await `ready` must not see an unhandled rejection; the error reaches them through requests.
  ready.catch(() => undefined);

  async function send(input: RequestInfo | URL, init: RequestInit | undefined, token: string): Promise<Response> {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    // Browsers refuse to let a page set User-Agent; the client's default would only be dropped.
    headers.delete('user-agent');
    return fetch(input, { ...init, headers });
  }

  /**
   * Every /v1 request goes through here: it waits for a credential, and renews it once on token_expired or
   * token_revoked. A failed renewal is answered as the API answered it (never thrown: the client would take a throw
   * for a network error and send the request again).
   */
  async function credentialFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    let first: ProjectCredential;
    try {
      first = credential ?? (await (minting ?? mint()));
    } catch (error) {
      return problemResponse(error);
    }
    const res = await send(input, init, first.token);
    if (res.status !== 401 && res.status !== 403) return res;
    const code = await res
      .clone()
      .json()
      .then((body: { code?: unknown }) => body.code)
      .catch(() => undefined);
    if (code === 'ability_missing') {
      // The role may have changed since the credential was minted: a fresh one brings the navigation up to date.
      if (Date.now() - lastAbilityRefresh > ABILITY_REFRESH_MS) {
        lastAbilityRefresh = Date.now();
        void mint().catch(() => undefined);
      }
      return res;
    }
    if (res.status !== 401 || typeof code !== 'string' || !STALE_CODES.has(code)) return res;
    let renewed: ProjectCredential;
    try {
      renewed = credential !== undefined && credential.token !== first.token ? credential : await mint();
    } catch {
      return res;
    }
    return send(input, init, renewed.token);
  }

  const client = createClient({
    baseUrl: location.origin,
    // The function keeps the token out of error messages (the client redacts what it returns).
    token: () => credential?.token ?? '',
    fetch: credentialFetch,
    maxWaitMs: 30_000,
    onRetry: (info) => options.onRetry?.(info.reason === 'rate_limited' ? `Rate limited: retrying in ${Math.ceil(info.waitMs / 1000)} s.` : `Service unavailable: retrying in ${Math.ceil(info.waitMs / 1000)} s.`),
  });

  return {
    projectId,
    client,
    ready,
    current: () => (credential ? { role: credential.role, abilities: credential.abilities, expires_at: credential.expires_at } : undefined),
    close() {
      closed = true;
      clearTimeout(timer);
      credential = undefined;
    },
  };
}

/** An ApiError from minting, as the Response the client would have received, so it reaches the page as that ApiError. */
function problemResponse(error: unknown): Response {
  const problem = error instanceof ApiError ? { status: error.status, code: error.code, detail: error.detail } : { status: 503, code: 'credential_unavailable', detail: error instanceof Error ? error.message : String(error) };
  // Same status, so the client retries what is worth retrying (an outage, a rate limit), which mints again.
  return new Response(JSON.stringify({ code: problem.code, detail: problem.detail }), { status: problem.status, headers: { 'content-type': 'application/problem+json' } });
}
