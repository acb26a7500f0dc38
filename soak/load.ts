/**
 * The load: per project an editor (push new, changed and unchanged files, cancel, retry, edit, review) and a reader
 * (pull, batch status), plus a token that pulls as fast as it can to press on the rate limit. Requests go round-robin
 * over the API processes; a network error (a killed process) moves on to the next one.
 */
import type { Random } from './random.js';
import type { Recorder } from './recorder.js';
import { sleep } from './fleet.js';

export interface SoakProject {
  id: string;
  name: string;
  tokens: { editor: string; reader: string };
  locales: string[];
}

interface SourceFile {
  path: string;
  /** key → [text version, has placeholder] */
  keys: Map<string, { version: number; placeholder: boolean }>;
  nextKey: number;
}

export interface LoadState {
  /** Batches a client asked to retry (whatever the answer): only their rows may carry more than one attempt. */
  retried: Set<string>;
  pushes: { new: number; changed: number; unchanged: number };
  /** Errors inside the soak's own clients: a soak bug, reported beside the invariants. */
  clientFailures: string[];
}

export function createApi(deps: { ports: () => number[]; recorder: Recorder }) {
  let next = 0;
  return async function call(op: string, token: { label: string; secret: string }, path: string, init: RequestInit = {}): Promise<Response | undefined> {
    const ports = deps.ports();
    const port = ports[next++ % ports.length]!;
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${token.secret}`);
    const started = performance.now();
    try {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { ...init, headers, signal: AbortSignal.timeout(30_000) });
      const ms = performance.now() - started;
      const body = res.status >= 500 ? await res.text() : undefined;
      deps.recorder.answer(op, token.label, res, ms, body);
      return body === undefined ? res : new Response(body, { status: res.status, headers: res.headers });
    } catch {
      deps.recorder.network(op);
      return undefined;
    }
  };
}

export type Api = ReturnType<typeof createApi>;

function render(file: SourceFile): string {
  const entries: Record<string, string> = {};
  for (const [key, { version, placeholder }] of file.keys) {
    entries[key] = placeholder ? `Hello {name}, ${key} changed ${version} times` : `The ${key} message, version ${version}`;
  }
  return JSON.stringify(entries, null, 2) + '\n';
}

function newFile(path: string, random: Random): SourceFile {
  const file: SourceFile = { path, keys: new Map(), nextKey: 0 };
  const count = random.int(10, 30);
  for (let i = 0; i < count; i++) addKey(file, random);
  return file;
}

function addKey(file: SourceFile, random: Random) {
  const n = file.nextKey++;
  const fragile = random.chance(0.05);
  file.keys.set(fragile ? `k${n}_fragile` : `k${n}`, { version: 1, placeholder: fragile || random.chance(0.3) });
}

function change(file: SourceFile, random: Random) {
  const keys = [...file.keys.keys()];
  for (let i = random.int(2, 6); i > 0; i--) {
    const key = random.pick(keys);
    const entry = file.keys.get(key);
    if (entry) entry.version += 1;
  }
  for (let i = random.int(0, 2); i > 0; i--) addKey(file, random);
  if (file.keys.size > 12 && random.chance(0.3)) file.keys.delete(random.pick([...file.keys.keys()]));
}

async function json<T>(res: Response | undefined): Promise<T | undefined> {
  if (!res || res.bodyUsed) return undefined;
  if (res.status < 200 || res.status >= 300) {
    await res.arrayBuffer();
    return undefined;
  }
  return (await res.json()) as T;
}

/** Waits out a 429's Retry-After (bounded), as a well-behaved client does. */
async function backOff(res: Response | undefined, stop: () => boolean) {
  if (res?.status !== 429 && res?.status !== 503) return;
  const seconds = Math.min(Number(res.headers.get('retry-after') ?? '1') || 1, 60);
  const until = Date.now() + seconds * 1000;
  while (!stop() && Date.now() < until) await sleep(250);
}

interface BatchSummary {
  id: string;
  status: string;
}

/** Runs `step` until `stop()`; a failure inside the client (a body it could not read, say) is counted, not fatal. */
async function loop(name: string, stop: () => boolean, state: LoadState, step: () => Promise<void>) {
  while (!stop()) {
    try {
      await step();
    } catch (error) {
      state.clientFailures.push(`${name}: ${String(error)}`);
      await sleep(1000);
    }
  }
}

/** The editor of one project: pushes, cancels, retries, edits and reviews. */
async function editor(project: SoakProject, api: Api, random: Random, state: LoadState, stop: () => boolean) {
  const token = { label: `${project.name}/editor`, secret: project.tokens.editor };
  const files: SourceFile[] = [];
  const open: string[] = [];
  let pushNo = 0;
  while (!stop()) {
    const roll = random.next();
    let res: Response | undefined;
    if (roll < 0.45 || files.length === 0) {
      const kind = files.length === 0 || (files.length < 6 && random.chance(0.15)) ? 'new' : random.chance(0.7) ? 'changed' : 'unchanged';
      let file: SourceFile;
      if (kind === 'new') {
        file = newFile(`locales/f${files.length}/en.json`, random);
        files.push(file);
      } else {
        file = random.pick(files);
        if (kind === 'changed') change(file, random);
      }
      state.pushes[kind] += 1;
      const form = new FormData();
      form.set('file', new Blob([new TextEncoder().encode(render(file))]), 'en.json');
      form.set('format', 'json');
      form.set('path', file.path);
      const key = `${project.name}-push-${pushNo++}`;
      // A push that met a killed process is sent again with the same Idempotency-Key, which must not queue twice.
      for (let attempt = 0; attempt < 3 && !stop(); attempt++) {
        res = await api('push', token, '/v1/push', { method: 'POST', body: form, headers: { 'idempotency-key': key } });
        if (res && res.status !== 409) break;
        await res?.arrayBuffer();
        await sleep(500);
      }
      const batch = await json<BatchSummary>(res);
      if (batch && (batch.status === 'queued' || batch.status === 'running')) open.push(batch.id);
    } else if (roll < 0.55 && open.length > 0) {
      const id = open.splice(random.int(0, open.length - 1), 1)[0]!;
      res = await api('cancel', token, `/v1/batches/${id}/cancel`, { method: 'POST' });
      await res?.arrayBuffer();
    } else if (roll < 0.65) {
      const failed = await json<{ items: BatchSummary[] }>((res = await api('list', token, '/v1/batches?status=failed&limit=5')));
      const target = failed?.items[0];
      if (target) {
        state.retried.add(target.id);
        res = await api('retry', token, `/v1/batches/${target.id}/retry`, { method: 'POST' });
        await res?.arrayBuffer();
      }
    } else if (roll < 0.8 && files.length > 0) {
      const file = random.pick(files);
      const [key, entry] = random.pick([...file.keys.entries()]);
      const locale = random.pick(project.locales);
      const text = entry.placeholder ? `${locale} human: hallo {name} (${key})` : `${locale} human: ${key} v${entry.version}`;
      res = await api('edit', token, `/v1/translations/${encodeURIComponent(key)}/${locale}?path=${encodeURIComponent(file.path)}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
      });
      await res?.arrayBuffer();
    } else if (roll < 0.9) {
      const state = random.chance(0.5) ? 'held' : 'flagged';
      const page = await json<{ items: { key: string; path: string; locale: string }[] }>((res = await api('list', token, `/v1/translations?state=${state}&limit=5`)));
      const item = page?.items[0];
      if (item) {
        res = await api('review', token, `/v1/translations/${encodeURIComponent(item.key)}/${item.locale}/review?path=${encodeURIComponent(item.path)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ decision: 'approve' }),
        });
        await res?.arrayBuffer();
      }
    } else {
      const id = open[open.length - 1];
      res = await api('status', token, id ? `/v1/batches/${id}?limit=5` : '/v1/batches?limit=5');
      const batch = await json<BatchSummary>(res);
      if (id && batch && batch.status !== 'queued' && batch.status !== 'running') open.splice(open.indexOf(id), 1);
    }
    await backOff(res, stop);
    await sleep(random.int(500, 1400));
  }
}

/** The reader of one project: pulls files and reads batches. */
async function reader(project: SoakProject, api: Api, random: Random, stop: () => boolean) {
  const token = { label: `${project.name}/reader`, secret: project.tokens.reader };
  while (!stop()) {
    let res: Response | undefined;
    if (random.chance(0.75)) {
      const locale = random.pick(project.locales);
      res = await api('pull', token, `/v1/pull?locale=${locale}&path=${encodeURIComponent(`locales/f${random.int(0, 3)}/en.json`)}`);
    } else {
      res = await api('status', token, '/v1/batches?limit=10');
    }
    await res?.arrayBuffer();
    await backOff(res, stop);
    await sleep(random.int(400, 1200));
  }
}

/** Pulls with no pause and ignores Retry-After: the limiter, shared by every API process, must still hold it to the limit. */
async function hammer(project: SoakProject, secret: string, api: Api, random: Random, stop: () => boolean) {
  const token = { label: `${project.name}/hammer`, secret };
  while (!stop()) {
    const res = await api('pull', token, `/v1/pull?locale=${random.pick(project.locales)}&path=locales%2Ff0%2Fen.json`);
    await res?.arrayBuffer();
    await sleep(random.int(150, 400));
  }
}

export function runLoad(deps: { projects: SoakProject[]; hammerToken: string; api: Api; random: Random; state: LoadState; stop: () => boolean }): Promise<unknown> {
  const { projects, api, random, state, stop } = deps;
  const clients: Promise<void>[] = [];
  for (const project of projects) {
    const editorRandom = random.fork();
    const readerRandom = random.fork();
    clients.push(loop(`${project.name}/editor`, stop, state, () => editor(project, api, editorRandom, state, stop)));
    clients.push(loop(`${project.name}/reader`, stop, state, () => reader(project, api, readerRandom, stop)));
  }
  for (let i = 0; i < 2; i++) {
    const hammerRandom = random.fork();
    clients.push(loop(`hammer-${i}`, stop, state, () => hammer(projects[0]!, deps.hammerToken, api, hammerRandom, stop)));
  }
  return Promise.all(clients);
}
