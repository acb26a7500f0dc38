/**
 * The in-memory git repository the code-host mocks (GitLab, Gitea/Forgejo, Bitbucket Cloud, Azure DevOps) answer
 * over, each in its vendor's shapes: commits with parents and whole trees of files, branches, and a log of every branch
 * move so that a test can assert that nothing was ever rewritten; plus the acceptance kit's repository (parlance.yml
 * naming locales/en.json, seeded with SEED) and the RemoteFixture operations over it, done as a person using git would.
 */
import { createHash } from 'node:crypto';
import type { BatchSummary, ReportRow, WriteBack } from '../../../server/integrations/connector.js';
import { SEED } from '../connector-kit.js';

export interface Person {
  name: string;
  email: string;
  username: string;
}

/** Who Parlance's commits are by (what a mock records for a commit made through its API). */
export const PARLANCE_BOT: Person = { name: 'Parlance', email: 'parlance@example.com', username: 'parlance-bot' };
/** The person whose commits the tests make (the initial commit, source changes, translation edits). */
export const MARIA: Person = { name: 'Maria Example', email: 'maria@example.com', username: 'maria' };

/** The id git uses for "no commit" (a created branch's old head in push events). */
export const NO_COMMIT = '0000000000000000000000000000000000000000';

export interface StoredCommit {
  id: string;
  parents: string[];
  /** The whole tree: every file's path and bytes. */
  files: Map<string, Uint8Array>;
  message: string;
  author: Person;
  timestamp: string;
}

/** A branch moving from one commit to another (`before` null when the branch was created). */
export interface BranchMove {
  branch: string;
  before: string | null;
  after: string;
}

export interface TreeEntry {
  path: string;
  type: 'blob' | 'tree';
  sha: string;
  size: number;
}

/** Git's blob id: SHA-1 of `blob <size>\0<bytes>`, so the mocks' blob shas are the ones git computes. */
export function blobSha(content: Uint8Array): string {
  return createHash('sha1').update(`blob ${content.byteLength}\0`).update(content).digest('hex');
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class GitStore {
  readonly commits = new Map<string, StoredCommit>();
  readonly branches = new Map<string, string>();
  /** Every branch move, in order; `rewrites()` finds the ones that did not build on the previous head. */
  readonly moves: BranchMove[] = [];
  private clock = Date.parse('2026-03-02T09:00:00Z');

  constructor(files: Record<string, string>, base = 'main') {
    const tree = new Map(Object.entries(files).map(([path, text]) => [path, encoder.encode(text)]));
    this.move(base, this.store([], tree, 'Initial commit', MARIA).id);
  }

  head(branch: string): string | undefined {
    return this.branches.get(branch);
  }

  /** A commit by its id, full or abbreviated (7 characters at least). */
  commit(id: string): StoredCommit | undefined {
    return this.commits.get(id) ?? [...this.commits.values()].find((c) => id.length >= 7 && c.id.startsWith(id));
  }

  /** A branch name or a commit id, as the vendors' `ref` parameters take either. */
  resolve(ref: string): StoredCommit | undefined {
    const branch = this.branches.get(ref);
    return branch ? this.commits.get(branch) : this.commit(ref);
  }

  file(ref: string, path: string): Uint8Array | undefined {
    return this.resolve(ref)?.files.get(path);
  }

  /** A file's text at `ref`, undefined when there is none. */
  read(ref: string, path: string): string | undefined {
    const bytes = this.file(ref, path);
    return bytes ? decoder.decode(bytes) : undefined;
  }

  /**
   * A new commit whose parent is `from` (default: the branch's head; null: a commit without parents, on an empty tree),
   * and the branch moved to it. `changes` maps a path to its new bytes.
   */
  commitTo(branch: string, changes: Map<string, Uint8Array>, message: string, author: Person, from?: string | null): StoredCommit {
    const parentId = from === undefined ? this.branches.get(branch) : from;
    if (parentId === undefined) throw new Error(`GitStore: no branch '${branch}' and no start commit`);
    const files = new Map(parentId === null ? [] : this.commits.get(parentId)!.files);
    for (const [path, content] of changes) files.set(path, content);
    const created = this.store(parentId === null ? [] : [parentId], files, message, author);
    this.move(branch, created.id);
    return created;
  }

  /** A person's commit on `branch` changing one JSON file (an object, `{}` when the file is not there yet). */
  editJson(branch: string, path: string, change: (data: Record<string, unknown>) => void, message: string, author: Person = MARIA): StoredCommit {
    if (!this.head(branch)) throw new Error(`GitStore: no branch '${branch}' to commit '${message}' on`);
    const data = JSON.parse(this.read(branch, path) ?? '{}') as Record<string, unknown>;
    change(data);
    return this.commitTo(branch, new Map([[path, encoder.encode(`${JSON.stringify(data, null, 2)}\n`)]]), message, author);
  }

  /** Points `branch` at `commit` (creating the branch), as a push does; recorded in `moves`. */
  move(branch: string, commit: string): void {
    this.moves.push({ branch, before: this.branches.get(branch) ?? null, after: commit });
    this.branches.set(branch, commit);
  }

  /** The paths a commit adds and those it modifies, against its first parent (a push event's `added` and `modified`). */
  changedPaths(id: string): { added: string[]; modified: string[] } {
    const commit = this.commits.get(id)!;
    const parent = commit.parents[0] ? this.commits.get(commit.parents[0]) : undefined;
    const paths = [...commit.files.keys()];
    const before = (path: string) => parent?.files.get(path);
    return {
      added: paths.filter((path) => !before(path)),
      modified: paths.filter((path) => before(path) && !Buffer.from(before(path)!).equals(Buffer.from(commit.files.get(path)!))),
    };
  }

  /** The commit that last changed `path` as of `ref`, following first parents (GitLab's `last_commit_id`). */
  lastChange(ref: string, path: string): string | undefined {
    const start = this.resolve(ref);
    if (!start?.files.has(path)) return undefined;
    let commit: StoredCommit = start;
    for (;;) {
      const parent: StoredCommit | undefined = commit.parents[0] ? this.commits.get(commit.parents[0]) : undefined;
      const before = parent?.files.get(path);
      if (!parent || !before || !Buffer.from(before).equals(Buffer.from(commit.files.get(path)!))) return commit.id;
      commit = parent;
    }
  }

  /**
   * Every branch move whose new head does not have the old head as its parent: a rewritten (force-pushed) branch. The
   * connectors commit one commit at a time, so this is stricter than git's "the old head is an ancestor".
   */
  rewrites(): BranchMove[] {
    return this.moves.filter((move) => move.before !== null && !this.commits.get(move.after)!.parents.includes(move.before));
  }

  /** Every commit reachable from `ref` (itself included). */
  ancestors(ref: string): Set<string> {
    const seen = new Set<string>();
    const start = this.resolve(ref);
    const pending = start ? [start.id] : [];
    while (pending.length > 0) {
      const id = pending.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      pending.push(...this.commits.get(id)!.parents);
    }
    return seen;
  }

  /** The commits reachable from `head` and not from `base`, newest first (git log base..head). */
  between(base: string, head: string): StoredCommit[] {
    const excluded = this.ancestors(base);
    return [...this.ancestors(head)].filter((id) => !excluded.has(id)).map((id) => this.commits.get(id)!).sort((a, b) => b.timestamp.localeCompare(a.timestamp));
  }

  /** git merge-base: the newest commit that both refs reach. */
  mergeBase(a: string, b: string): StoredCommit | undefined {
    const reach = this.ancestors(a);
    return [...this.ancestors(b)].filter((id) => reach.has(id)).map((id) => this.commits.get(id)!).sort((x, y) => y.timestamp.localeCompare(x.timestamp))[0];
  }

  /**
   * A person merging `source` into `into` with a merge commit, as a host's merge button does: the files `source`
   * changed since the merge base are taken from it, every other file stays as `into` holds it.
   */
  merge(source: string, into: string, author: Person = MARIA): StoredCommit {
    const ours = this.resolve(into)!;
    const theirs = this.resolve(source)!;
    const base = this.mergeBase(ours.id, theirs.id)!;
    const changes = new Map<string, Uint8Array>();
    for (const [path, content] of theirs.files) {
      const before = base.files.get(path);
      if (!before || !Buffer.from(before).equals(Buffer.from(content))) changes.set(path, content);
    }
    const files = new Map(ours.files);
    for (const [path, content] of changes) files.set(path, content);
    const created = this.store([ours.id, theirs.id], files, `Merge branch '${source}' into '${into}'`, author);
    this.move(into, created.id);
    return created;
  }

  /** Every file and directory of the tree at `ref`, sorted as git sorts paths. */
  treeEntries(ref: string): TreeEntry[] {
    const commit = this.resolve(ref);
    if (!commit) return [];
    const entries = new Map<string, TreeEntry>();
    for (const [path, content] of commit.files) {
      const parts = path.split('/');
      for (let i = 1; i < parts.length; i++) {
        const dir = parts.slice(0, i).join('/');
        if (!entries.has(dir)) entries.set(dir, { path: dir, type: 'tree', sha: createHash('sha1').update(`tree ${dir}`).digest('hex'), size: 0 });
      }
      entries.set(path, { path, type: 'blob', sha: blobSha(content), size: content.byteLength });
    }
    return [...entries.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  private store(parents: string[], files: Map<string, Uint8Array>, message: string, author: Person): StoredCommit {
    this.clock += 60_000;
    const timestamp = new Date(this.clock).toISOString().replace('.000Z', 'Z');
    const hash = createHash('sha1').update(`${parents.join(',')}\n${message}\n${timestamp}\n${this.commits.size}`);
    for (const [path, content] of [...files].sort()) hash.update(`${path}\0${blobSha(content)}\n`);
    const commit: StoredCommit = { id: hash.digest('hex'), parents, files, message, author, timestamp };
    this.commits.set(commit.id, commit);
    return commit;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The kit's repository: parlance.yml, the English source file with SEED, and the operations RemoteFixture asks for.

export const SOURCE_PATH = 'locales/en.json';
export const PARLANCE_YML = "files:\n  - source: 'locales/en.json'\n    translation: 'locales/{locale}.json'\nlocales: [de, fr]\n";

/** The kit's repository: parlance.yml and the English source file holding SEED, plus a vendor's `extra` files. */
export function seedFiles(extra: Record<string, string> = {}): Record<string, string> {
  return {
    'parlance.yml': PARLANCE_YML,
    [SOURCE_PATH]: `${JSON.stringify(Object.fromEntries(SEED.map((s) => [s.id, s.source])), null, 2)}\n`,
    ...extra,
  };
}

/** `count` filler source files under src/components, so that tree listings span several pages. */
export function fillerFiles(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) files[`src/components/c${String(i).padStart(3, '0')}.ts`] = `export const c${i} = ${i};\n`;
  return files;
}

/**
 * What the repository holds for a string in a locale: on `parlance/<base>` once Parlance has written there, else (no
 * branch yet, or one merged into the base and not written since) on the base.
 */
export function translationIn(store: GitStore, id: string, locale: string, base = 'main'): string | undefined {
  const branch = `parlance/${base}`;
  const head = store.head(branch);
  const text = store.read(head && !store.ancestors(base).has(head) ? branch : base, `locales/${locale}.json`);
  if (text === undefined) return undefined;
  const value = (JSON.parse(text) as Record<string, unknown>)[id];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** setSource, translation, editTranslation and sourceCount over a GitStore, as a person using git would. */
export function repositoryOperations(store: GitStore, base = 'main') {
  const branch = `parlance/${base}`;
  return {
    async setSource(id: string, text: string) {
      store.editJson(base, SOURCE_PATH, (source) => void (source[id] = text), `Reword '${id}'`);
    },
    async translation(id: string, locale: string) {
      return translationIn(store, id, locale, base);
    },
    async editTranslation(id: string, locale: string, text: string) {
      if (!store.head(branch)) throw new Error(`editTranslation: no branch '${branch}' yet; Parlance has not written anything`);
      store.editJson(branch, `locales/${locale}.json`, (file) => void (file[id] = text), `Better ${locale} wording for '${id}'`);
    },
    async sourceCount() {
      return Object.keys(JSON.parse(store.read(base, SOURCE_PATH) ?? '{}') as Record<string, unknown>).length;
    },
  };
}

/**
 * The RemoteFixture members a code-host mock has in common: the repository operations over its store, the change
 * notification it sends, its server going down and coming back, and a person merging Parlance's request (`merged`
 * marks the mock's merge/pull request so) then editing a translation on the base branch.
 */
export function codeHostFixtureOps(store: GitStore, server: { stop(): Promise<void>; start(): Promise<void>; close(): Promise<void> }, webhook: (secret: string) => { headers: Record<string, string>; body: string }, merged?: () => void) {
  return {
    ...repositoryOperations(store),
    webhook,
    stop: () => server.stop(),
    start: () => server.start(),
    close: () => server.close(),
    ...(merged
      ? {
          async mergeThenEditBase(id: string, locale: string, text: string) {
            store.merge('parlance/main', 'main');
            merged();
            store.editJson('main', `locales/${locale}.json`, (file) => void (file[id] = text), `Fix the ${locale} wording of '${id}'`);
          },
        }
      : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// What the code-host connectors' tests write back into that repository.

/** SEED in German and French, as the translation files a write-back carries. */
export const GERMAN = { welcome: 'Willkommen in unserem Laden', cart: 'Ihr Warenkorb ist leer', checkout: 'Zur Kasse', farewell: 'Bis bald' };
export const FRENCH = { welcome: 'Bienvenue dans notre boutique', cart: 'Votre panier est vide', checkout: 'Passer à la caisse', farewell: 'À bientôt' };

/** How many write-backs filesWriteBack has made in this test file: each is a new batch, as each sync's batches are. */
let writeBacks = 0;

/**
 * A write-back of `files` (locale → the strings of locales/<locale>.json) for the kit's source file, from a new batch
 * (bat_1 for the test file's first write-back, bat_2 for the next, …; or `batch`) whose refused and flagged counts are
 * those of `problems`; `more` adds further batches of the sync.
 */
export function filesWriteBack(files: Record<string, Record<string, string>>, problems: ReportRow[] = [], batch: Partial<BatchSummary> = {}, more: BatchSummary[] = []): WriteBack {
  const id = batch.id ?? `bat_${++writeBacks}`;
  return {
    strings: [],
    files: Object.entries(files).map(([locale, values]) => ({ source: SOURCE_PATH, locale, path: `locales/${locale}.json`, content: encoder.encode(`${JSON.stringify(values, null, 2)}\n`) })),
    batches: [{ id, url: `https://parlance.example.com/v1/batches/${id}`, paths: [SOURCE_PATH], translated: 8, refused: problems.filter((p) => p.outcome === 'refused').length, flagged: problems.filter((p) => p.outcome === 'flagged').length, ...batch }, ...more],
    problems,
  };
}

/** A second source file, for syncs that span two batches. */
export const SECOND_SOURCE = 'src/checkout/en.json';

/**
 * A sync of two source files: batch `ids[0]` translated the kit's source file into `first`, batch `ids[1]` translated
 * SECOND_SOURCE into `second` (src/checkout/<locale>.json), listed in the order they completed.
 */
export function twoBatchWriteBack(ids: [string, string], first: Record<string, Record<string, string>>, second: Record<string, Record<string, string>>): WriteBack {
  const file = (source: string, dir: string) => ([locale, values]: [string, Record<string, string>]) => ({ source, locale, path: `${dir}/${locale}.json`, content: encoder.encode(`${JSON.stringify(values, null, 2)}\n`) });
  const batch = (id: string, source: string, translated: number, flagged: number) => ({ id, url: `https://parlance.example.com/v1/batches/${id}`, paths: [source], translated, refused: 0, flagged });
  return {
    strings: [],
    files: [...Object.entries(first).map(file(SOURCE_PATH, 'locales')), ...Object.entries(second).map(file(SECOND_SOURCE, 'src/checkout'))],
    batches: [batch(ids[0], SOURCE_PATH, 5, 0), batch(ids[1], SECOND_SOURCE, 2, 1)],
    problems: [],
  };
}
