/**
 * i18next plurals end to end: the `parlance` binary pushes `locales/en/common.json` with `items_one`/`items_other` to a
 * service whose provider is the OpenAI wire mock, and pulls Polish, Arabic and Japanese files that carry exactly their
 * CLDR categories; the gates refuse a Polish plural missing `few` (PUT, and `parlance qa` on an approved one), progress
 * counts a family once and as translated only when every form is, and `plurals: none` keeps the suffixed keys apart.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLURAL_CATEGORIES } from '../../src/core/formats/codec.js';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { runProcess, type Run } from '../helpers/process.js';
import { filePush, startService, type TestService } from '../helpers/service.js';

const BIN = join(import.meta.dirname, '../../bin/parlance.js');

const COMMON = `{
  "title": "My shop",
  "items_one": "{{count}} item",
  "items_other": "{{count}} items",
  "cart": {
    "summary_one": "One product in your cart",
    "summary_other": "{{count}} products in your cart"
  }
}
`;
const LEGACY = '{\n  "apples_one": "{{count}} apple",\n  "apples_other": "{{count}} apples"\n}\n';
const CONFIG = `locales: [pl, ar, ja]
files:
  - source: locales/en/*.json
    translation: locales/{locale}/{name}.json
  - source: legacy/en.json
    translation: legacy/{locale}.json
    plurals: none
`;

let mock: MockOpenAI;
let service: TestService;
let token: string;
let repo: string;

function parlance(...args: string[]): Promise<Run> {
  return runProcess(process.execPath, [BIN, ...args], { cwd: repo, env: { ...process.env, PARLANCE_URL: service.url, PARLANCE_TOKEN: token } });
}

const readJson = (path: string) => JSON.parse(readFileSync(join(repo, path), 'utf8')) as Record<string, unknown>;

async function api<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<{ status: number; body: T }> {
  const res = await service.api(path, { ...init, token });
  return { status: res.status, body: (await res.json()) as T };
}

beforeAll(async () => {
  mock = await startMockOpenAI();
  // Polish few, many and other of `cart.summary` (one request row: they start from the same English form) come back
  // empty, on the corrective retry too: the row is held, and its `one` form alone is a translation.
  mock.script = (row, { locale }) => (locale === 'pl' && row.key === 'cart.summary' && row.text.includes('<ph') ? '' : undefined);
  service = await startService({
    env: { TRANSLATION_PROVIDER: 'openai', OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'mock-fast', RATE_LIMIT_PER_MINUTE: '100000' },
  });
  const org = await service.runtime.organisations.createOrganisation({ name: 'Plurals', plan: 'starter' });
  const project = await service.runtime.organisations.createProject({ organisationId: org.id, name: 'Shop', sourceLocale: 'en', targetLocales: ['pl', 'ar', 'ja'] });
  token = await service.mintToken({ projectId: project.id, abilities: ['push', 'pull', 'read', 'write', 'manage'] });
  repo = mkdtempSync(join(tmpdir(), 'parlance-i18next-'));
  mkdirSync(join(repo, 'locales/en'), { recursive: true });
  mkdirSync(join(repo, 'legacy'));
  writeFileSync(join(repo, 'locales/en/common.json'), COMMON);
  writeFileSync(join(repo, 'legacy/en.json'), LEGACY);
  writeFileSync(join(repo, 'parlance.yml'), CONFIG);
});

afterAll(async () => {
  await service?.stop();
  await mock?.close();
  if (repo) rmSync(repo, { recursive: true, force: true });
});

describe('i18next plural families through the CLI', () => {
  it('pushes a family as one plural key, translating every target category', async () => {
    const push = await parlance('push', '--wait');
    // Polish `cart.summary` came back without its `few` form (and many, other), twice: it is held, and push --wait says so with exit 4.
    expect(push.code, push.stdout + push.stderr).toBe(4);
    const keys = await api<{ items: { key: string; path: string; source_plurals: Record<string, string> | null }[] }>('/v1/keys?locale=pl&limit=100');
    const byKey = Object.fromEntries(keys.body.items.map((k) => [`${k.path}:${k.key}`, k.source_plurals]));
    expect(byKey).toEqual({
      'locales/en/common.json:title': null,
      'locales/en/common.json:items': { one: '{{count}} item', other: '{{count}} items' },
      'locales/en/common.json:cart.summary': { one: 'One product in your cart', other: '{{count}} products in your cart' },
      'legacy/en.json:apples_one': null,
      'legacy/en.json:apples_other': null,
    });
    const items = await api<{ items: { locale: string; plurals: Record<string, string> | null }[] }>('/v1/translations?key=items&path=locales/en/common.json');
    const forms = Object.fromEntries(items.body.items.map((t) => [t.locale, PLURAL_CATEGORIES.filter((c) => t.plurals?.[c] !== undefined)]));
    expect(items.body.items.map((t) => Object.keys(t.plurals!).length).sort()).toEqual([1, 4, 6]);
    expect(forms).toEqual({ pl: ['one', 'few', 'many', 'other'], ar: ['zero', 'one', 'two', 'few', 'many', 'other'], ja: ['other'] });
    for (const t of items.body.items) for (const form of Object.values(t.plurals!)) expect(form).toContain('{{count}}');
  });

  it('pulls files with exactly each locale’s categories, in the family’s place', async () => {
    const pull = await parlance('pull');
    expect([0, 4], pull.stdout + pull.stderr).toContain(pull.code);
    const pl = readJson('locales/pl/common.json');
    // Polish `cart.summary` is held for review: left out (its object with it), never written with some forms only.
    expect(Object.keys(pl)).toEqual(['title', 'items_one', 'items_few', 'items_many', 'items_other']);
    expect(pl.items_few).toBe('pl: {{count}} ITEMS');
    const ar = readJson('locales/ar/common.json');
    expect(Object.keys(ar)).toEqual(['title', 'items_zero', 'items_one', 'items_two', 'items_few', 'items_many', 'items_other', 'cart']);
    expect(Object.keys(ar.cart as object)).toEqual(['summary_zero', 'summary_one', 'summary_two', 'summary_few', 'summary_many', 'summary_other']);
    expect((ar.cart as Record<string, string>).summary_one).toBe('ar: ONE PRODUCT IN YOUR CART');
    const ja = readJson('locales/ja/common.json');
    expect(ja).toEqual({ title: 'ja: MY SHOP', items_other: 'ja: {{count}} ITEMS', cart: { summary_other: 'ja: {{count}} PRODUCTS IN YOUR CART' } });
    // plurals: none: the suffixed keys stay what they were, in every locale.
    expect(Object.keys(readJson('legacy/pl.json'))).toEqual(['apples_one', 'apples_other']);
    expect(Object.keys(readJson('legacy/ar.json'))).toEqual(['apples_one', 'apples_other']);

    // The files the CLI wrote read back as the service's values: a second pull changes nothing.
    const files = ['locales/pl/common.json', 'locales/ar/common.json', 'locales/ja/common.json', 'legacy/pl.json'].map((f) => readFileSync(join(repo, f), 'utf8'));
    const again = await parlance('pull');
    expect([0, 4], again.stdout + again.stderr).toContain(again.code);
    expect(['locales/pl/common.json', 'locales/ar/common.json', 'locales/ja/common.json', 'legacy/pl.json'].map((f) => readFileSync(join(repo, f), 'utf8'))).toEqual(files);
  });

  it('refuses an unknown plurals mode on push, naming it', async () => {
    const res = await service.api('/v1/push', { method: 'POST', token, body: filePush(COMMON, { path: 'locales/en/common.json', plurals: 'icu' }) });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain("'icu' is not a plurals mode. Expected 'i18next' or 'none'.");
  });

  it('refuses a Polish translation missing few, and saves one with every form', async () => {
    const refused = await api<{ code: string; detail: string }>('/v1/translations/items/pl?path=locales/en/common.json', {
      method: 'PUT',
      json: { plurals: { one: '{{count}} rzecz', many: '{{count}} rzeczy', other: '{{count}} rzeczy' } },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('gate_refused');
    expect(refused.body.detail).toContain('plural form "few" is missing (pl needs one, few, many, other)');
    const saved = await api<{ translation: { plurals: Record<string, string> } }>('/v1/translations/items/pl?path=locales/en/common.json', {
      method: 'PUT',
      json: { plurals: { one: 'jedna rzecz', few: '{{count}} rzeczy', many: '{{count}} rzeczy', other: '{{count}} rzeczy' } },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.translation.plurals).toEqual({ one: 'jedna rzecz', few: '{{count}} rzeczy', many: '{{count}} rzeczy', other: '{{count}} rzeczy' });
  });

  it('counts a family once, and as translated only when every form is; qa refuses the approved one missing few', async () => {
    const held = await api<{ translation: { plurals: Record<string, string> } }>('/v1/translations/cart.summary/pl/review?path=locales/en/common.json', {
      method: 'POST',
      json: { decision: 'approve' },
    });
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    expect(held.body.translation.plurals.few).toBe('');

    const progress = await api<{ keys: number; locales: { locale: string; translated: number; missing: number; held: number }[] }>('/v1/progress');
    // title, items, cart.summary, apples_one, apples_other.
    expect(progress.body.keys).toBe(5);
    const pl = progress.body.locales.find((l) => l.locale === 'pl')!;
    expect(pl).toMatchObject({ translated: 4, missing: 1, held: 0 });
    expect(progress.body.locales.find((l) => l.locale === 'ar')).toMatchObject({ translated: 5, missing: 0 });

    const qa = await parlance('qa', '--locale', 'pl');
    expect(qa.code, qa.stdout + qa.stderr).toBe(4);
    expect(qa.stdout + qa.stderr).toMatch(/'cart\.summary' \(pl\) refused: plurals: plural form "few" is missing \(pl needs one, few, many, other\)/);
  });
});
