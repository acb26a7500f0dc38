/** Hash routes of the console (`#/p/<projectId>/keys?locale=de`), so the server only ever serves index.html at `/`. */

export const PROJECT_PAGES = ['overview', 'keys', 'review', 'upload', 'imports', 'batches', 'delivery', 'glossary', 'languages', 'translation', 'usage', 'members', 'invitations', 'tokens', 'webhooks', 'github', 'integrations'] as const;
export type ProjectPage = (typeof PROJECT_PAGES)[number];

export type Route =
  | { name: 'sign-in'; next: string | undefined }
  | { name: 'sign-up'; next: string | undefined }
  | { name: 'invite'; token: string }
  | { name: 'account' }
  | { name: 'projects' }
  | { name: 'project'; projectId: string; page: ProjectPage; id: string | undefined; query: URLSearchParams }
  | { name: 'not-found'; hash: string };

const isProjectPage = (value: string): value is ProjectPage => (PROJECT_PAGES as readonly string[]).includes(value);

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#/, '');
  const [pathPart = '', queryPart = ''] = raw.split('?', 2);
  const query = new URLSearchParams(queryPart);
  const segments = pathPart.split('/').filter(Boolean).map(decode);
  const [first, second, third, fourth] = segments;
  if (first === undefined) return { name: 'projects' };
  if (first === 'sign-in' && segments.length === 1) return { name: 'sign-in', next: query.get('next') ?? undefined };
  if (first === 'sign-up' && segments.length === 1) return { name: 'sign-up', next: query.get('next') ?? undefined };
  if (first === 'invite' && second && segments.length === 2) return { name: 'invite', token: second };
  if (first === 'account' && segments.length === 1) return { name: 'account' };
  if (first === 'projects' && segments.length === 1) return { name: 'projects' };
  if (first === 'p' && second) {
    const page = third ?? 'overview';
    if (isProjectPage(page) && segments.length <= 4) return { name: 'project', projectId: second, page, id: fourth, query };
  }
  return { name: 'not-found', hash: raw };
}

/** `#/p/prj_1/keys?locale=de` */
export function projectHref(projectId: string, page: ProjectPage = 'overview', id?: string, query?: Record<string, string | undefined>): string {
  let href = `#/p/${encodeURIComponent(projectId)}`;
  if (page !== 'overview' || id !== undefined) href += `/${page}`;
  if (id !== undefined) href += `/${encodeURIComponent(id)}`;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== '') params.set(name, value);
  const text = params.toString();
  return text ? `${href}?${text}` : href;
}

/** Where sign-in sends the person back to: only a route of this console, never another site. */
export function safeNext(next: string | undefined): string {
  return next !== undefined && next.startsWith('#/') && !next.startsWith('#/sign-') ? next : '#/';
}

export function navigate(href: string): void {
  if (location.hash === href) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = href;
}

/** Changes the address without a navigation (filters kept in the hash, so a reload or a shared link shows the same view). */
export function replaceHash(href: string): void {
  if (location.hash !== href) history.replaceState(history.state, '', href);
}
