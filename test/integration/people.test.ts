/**
 * People over HTTP, on both backends: sign-up and sign-in (argon2id, rate-limited guessing), sessions that expire and
 * can be revoked, CSRF refusal, project credentials whose abilities follow the role per project, invitations, seats,
 * the free plan, and the console's data endpoints (/v1/keys, /v1/progress).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountClient, type AccountClient } from '../../src/client/account.js';
import { ApiError, createClient } from '../../src/client/client.js';
import { filePush, startService, waitForBatch, type TestService } from '../helpers/service.js';

let service: TestService;

beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.stop();
});

/** A browser stand-in: the account client with a cookie jar and this service's Origin. */
function person() {
  let cookie: string | undefined;
  const setCookies: string[] = [];
  const client: AccountClient = createAccountClient({
    baseUrl: service.url,
    origin: service.url,
    cookie: () => cookie,
    onSetCookie: (value) => {
      setCookies.push(value);
      const pair = value.split(';')[0]!;
      cookie = /=$/.test(pair) || /Max-Age=0/i.test(value) ? undefined : pair;
    },
  });
  return { client, setCookies, cookie: () => cookie, forget: () => (cookie = undefined) };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

const PASSWORD = 'correct horse battery';
let owner: ReturnType<typeof person>;
let ownerEmail: string;

describe('sign-up, sign-in, sessions', () => {
  it('the first person becomes owner of the first (demo) organisation; the cookie is HttpOnly and SameSite=Strict', async () => {
    owner = person();
    ownerEmail = 'Owner@Example.com';
    const session = await owner.client.signUp({ email: ownerEmail, password: PASSWORD, name: 'Olive Owner' });
    expect(session.user.email).toBe('owner@example.com');
    expect(session.organisations).toEqual([expect.objectContaining({ id: service.organisationId, role: 'owner', plan: 'starter', can_mint_tokens: true })]);
    expect(session.organisations[0]!.seats).toEqual({ plan: 'starter', limit: 3, used: 1, members: 1, pending_invitations: 0 });
    expect(session.projects).toEqual([expect.objectContaining({ id: service.projectId, role: 'owner', abilities: ['push', 'pull', 'read', 'write', 'manage'] })]);
    const cookie = owner.setCookies[0]!;
    expect(cookie).toMatch(/^parlance_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/);
    const stored = await service.runtime.db.selectFrom('users').select('password_hash').where('email', '=', 'owner@example.com').executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^\$argon2id\$v=19\$/);
  });

  it('refuses a second account for the same address, a short password and a bad address', async () => {
    expect((await failure(person().client.signUp({ email: 'owner@example.com', password: PASSWORD }))).code).toBe('email_taken');
    const short = await failure(person().client.signUp({ email: 'x@example.com', password: 'short' }));
    expect(short.status).toBe(422);
    expect(short.detail).toContain('password');
    expect((await failure(person().client.signUp({ email: 'not-an-address', password: PASSWORD }))).detail).toContain('email');
  });

  it('signs in, signs out, and a signed-out session is refused', async () => {
    const p = person();
    const wrong = await failure(p.client.signIn({ email: ownerEmail, password: 'wrong password!' }));
    expect(wrong.status).toBe(401);
    expect(wrong.code).toBe('credentials_invalid');
    const session = await p.client.signIn({ email: 'OWNER@example.com', password: PASSWORD });
    expect(session.user.name).toBe('Olive Owner');
    const old = p.cookie();
    await p.client.signOut();
    expect(p.setCookies.at(-1)).toMatch(/Max-Age=0/);
    const replay = createAccountClient({ baseUrl: service.url, origin: service.url, cookie: () => old });
    expect((await failure(replay.session())).code).toBe('session_revoked');
    expect((await failure(p.client.session())).code).toBe('session_missing');
  });

  it('sessions expire, and so do the credentials made from them', async () => {
    const p = person();
    const session = await p.client.signIn({ email: ownerEmail, password: PASSWORD });
    const credential = await p.client.credential(service.projectId);
    expect(new Date(credential.expires_at).getTime() - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(new Date(credential.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    expect((await service.api('/v1/project', { token: credential.token })).status).toBe(200);
    await service.runtime.db.updateTable('browser_sessions').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', session.session.id).execute();
    expect((await failure(p.client.session())).code).toBe('session_expired');
    const res = await service.api('/v1/project', { token: credential.token });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('token_revoked');
  });

  it('a credential past its own expiry is refused with token_expired', async () => {
    const p = person();
    await p.client.signIn({ email: ownerEmail, password: PASSWORD });
    const credential = await p.client.credential(service.projectId);
    await service.runtime.db.updateTable('tokens').set({ expires_at: new Date(Date.now() - 1000) }).where('user_id', 'is not', null).where('expires_at', '=', new Date(credential.expires_at)).execute();
    const res = await service.api('/v1/project', { token: credential.token });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('token_expired');
  });

  it('lists sessions and revokes another one, which ends its credentials at once', async () => {
    const a = person();
    const b = person();
    await a.client.signIn({ email: ownerEmail, password: PASSWORD });
    const bSession = await b.client.signIn({ email: ownerEmail, password: PASSWORD });
    const bCredential = await b.client.credential(service.projectId);
    const listed = await a.client.sessions();
    expect(listed.find((s) => s.id === bSession.session.id)).toMatchObject({ current: false });
    expect(listed.filter((s) => s.current)).toHaveLength(1);
    await a.client.revokeSession(bSession.session.id);
    expect((await failure(b.client.session())).code).toBe('session_revoked');
    expect((await service.api('/v1/project', { token: bCredential.token })).status).toBe(401);
    expect((await failure(a.client.revokeSession('ses_nope'))).status).toBe(404);
  });

  it('a password change needs the current password and signs out every other session', async () => {
    const a = person();
    const b = person();
    await a.client.signIn({ email: ownerEmail, password: PASSWORD });
    await b.client.signIn({ email: ownerEmail, password: PASSWORD });
    const wrong = await failure(a.client.changePassword({ current_password: 'not it at all', new_password: 'a brand new passphrase' }));
    expect(wrong.code).toBe('password_wrong');
    await a.client.changePassword({ current_password: PASSWORD, new_password: 'a brand new passphrase' });
    expect((await a.client.session()).user.email).toBe('owner@example.com');
    expect((await failure(b.client.session())).code).toBe('session_revoked');
    expect((await failure(person().client.signIn({ email: ownerEmail, password: PASSWORD }))).code).toBe('credentials_invalid');
    await a.client.changePassword({ current_password: 'a brand new passphrase', new_password: PASSWORD });
    owner = a;
  });
});

describe('CSRF and rate limits', () => {
  const post = (path: string, headers: Record<string, string>, body: unknown = {}) =>
    fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('refuses state-changing account requests from another origin or with no origin at all', async () => {
    for (const headers of [{}, { origin: 'https://evil.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
      const res = await post('/v1/auth/sign-in', headers, { email: ownerEmail, password: PASSWORD });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      const body = (await res.json()) as { code: string; detail: string };
      expect(body.code).toBe('csrf_refused');
    }
    const cookie = owner.cookie()!;
    const res = await post('/v1/auth/credentials', { cookie, origin: 'https://evil.example' }, { project_id: service.projectId });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('csrf_refused');
    // Same-origin fetches without Origin (some browsers on same-origin GET-like cases) pass on Sec-Fetch-Site.
    const ok = await post('/v1/auth/credentials', { cookie, 'sec-fetch-site': 'same-origin' }, { project_id: service.projectId });
    expect(ok.status).toBe(201);
  });

  it('the session cookie alone cannot act on a project: /v1 routes want a bearer credential', async () => {
    const res = await fetch(`${service.url}/v1/project`, { headers: { cookie: owner.cookie()!, origin: service.url } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('token_missing');
  });

  it('limits failed sign-ins per account: the sixth attempt is refused even with the right password', async () => {
    const p = person();
    await p.client.signUp({ email: 'victim@example.com', password: PASSWORD });
    for (let i = 0; i < 5; i++) expect((await failure(p.client.signIn({ email: 'victim@example.com', password: `guess number ${i}` }))).code).toBe('credentials_invalid');
    const limited = await failure(p.client.signIn({ email: 'victim@example.com', password: PASSWORD }));
    expect(limited.status).toBe(429);
    expect(limited.code).toBe('sign_in_limited');
    expect(limited.detail).toContain('this account');
    expect(limited.retryAfterSeconds).toBeGreaterThan(800);
    expect(limited.retryAfterSeconds).toBeLessThanOrEqual(900);
  });

  it('forgets attempts older than the window, and sessions long expired, when the account signs in', async () => {
    const p = person();
    const old = new Date(Date.now() - 3_600_000);
    await service.runtime.db.insertInto('sign_in_attempts').values({ email: 'owner@example.com', ip: '203.0.113.9', succeeded: false, at: old }).execute();
    const user = await service.runtime.db.selectFrom('users').select('id').where('email', '=', 'owner@example.com').executeTakeFirstOrThrow();
    await service.runtime.db
      .insertInto('browser_sessions')
      .values({ id: 'ses_ancient', user_id: user.id, secret_hash: 'f'.repeat(64), expires_at: new Date(Date.now() - 2 * 86_400_000) })
      .execute();
    await p.client.signIn({ email: ownerEmail, password: PASSWORD });
    expect(await service.runtime.db.selectFrom('sign_in_attempts').select('id').where('email', '=', 'owner@example.com').where('at', '<', new Date(Date.now() - 1_800_000)).execute()).toEqual([]);
    expect(await service.runtime.db.selectFrom('browser_sessions').select('id').where('id', '=', 'ses_ancient').execute()).toEqual([]);
  });

  it('limits failed sign-ins per address across accounts', async () => {
    const p = person();
    let limited: ApiError | undefined;
    for (let i = 0; i < 30 && !limited; i++) {
      const error = await failure(p.client.signIn({ email: `nobody${i}@example.com`, password: 'whatever it is' }));
      if (error.code === 'sign_in_limited') limited = error;
      else expect(error.code).toBe('credentials_invalid');
    }
    expect(limited?.detail).toContain('your address');
    // The limit is on failures from this address: the owner cannot sign in from it either until the window passes.
    expect((await failure(person().client.signIn({ email: ownerEmail, password: PASSWORD }))).code).toBe('sign_in_limited');
    await service.runtime.db.deleteFrom('sign_in_attempts').execute();
  });
});

describe('projects, roles, invitations and seats', () => {
  let translator: ReturnType<typeof person>;
  let translatorId: string;
  let secondProjectId: string;
  let invitationUrl: string;

  it('an owner creates a second project in the organisation', async () => {
    const project = await owner.client.createProject({ organisation_id: service.organisationId, name: 'Mobile', source_locale: 'en', target_locales: ['de', 'ar'] });
    expect(project).toMatchObject({ name: 'Mobile', role: 'owner', organisation_id: service.organisationId });
    secondProjectId = project.id;
    const bad = await failure(owner.client.createProject({ organisation_id: service.organisationId, name: 'X', source_locale: 'en_us2', target_locales: [] }));
    expect(bad.code).toBe('locale_invalid');
  });

  it('invites a translator: a single-use link with an expiry, holding a seat', async () => {
    const ownerCredential = await owner.client.credential(service.projectId);
    const api = createClient({ baseUrl: service.url, token: ownerCredential.token });
    const invitation = await api.invite({ email: 'Tess@Example.com', role: 'translator' });
    expect(invitation).toMatchObject({ email: 'tess@example.com', role: 'translator', accepted_at: null, mailed: false });
    expect(invitation.url).toMatch(new RegExp(`^${service.url}/#/invite/[A-Za-z0-9_-]{32}$`));
    expect(new Date(invitation.expires_at).getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    invitationUrl = invitation.url!;
    const { seats } = await api.members();
    expect(seats).toEqual({ plan: 'starter', limit: 3, used: 2, members: 1, pending_invitations: 1 });
    expect((await failure(api.invite({ email: 'tess@example.com', role: 'admin' }))).code).toBe('invitation_pending');
  });

  it('the invitee previews the link, signs up with it, and cannot use it twice', async () => {
    const token = invitationUrl.split('/').pop()!;
    translator = person();
    const preview = await translator.client.invitation(token);
    expect(preview).toMatchObject({ organisation: { id: service.organisationId, name: 'Acme' }, project: { id: service.projectId }, email: 'tess@example.com', role: 'translator' });
    const wrongPerson = person();
    expect((await failure(wrongPerson.client.signUp({ email: 'mallory@example.com', password: PASSWORD, invitation: token }))).code).toBe('invitation_email_mismatch');
    const session = await translator.client.signUp({ email: 'tess@example.com', password: PASSWORD, name: 'Tess', invitation: token });
    translatorId = session.user.id;
    expect(session.organisations).toEqual([expect.objectContaining({ id: service.organisationId, role: 'translator' })]);
    expect(session.projects.map((p) => [p.id, p.role])).toEqual(expect.arrayContaining([[service.projectId, 'translator'], [secondProjectId, 'translator']]));
    expect((await failure(translator.client.acceptInvitation(token))).code).toBe('invitation_used');
    expect((await failure(person().client.invitation(token))).status).toBe(410);
    expect((await failure(person().client.invitation('x'.repeat(32)))).code).toBe('invitation_invalid');
  });

  it('a translator reads and writes, but is refused tokens, push and members with 403 ability_missing', async () => {
    const credential = await translator.client.credential(service.projectId);
    expect(credential).toMatchObject({ role: 'translator', abilities: ['read', 'write'] });
    expect((await service.api('/v1/project', { token: credential.token })).status).toBe(200);
    expect((await service.api('/v1/glossary', { token: credential.token, method: 'POST', json: { term: 'Parlance' } })).status).toBe(201);
    for (const [method, path] of [['GET', '/v1/tokens'], ['POST', '/v1/tokens'], ['GET', '/v1/members'], ['POST', '/v1/invitations']] as const) {
      const res = await service.api(path, { token: credential.token, method, ...(method === 'POST' ? { json: { name: 'x', email: 'a@b.co', role: 'translator' } } : {}) });
      expect(res.status, `${method} ${path}`).toBe(403);
      const body = (await res.json()) as { code: string; ability: string };
      expect(body.code).toBe('ability_missing');
      expect(body.ability).toBe('manage');
    }
    const push = await service.api('/v1/push', { token: credential.token, method: 'POST', body: filePush('{"a":"b"}', { format: 'json', path: 'x.json' }) });
    expect(push.status).toBe(403);
  });

  it('roles differ per project, and a change applies to a credential already in hand on its next request', async () => {
    const first = await translator.client.credential(service.projectId);
    const second = await translator.client.credential(secondProjectId);
    const ownerApi = createClient({ baseUrl: service.url, token: (await owner.client.credential(secondProjectId)).token });
    const changed = await ownerApi.setMemberRole(translatorId, 'developer');
    expect(changed).toMatchObject({ role: 'developer', organisation_role: 'translator', project_override: true, abilities: ['push', 'pull', 'read', 'write'] });
    // The same credential, minted before the change, now pushes on the second project...
    const push = await service.api('/v1/push', { token: second.token, method: 'POST', body: filePush('{"hello":"Hello"}', { format: 'json', path: 'app.json' }) });
    expect(push.status).toBe(202);
    // ...while on the first project the person is still a translator.
    expect((await service.api('/v1/push', { token: first.token, method: 'POST', body: filePush('{"a":"b"}', { format: 'json', path: 'x.json' }) })).status).toBe(403);
    const members = await ownerApi.members();
    expect(members.items.map((m) => [m.email, m.role])).toEqual([
      ['owner@example.com', 'owner'],
      ['tess@example.com', 'developer'],
    ]);
    // Back to translator: the pushing credential loses push on its next request.
    await ownerApi.setMemberRole(translatorId, 'translator');
    expect((await service.api('/v1/push', { token: second.token, method: 'POST', body: filePush('{"x":"y"}', { format: 'json', path: 'app.json' }) })).status).toBe(403);
  });

  it('guards roles: nobody changes their own, only owners make owners, the last owner stays', async () => {
    const ownerSession = await owner.client.session();
    const ownerApi = createClient({ baseUrl: service.url, token: (await owner.client.credential(service.projectId)).token });
    expect((await failure(ownerApi.setMemberRole(ownerSession.user.id, 'admin'))).code).toBe('role_forbids');
    await ownerApi.setMemberRole(translatorId, 'admin');
    const adminApi = createClient({ baseUrl: service.url, token: (await translator.client.credential(service.projectId)).token });
    expect((await failure(adminApi.setMemberRole(ownerSession.user.id, 'translator'))).code).toBe('role_forbids');
    expect((await failure(adminApi.invite({ email: 'boss@example.com', role: 'owner' }))).code).toBe('role_forbids');
    expect((await failure(adminApi.removeMember(ownerSession.user.id))).code).toBe('role_forbids');
    await ownerApi.setMemberRole(translatorId, 'translator');
  });

  it('a fourth member on a 3-seat plan is refused with 402 seats_exhausted; withdrawing an invitation frees the seat', async () => {
    const api = createClient({ baseUrl: service.url, token: (await owner.client.credential(service.projectId)).token });
    const third = await api.invite({ email: 'dev@example.com', role: 'developer' });
    const refused = await failure(api.invite({ email: 'fourth@example.com', role: 'translator' }));
    expect(refused.status).toBe(402);
    expect(refused.code).toBe('seats_exhausted');
    expect(refused.detail).toBe(
      `All 3 seats of the starter plan are taken (2 members, 1 pending invitation). Remove a member or withdraw an invitation to free a seat. On this self-hosted instance an operator can run \`parlance admin org set-plan ${service.organisationId} unlimited\`.`,
    );
    const listed = await api.invitations();
    expect(listed.map((i) => i.email)).toEqual(['dev@example.com', 'tess@example.com']);
    const withdrawn = await api.revokeInvitation(third.id);
    expect(withdrawn.revoked_at).not.toBeNull();
    expect((await failure(person().client.invitation(third.url!.split('/').pop()!))).code).toBe('invitation_revoked');
    const again = await api.invite({ email: 'fourth@example.com', role: 'translator' });
    expect(again.email).toBe('fourth@example.com');
    await api.revokeInvitation(again.id);
  });

  it('an expired invitation is refused', async () => {
    const api = createClient({ baseUrl: service.url, token: (await owner.client.credential(service.projectId)).token });
    const invitation = await api.invite({ email: 'late@example.com', role: 'translator' });
    await service.runtime.db.updateTable('invitations').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', invitation.id).execute();
    const p = person();
    expect((await failure(p.client.signUp({ email: 'late@example.com', password: PASSWORD, invitation: invitation.url!.split('/').pop()! }))).code).toBe('invitation_expired');
    // Nothing half-written: the address is still free.
    expect((await service.runtime.db.selectFrom('users').select('id').where('email', '=', 'late@example.com').execute()).length).toBe(0);
  });

  it('removing a member frees the seat and ends their credentials on the next request', async () => {
    const credential = await translator.client.credential(service.projectId);
    const api = createClient({ baseUrl: service.url, token: (await owner.client.credential(service.projectId)).token });
    const removed = await api.removeMember(translatorId);
    expect(removed.email).toBe('tess@example.com');
    expect((await service.api('/v1/project', { token: credential.token })).status).toBe(401);
    expect((await translator.client.session()).projects).toEqual([]);
    expect((await api.members()).seats.used).toBe(1);
  });
});

describe('the free plan: console only', () => {
  it('a new person gets a free organisation: one project, a credential, but no API tokens', async () => {
    const p = person();
    const session = await p.client.signUp({ email: 'hobby@example.com', password: PASSWORD, name: 'Hobbyist' });
    expect(session.organisations).toEqual([expect.objectContaining({ name: "Hobbyist's organisation", plan: 'free', role: 'owner', can_mint_tokens: false })]);
    expect(session.projects).toEqual([]);
    const organisationId = session.organisations[0]!.id;
    const project = await p.client.createProject({ organisation_id: organisationId, name: 'Site', source_locale: 'en', target_locales: ['fr'] });
    expect((await failure(p.client.createProject({ organisation_id: organisationId, name: 'Second', source_locale: 'en', target_locales: [] }))).code).toBe('plan_project_limit');
    const credential = await p.client.credential(project.id);
    const api = createClient({ baseUrl: service.url, token: credential.token });
    const refused = await failure(api.createToken({ name: 'ci' }));
    expect(refused.code).toBe('plan_forbids_tokens');
    expect(refused.detail).toContain('free plan');
    const batch = await api.pushFile({ path: 'en.json', content: new TextEncoder().encode('{"hi":"Hello"}') });
    expect(batch.rows.total).toBe(1);
    // Someone else's project is not there to be found.
    expect((await failure(p.client.credential(service.projectId))).status).toBe(404);
    expect((await failure(p.client.createProject({ organisation_id: service.organisationId, name: 'Sneak', source_locale: 'en', target_locales: [] }))).status).toBe(404);

    // Invited into a second organisation, the signed-in person accepts and sees both.
    const ownerApi = createClient({ baseUrl: service.url, token: (await owner.client.credential(service.projectId)).token });
    const invitation = await ownerApi.invite({ email: 'hobby@example.com', role: 'developer' });
    const joined = await p.client.acceptInvitation(invitation.url!.split('/').pop()!);
    expect(joined).toMatchObject({ organisation_id: service.organisationId, role: 'developer' });
    const both = await p.client.session();
    expect(both.organisations.map((o) => [o.name, o.role])).toEqual([
      ['Acme', 'developer'],
      ["Hobbyist's organisation", 'owner'],
    ]);
    expect(both.projects.find((x) => x.id === service.projectId)).toMatchObject({ role: 'developer', abilities: ['push', 'pull', 'read', 'write'] });
    expect((await failure(p.client.acceptInvitation(invitation.url!.split('/').pop()!))).code).toBe('invitation_used');
    await ownerApi.removeMember(both.user.id);
  });

  it('PARLANCE_SIGNUP=invite refuses sign-ups without an invitation', async () => {
    const closed = await startService({ env: { PARLANCE_SIGNUP: 'invite' } });
    try {
      const first = createAccountClient({ baseUrl: closed.url, origin: closed.url });
      await first.signUp({ email: 'first@example.com', password: PASSWORD });
      const error = await failure(createAccountClient({ baseUrl: closed.url, origin: closed.url }).signUp({ email: 'second@example.com', password: PASSWORD }));
      expect(error.code).toBe('signup_invite_only');
    } finally {
      await closed.stop();
    }
  });
});

describe('the console data endpoints', () => {
  it('GET /v1/keys pages, filters and searches keys per locale; GET /v1/progress counts them', async () => {
    const entries = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`key_${String(i).padStart(3, '0')}`, i % 10 === 0 ? `Needle ${i} {count}` : `Hay ${i}`]));
    const res = await service.api('/v1/push', { method: 'POST', body: filePush(JSON.stringify(entries, null, 2), { format: 'json', path: 'locales/en.json' }) });
    expect(res.status).toBe(202);
    const batch = (await res.json()) as { id: string };
    await waitForBatch(service, batch.id);
    const api = createClient({ baseUrl: service.url, token: service.token });
    const first = await api.keys({ locale: 'de', limit: 50 });
    expect(first.total).toBe(120);
    expect(first.items).toHaveLength(50);
    expect(first.items[0]).toMatchObject({ key: 'key_000', path: 'locales/en.json', locale: 'de', state: 'machine', line: 2, held: null });
    expect(first.items[0]!.translation?.text).toContain('{count}');
    const seen = new Set(first.items.map((k) => k.key));
    let cursor = first.next_cursor;
    while (cursor) {
      const page = await api.keys({ locale: 'de', limit: 50, cursor });
      for (const k of page.items) seen.add(k.key);
      cursor = page.next_cursor;
    }
    expect(seen.size).toBe(120);
    const needles = await api.keys({ locale: 'de', q: 'needle' });
    expect(needles.total).toBe(12);
    expect((await api.keys({ locale: 'de', q: '%' })).total).toBe(0);
    expect((await api.keys({ locale: 'de', state: 'missing' })).total).toBe(0);
    expect((await api.keys({ locale: 'de', path: 'nope.json' })).total).toBe(0);
    // A human edit moves a key to `human`; a held candidate, to `held`.
    await api.putTranslation({ key: 'key_001', locale: 'de', path: 'locales/en.json', text: 'Heu 1' });
    expect((await api.keys({ locale: 'de', state: 'human' })).items.map((k) => k.key)).toEqual(['key_001']);
    await service.runtime.db.deleteFrom('translations').where('locale', '=', 'fr').execute();
    const progress = await api.progress();
    const de = progress.locales.find((l) => l.locale === 'de')!;
    const fr = progress.locales.find((l) => l.locale === 'fr')!;
    expect(de.keys).toBeGreaterThanOrEqual(120);
    expect(de.translated + de.held + de.flagged + de.missing).toBe(de.keys);
    expect(fr.missing).toBe(fr.keys);
    const bad = await failure(api.keys({ locale: 'xx-nope-zz' }));
    expect([404, 422]).toContain(bad.status);
    expect((await failure(api.keys({ locale: 'de', cursor: 'garbage' }))).status).toBe(422);
  });

  it('documents the auth, members, invitations, keys and progress endpoints in the OpenAPI document', async () => {
    const doc = (await (await service.api('/v1/openapi.json', { token: null })).json()) as { paths: Record<string, Record<string, { security?: unknown[] }>>; components: { securitySchemes: Record<string, unknown> } };
    for (const path of [
      '/v1/auth/sign-up',
      '/v1/auth/sign-in',
      '/v1/auth/sign-out',
      '/v1/auth/session',
      '/v1/auth/sessions',
      '/v1/auth/sessions/{id}',
      '/v1/auth/password',
      '/v1/auth/credentials',
      '/v1/auth/projects',
      '/v1/auth/invitations/{token}',
      '/v1/auth/invitations/{token}/accept',
      '/v1/members',
      '/v1/members/{user_id}',
      '/v1/invitations',
      '/v1/invitations/{id}',
      '/v1/keys',
      '/v1/progress',
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
    expect(doc.paths['/v1/auth/sign-in']!.post!.security).toEqual([]);
    expect(doc.paths['/v1/auth/credentials']!.post!.security).toEqual([{ session: [] }]);
    expect(doc.components.securitySchemes.session).toMatchObject({ type: 'apiKey', in: 'cookie' });
  });
});

describe('invitation mail through SMTP', () => {
  it('mails the link when SMTP_URL is set, and lists the link again when links are kept encrypted', async () => {
    const { SMTPServer } = await import('smtp-server');
    const received: { from: string; to: string[]; body: string }[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let body = '';
        stream.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), body });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as { port: number }).port;
    const mailing = await startService({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, SMTP_FROM: 'Parlance <noreply@parlance.test>', PARLANCE_SECRET_KEY: '11'.repeat(32) } });
    try {
      const p = createAccountClient({ baseUrl: mailing.url, origin: mailing.url, cookie: () => jar, onSetCookie: (v) => (jar = v.split(';')[0]) });
      let jar: string | undefined;
      await p.signUp({ email: 'boss@example.com', password: PASSWORD });
      const api = createClient({ baseUrl: mailing.url, token: (await p.credential(mailing.projectId)).token });
      const invitation = await api.invite({ email: 'new@example.com', role: 'developer' });
      expect(invitation.mailed).toBe(true);
      expect(received).toHaveLength(1);
      expect(received[0]!.from).toBe('noreply@parlance.test');
      expect(received[0]!.to).toEqual(['new@example.com']);
      const body = received[0]!.body.replace(/=\r?\n/g, '');
      expect(body).toContain('You are invited to Acme on Parlance');
      expect(body).toContain(invitation.url!);
      expect((await api.invitations())[0]).toMatchObject({ id: invitation.id, url: invitation.url, mailed: true });
    } finally {
      await mailing.stop();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});

describe('console credentials in the token list', () => {
  it('lists a live console credential as kind session, and leaves out expired ones', async () => {
    const p = person();
    await p.client.signIn({ email: ownerEmail, password: PASSWORD });
    const credential = await p.client.credential(service.projectId);
    const api = createClient({ baseUrl: service.url, token: credential.token });
    const live = (await api.tokens()).filter((t) => t.kind === 'session' && t.name === 'console: owner@example.com');
    expect(live.length).toBeGreaterThan(0);
    await service.runtime.db.updateTable('tokens').set({ expires_at: new Date(Date.now() - 1000) }).where('user_id', 'is not', null).where('id', '!=', live[0]!.id).execute();
    const after = (await api.tokens()).filter((t) => t.kind === 'session' && t.name === 'console: owner@example.com');
    expect(after.map((t) => t.id)).toEqual([live[0]!.id]);
  });
});
