/**
 * The account half of the /v1 client: sign-up, sign-in and the other /v1/auth endpoints, which a person's browser
 * reaches with its session cookie (HttpOnly, so this code never sees it). A signed-in person then acts on one project
 * through a short-lived project credential (`credential()`), used with `createClient` like any project token.
 */
import { apiErrorFrom, readJson } from './client.js';
import type { AccountSession, BrowserSession, InvitationPreview, ProjectCredential, Role } from './types.js';

export interface AccountClientOptions {
  /** '' in the console (same origin), or e.g. 'http://127.0.0.1:8787'. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Sent as Origin by non-browser callers (tests, scripts); a browser sets Origin itself. */
  origin?: string;
  /** Sent as Cookie by non-browser callers; a browser keeps the cookie itself. */
  cookie?: () => string | undefined;
  /** Called with each Set-Cookie a non-browser caller receives. */
  onSetCookie?: (value: string) => void;
}

export interface AccountClient {
  signUp(input: { email: string; password: string; name?: string; invitation?: string }): Promise<AccountSession>;
  signIn(input: { email: string; password: string }): Promise<AccountSession>;
  signOut(): Promise<void>;
  /** The signed-in user, their organisations and the projects they can open; 401 when signed out. */
  session(): Promise<AccountSession>;
  sessions(): Promise<BrowserSession[]>;
  revokeSession(id: string): Promise<void>;
  /** Revokes every other session of the user. */
  changePassword(input: { current_password: string; new_password: string }): Promise<void>;
  credential(projectId: string): Promise<ProjectCredential>;
  createProject(input: { organisation_id: string; name: string; source_locale: string; target_locales: string[] }): Promise<AccountSession['projects'][number]>;
  invitation(token: string): Promise<InvitationPreview>;
  acceptInvitation(token: string): Promise<{ organisation_id: string; project_id: string | null; role: Role }>;
}

export function createAccountClient(options: AccountClientOptions): AccountClient {
  const doFetch = options.fetch ?? fetch;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');

  async function send(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (options.origin) headers.origin = options.origin;
    const cookie = options.cookie?.();
    if (cookie) headers.cookie = cookie;
    const res = await doFetch(`${baseUrl}${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) options.onSetCookie?.(setCookie);
    if (!res.ok) throw await apiErrorFrom(res, `${method} ${path}`, (text) => text);
    return res;
  }
  const json = async <T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => readJson<T>(await send(method, path, body), `${method} ${path}`);

  return {
    signUp: (input) => json<AccountSession>('POST', '/v1/auth/sign-up', input),
    signIn: (input) => json<AccountSession>('POST', '/v1/auth/sign-in', input),
    signOut: async () => void (await send('POST', '/v1/auth/sign-out')),
    session: () => json<AccountSession>('GET', '/v1/auth/session'),
    sessions: async () => (await json<{ items: BrowserSession[] }>('GET', '/v1/auth/sessions')).items,
    revokeSession: async (id) => void (await send('DELETE', `/v1/auth/sessions/${encodeURIComponent(id)}`)),
    changePassword: async (input) => void (await send('POST', '/v1/auth/password', input)),
    credential: (projectId) => json<ProjectCredential>('POST', '/v1/auth/credentials', { project_id: projectId }),
    createProject: (input) => json<AccountSession['projects'][number]>('POST', '/v1/auth/projects', input),
    invitation: (token) => json<InvitationPreview>('GET', `/v1/auth/invitations/${encodeURIComponent(token)}`),
    acceptInvitation: (token) => json<{ organisation_id: string; project_id: string | null; role: Role }>('POST', `/v1/auth/invitations/${encodeURIComponent(token)}/accept`),
  };
}
