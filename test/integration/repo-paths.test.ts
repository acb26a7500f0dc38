/** The repository path rule at the HTTP edge: push (multipart and JSON), every `path` parameter, stored paths on pull, and zip entry names. */
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePush, startService, waitForBatch, type BatchBody, type TestService } from '../helpers/service.js';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.stop();
});

const SOURCE = '{"title": "Welcome"}';

/** One hostile path per rule, with the problem the 422 must name. */
const HOSTILE: [rule: string, path: string, problem: string, says: string][] = [
  ['.. segments', '../../etc/passwd', 'dot_segment', "'..' segments are not allowed"],
  ['. segments', './locales/en.json', 'dot_segment', "'.' segments are not allowed"],
  ['absolute', '/etc/passwd', 'absolute', 'absolute paths are not allowed'],
  ['backslashes', '..\\..\\windows\\win.ini', 'backslash', 'backslashes are not allowed'],
  ['a drive letter', 'C:/Windows/win.ini', 'drive_letter', 'drive letters are not allowed'],
  ['NUL', 'locales/en.json\u0000.png', 'control_character', 'control character U+0000'],
  ['a control character', 'locales/\u001b[31men.json', 'control_character', 'control character U+001B'],
  ['empty segments', 'locales//en.json', 'empty_segment', 'empty segments are not allowed'],
  ['a trailing slash', 'locales/en/', 'empty_segment', 'empty segments are not allowed'],
  ['over 1,024 bytes', `${'ä'.repeat(513)}.json`, 'too_long', 'at most 1024 are allowed'],
];

interface PathProblem {
  code: string;
  status: number;
  detail: string;
  path: string;
  problem: string;
}

async function pathInvalid(res: Response, problem: string, says: string): Promise<PathProblem> {
  expect(res.status).toBe(422);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  const body = (await res.json()) as PathProblem;
  expect(body.code).toBe('path_invalid');
  expect(body.problem).toBe(problem);
  expect(body.detail).toContain(says);
  expect(body.detail).toMatch(/^Invalid path '.*': .*; expected a relative path inside the repository such as 'locales\/en\.json'\.$/s);
  return body;
}

async function storedPaths(): Promise<string[]> {
  return (await service.runtime.db.selectFrom('source_files').select('path').where('project_id', '=', service.projectId).execute()).map((r) => r.path);
}

describe('push', () => {
  it.each(HOSTILE)('refuses a multipart path with %s: 422 path_invalid, nothing stored', async (_rule, path, problem, says) => {
    const body = await pathInvalid(await service.api('/v1/push', { method: 'POST', body: filePush(SOURCE, { format: 'json', path }) }), problem, says);
    expect(body.path).toBe(path);
    expect(await storedPaths()).not.toContain(path);
  });

  it('checks the path after trimming it, and the uploaded file name when no path is given', async () => {
    await pathInvalid(await service.api('/v1/push', { method: 'POST', body: filePush(SOURCE, { format: 'json', path: '  ../x.json  ' }) }), 'dot_segment', "Invalid path '../x.json'");
    await pathInvalid(await service.api('/v1/push', { method: 'POST', body: filePush(SOURCE, { format: 'json' }, '../../outside.json') }), 'dot_segment', "'..' segments");
  });

  it.each(HOSTILE)('refuses a JSON keys push whose path has %s', async (_rule, path, problem, says) => {
    await pathInvalid(await service.api('/v1/push', { method: 'POST', json: { keys: [{ key: 'a', source: 'A' }], path } }), problem, says);
  });

  it("still takes a good path, and keys without a file ('')", async () => {
    const file = await service.api('/v1/push', { method: 'POST', body: filePush(SOURCE, { format: 'json', path: 'web/locales/en.json' }) });
    expect(file.status).toBe(202);
    expect((await waitForBatch(service, ((await file.json()) as BatchBody).id)).status).toBe('completed');
    const keys = await service.api('/v1/push', { method: 'POST', json: { keys: [{ key: 'a', source: 'A' }], path: '' } });
    expect(keys.status).toBe(202);
    expect((await waitForBatch(service, ((await keys.json()) as BatchBody).id)).status).toBe('completed');
    expect((await storedPaths()).sort()).toEqual(['web/locales/en.json']);
    const listed = (await (await service.api('/v1/files')).json()) as { items: { path: string; path_invalid: string | null }[] };
    expect(listed.items).toEqual([expect.objectContaining({ path: 'web/locales/en.json', path_invalid: null })]);
  });
});

describe('path parameters', () => {
  it.each(HOSTILE)('refuses a path with %s on pull, translations, keys, QA and translate-missing', async (_rule, path, problem, says) => {
    // A token per case: the cases together make more requests than one token's minute allows.
    const token = await service.mintToken({ abilities: ['push', 'pull', 'read', 'write', 'manage'] });
    const q = encodeURIComponent(path);
    const write = { 'content-type': 'application/json' };
    await pathInvalid(await service.api(`/v1/pull?locale=de&path=${q}`, { token }), problem, says);
    await pathInvalid(await service.api(`/v1/pull?path=${q}`, { token }), problem, says);
    await pathInvalid(await service.api(`/v1/translations?path=${q}`, { token }), problem, says);
    await pathInvalid(await service.api(`/v1/translations/title/de?path=${q}`, { token, method: 'PUT', headers: write, body: JSON.stringify({ text: 'Willkommen' }) }), problem, says);
    await pathInvalid(await service.api(`/v1/translations/title/de/review?path=${q}`, { token, method: 'POST', headers: write, body: JSON.stringify({ decision: 'approve' }) }), problem, says);
    await pathInvalid(await service.api(`/v1/keys?locale=de&path=${q}`, { token }), problem, says);
    await pathInvalid(await service.api(`/v1/keys/title?path=${q}`, { token, method: 'PATCH', headers: write, body: JSON.stringify({ pass: 'careful' }) }), problem, says);
    await pathInvalid(await service.api('/v1/qa/run', { token, method: 'POST', json: { path } }), problem, says);
    await pathInvalid(await service.api('/v1/qa/run', { token, method: 'POST', json: { rows: [{ key: 'title', locale: 'de', path }] } }), problem, says);
    await pathInvalid(await service.api('/v1/translate-missing', { token, method: 'POST', json: { paths: [path] } }), problem, says);
  });

  it('serves a good path as before, with zip entries that stay inside the archive', async () => {
    const token = await service.mintToken();
    const one = await service.api('/v1/pull?locale=de&path=web/locales/en.json', { token });
    expect(one.status).toBe(200);
    expect(one.headers.get('x-parlance-path')).toBe('web/locales/de.json');
    const zip = await service.api('/v1/pull?path=web/locales/en.json', { token });
    expect(Object.keys(unzipSync(new Uint8Array(await zip.arrayBuffer()))).sort()).toEqual(['web/locales/de.json', 'web/locales/fr.json', 'web/locales/ja.json']);
    expect((await service.api('/v1/keys?locale=de&path=', { token })).status).toBe(200);
  });
});

describe('the OpenAPI document', () => {
  it('still describes every checked path as a string', async () => {
    const doc = (await (await service.api('/v1/openapi.json', { token: null })).json()) as {
      paths: Record<string, Record<string, { parameters?: { name: string; schema: { type?: string } }[]; requestBody?: { content: Record<string, { schema: unknown }> } }>>;
    };
    const pathParameter = (route: string, method: string) => doc.paths[route]?.[method]?.parameters?.find((p) => p.name === 'path')?.schema;
    expect(pathParameter('/v1/pull', 'get')).toMatchObject({ type: 'string' });
    expect(pathParameter('/v1/keys', 'get')).toMatchObject({ type: 'string' });
    expect(pathParameter('/v1/translations/{key}/{locale}', 'put')).toMatchObject({ type: 'string' });
    const schemas = (doc as unknown as { components: { schemas: Record<string, { properties: Record<string, { type?: string; description?: string }> }> } }).components.schemas;
    expect(schemas.PushKeysRequest?.properties.path).toMatchObject({ type: 'string', description: expect.stringContaining('path_invalid') });
    expect(schemas.PushFileRequest?.properties.path).toMatchObject({ type: 'string', description: expect.stringContaining('path_invalid') });
  });
});

describe('paths stored before the rule', () => {
  it('refuses them on pull with the same 422 path_invalid, one locale or the zip, instead of serving them', async () => {
    const org = await service.runtime.organisations.createOrganisation({ name: 'Legacy', plan: 'starter' });
    const project = await service.runtime.organisations.createProject({ organisationId: org.id, name: 'Old', sourceLocale: 'en', targetLocales: ['de', 'fr'] });
    const token = await service.mintToken({ projectId: project.id });
    const pushed = await service.api('/v1/push', { method: 'POST', token, body: filePush(SOURCE, { format: 'json', path: 'legacy.json' }) });
    expect(pushed.status).toBe(202);
    await waitForBatch(service, ((await pushed.json()) as BatchBody).id, token);
    // As the zip-slip report found it: a path that was accepted before the rule existed.
    const { db } = service.runtime;
    await db.updateTable('source_files').set({ path: '../../etc/passwd' }).where('project_id', '=', project.id).execute();
    await db.updateTable('keys').set({ path: '../../etc/passwd' }).where('project_id', '=', project.id).execute();

    const zip = await pathInvalid(await service.api('/v1/pull', { token }), 'dot_segment', "Invalid path '../../etc/passwd': '..' segments are not allowed");
    expect(zip.path).toBe('../../etc/passwd');
    await pathInvalid(await service.api('/v1/pull?locale=de', { token }), 'dot_segment', "'..' segments");
    await pathInvalid(await service.api('/v1/pull?locale=en', { token }), 'dot_segment', "'..' segments");
    // The listing still shows the file, so its owner can find it, and says why pull refuses it.
    const listed = (await (await service.api('/v1/files', { token })).json()) as { items: { path: string; path_invalid: string | null }[] };
    expect(listed.items).toEqual([expect.objectContaining({ path: '../../etc/passwd', path_invalid: expect.stringContaining("Invalid path '../../etc/passwd': '..' segments are not allowed") })]);
  });
});
