/** The Airtable connector against a local Web API: offset paging, its rate limit, guarded writes of locale fields only, refusals, pings and the webhook's payloads. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonValue, StringUnit } from '../../server/integrations/connector.js';
import { airtable } from '../../server/integrations/connectors/airtable.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';
import { AIRTABLE_BASE, AIRTABLE_SETTINGS, AIRTABLE_TABLE, AIRTABLE_TABLE_NAME, AIRTABLE_VIEW, AIRTABLE_WEBHOOK, airtableFixture, airtablePing, startAirtableMock, type AirtableMock } from '../helpers/connector-mocks/airtable.js';

const context = (mock: AirtableMock, overrides: { token?: string; settings?: Record<string, unknown>; targetLocales?: string[] } = {}) =>
  connectorContext(airtable, { ...AIRTABLE_SETTINGS, api_url: mock.url, ...overrides.settings }, { access_token: overrides.token ?? mock.token }, overrides.targetLocales ? { targetLocales: overrides.targetLocales } : {});
const unitOf = (listing: { units: unknown[] }) => listing.units[0] as StringUnit;
/** A context with `webhook_id` set and what the last listing kept, as the sync engine gives it. */
const hooked = (mock: AirtableMock, state?: JsonValue | null) => ({ ...context(mock, { settings: { webhook_id: AIRTABLE_WEBHOOK } }), state: state ?? null });
const recordReads = (mock: AirtableMock) => mock.requests.filter((r) => r.method === 'GET' && r.path.startsWith(`/v0/${AIRTABLE_BASE}/`));
const schemaReads = (mock: AirtableMock) => mock.requests.filter((r) => r.path === `/v0/meta/bases/${AIRTABLE_BASE}/tables`);
const payloadReads = (mock: AirtableMock) => mock.requests.filter((r) => r.path === `/v0/bases/${AIRTABLE_BASE}/webhooks/${AIRTABLE_WEBHOOK}/payloads`);

describe('Airtable connector', () => {
  let mock: AirtableMock;
  beforeAll(async () => {
    mock = await startAirtableMock({ extraRecords: 120, penaltyMs: 2000 });
  });
  afterAll(async () => {
    await mock.close();
  });

  it('lists every record over offset pages, asking only for its fields, within the rate limit', async () => {
    mock.add({ English: 'No key here' });
    mock.add({ Key: 'welcome', English: 'A second welcome' });
    mock.requests.length = 0;
    const started = Date.now();
    const listing = await airtable.list(context(mock));
    const unit = unitOf(listing);
    expect(unit).toMatchObject({ kind: 'strings', path: AIRTABLE_TABLE, locales: ['de', 'fr'] });
    expect(unit.strings).toHaveLength(SEED.length + 120);
    expect(unit.strings.slice(0, SEED.length).map((s) => [s.key, s.source])).toEqual(SEED.map(({ id, source }) => [id, source]));
    expect(unit.strings[0]).toMatchObject({ translations: {}, ref: { record: mock.ids.get('welcome'), seen: { de: '', fr: '' } } });
    // 126 records: two pages, the 2nd asked with the offset the 1st gave.
    const pages = recordReads(mock);
    expect(pages).toHaveLength(2);
    // The field types are read once, before the records.
    expect(schemaReads(mock)).toHaveLength(1);
    expect(mock.requests[0]!.path).toBe(`/v0/meta/bases/${AIRTABLE_BASE}/tables`);
    expect(pages[0]!.query.get('offset')).toBeNull();
    expect(pages.slice(1).every((r) => r.query.get('offset')?.startsWith('itr'))).toBe(true);
    expect(pages.every((r) => r.query.get('pageSize') === '100' && r.query.getAll('fields[]').join() === 'Key,English,German,French')).toBe(true);
    expect(mock.requests.every((r) => r.authorization === `Bearer ${mock.token}`)).toBe(true);
    // Paced at one request per 220 ms: no 429.
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(mock.refused).toBe(0);
    expect(listing.note).toMatch(/Read 126 Airtable record\(s\) in 2 page\(s\): 124 string\(s\)/);
    expect(listing.note).toMatch(/1 record\(s\) with a source text but no 'Key'/);
    expect(listing.note).toMatch(/1 record\(s\) repeat a key/);
    expect(listing.note).toMatch(/No field in `locale_fields` for ja/);
  });

  it('a view narrows the listing; a table larger than max_pages fails naming the setting', async () => {
    const viewed = unitOf(await airtable.list(context(mock, { settings: { view: AIRTABLE_VIEW, table: AIRTABLE_TABLE_NAME } })));
    expect(viewed.path).toBe(AIRTABLE_TABLE_NAME);
    expect(viewed.strings.length).toBeLessThan(100);
    const error = await rejection(airtable.list(context(mock, { settings: { max_pages: 1 } })));
    expect(error.kind).toBe('config');
    expect(error.message).toMatch(/more than 100 records.*`max_pages` 1.*set `view`/);
  });

  it('writes only the locale fields, 10 records a PATCH, typecast false; writing again sends nothing', async () => {
    const unit = unitOf(await airtable.list(context(mock)));
    const rows = unit.strings.slice(0, 12).flatMap((s) => [
      { key: s.key, locale: 'de', text: `${s.source} (de)` },
      { key: s.key, locale: 'fr', text: `${s.source} (fr)` },
    ]);
    mock.requests.length = 0;
    const first = await airtable.write!(context(mock), stringsWriteBack(unit, rows));
    expect(first.written).toBe(24);
    const patches = mock.requests.filter((r) => r.method === 'PATCH');
    expect(patches.map((r) => (r.body as { records: unknown[] }).records.length)).toEqual([10, 2]);
    expect(patches.every((r) => (r.body as { typecast: boolean }).typecast === false)).toBe(true);
    const fieldsWritten = new Set(patches.flatMap((r) => (r.body as { records: { fields: Record<string, string> }[] }).records.flatMap((rec) => Object.keys(rec.fields))));
    expect([...fieldsWritten].sort()).toEqual(['French', 'German']);
    // Each PATCH comes after a read of its records, by RECORD_ID().
    const reads = mock.requests.filter((r) => r.method === 'GET');
    expect(reads).toHaveLength(2);
    expect(reads[0]!.query.get('filterByFormula')).toMatch(/^OR\(RECORD_ID\(\)='rec[A-Za-z0-9]{14}'(,RECORD_ID\(\)='rec[A-Za-z0-9]{14}'){9}\)$/);
    const welcome = mock.ids.get('welcome')!;
    expect(mock.cell(welcome, 'German')).toBe('Welcome to our store (de)');
    expect(mock.cell(welcome, 'Notes')).toBe('seed welcome');
    expect(mock.cell(welcome, 'English')).toBe('Welcome to our store');
    const again = unitOf(await airtable.list(context(mock)));
    expect(again.strings.find((s) => s.key === 'welcome')!.translations).toEqual({ de: 'Welcome to our store (de)', fr: 'Welcome to our store (fr)' });
    mock.requests.length = 0;
    const second = await airtable.write!(context(mock), stringsWriteBack(again, rows));
    expect(second.written).toBe(0);
    expect(mock.requests.filter((r) => r.method === 'PATCH')).toHaveLength(0);
    expect(mock.refused).toBe(0);
  });

  it('never overwrites a cell a person changed since the listing, and reports a record deleted meanwhile', async () => {
    const doomed = mock.add({ Key: 'doomed', English: 'Short-lived' });
    const unit = unitOf(await airtable.list(context(mock)));
    const cart = mock.ids.get('cart')!;
    mock.edit(cart, 'German', 'Warenkorb leer (von Hand)');
    mock.remove(doomed);
    const result = await airtable.write!(
      context(mock),
      stringsWriteBack(unit, [
        { key: 'cart', locale: 'de', text: 'Ihr Warenkorb ist leer' },
        { key: 'cart', locale: 'fr', text: 'Votre panier est vide' },
        { key: 'doomed', locale: 'de', text: 'Kurzlebig' },
      ]),
    );
    expect(result.written).toBe(1);
    expect(result.note).toMatch(/Left 1 cell\(s\) a person changed in Airtable since the listing: cart \(de\)/);
    expect(result.note).toMatch(/deleted since the listing: doomed \(rec/);
    // Neither is recorded as written: the next listing compares the cells with what was there before.
    expect(result.skipped?.map((w) => `${w.key}/${w.locale}`).sort()).toEqual(['cart/de', 'doomed/de']);
    expect(mock.cell(cart, 'German')).toBe('Warenkorb leer (von Hand)');
    expect(mock.cell(cart, 'French')).toBe('Votre panier est vide');
    // The write goes only into the field the listing read and checked: a locale moved to another field since waits.
    const moved = await airtable.write!(context(mock, { settings: { locale_fields: { de: 'Notes', fr: 'French' } } }), stringsWriteBack(unit, [{ key: 'cart', locale: 'de', text: 'Ihr Warenkorb ist leer' }]));
    expect(moved.written).toBe(0);
    expect(moved.note).toMatch(/`locale_fields` changed since the listing for cart \(de\)/);
    expect(mock.cell(cart, 'Notes')).toBe('seed cart');
  });

  it("waits out Airtable's 429 and lists everything", async () => {
    mock.requests.length = 0;
    mock.rateLimitNext(1);
    const started = Date.now();
    const listing = await airtable.list(context(mock, { settings: { view: AIRTABLE_VIEW } }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(unitOf(listing).strings.length).toBeGreaterThan(SEED.length);
    // The first request, the schema read, got the 429 and was sent again; the records were read after it.
    expect(schemaReads(mock)).toHaveLength(2);
    expect(recordReads(mock).length).toBeGreaterThan(0);
    expect(mock.requests.findIndex((r) => r.path.startsWith(`/v0/${AIRTABLE_BASE}/`))).toBe(2);
  });

  it("refusals: a bad token is 'auth' quoting Airtable, a wrong table or unknown field is 'config' naming it", async () => {
    const bad = await rejection(airtable.list(context(mock, { token: 'patNOPE' })));
    expect(bad.kind).toBe('auth');
    expect(bad.message).toMatch(/Airtable refused the credentials \(HTTP 401: AUTHENTICATION_REQUIRED: Authentication required\)/);
    const table = await rejection(airtable.list(context(mock, { settings: { table: 'Strngs' } })));
    expect(table.kind).toBe('config');
    expect(table.message).toMatch(/Airtable base appPrlnc0000Test1 has no table 'Strngs' \(its tables: 'Strings' \(tblStrings0000001\), 'Elsewhere'.*Set `table`/);
    mock.requests.length = 0;
    const field = await rejection(airtable.list(context(mock, { settings: { locale_fields: { de: 'Deutsch', fr: 'French' } } })));
    expect(field.kind).toBe('config');
    expect(field.message).toMatch(/Airtable table 'tblStrings0000001' has no field 'Deutsch' \(`locale_fields\.de`\); its fields are 'Key', 'English', 'German', 'French', 'Notes'/);
    expect(recordReads(mock)).toHaveLength(0);
    const key = await rejection(airtable.list(context(mock, { settings: { key_field: 'key' } })));
    expect(key.message).toMatch(/no field 'key' \(`key_field`\).*case-sensitive/);
    expect(airtable.settings.safeParse({ ...AIRTABLE_SETTINGS, locale_fields: { de: 'English' } }).error?.issues[0]).toMatchObject({ path: ['locale_fields', 'de'], message: expect.stringMatching(/is the source field/) });
    expect(airtable.settings.safeParse({ ...AIRTABLE_SETTINGS, base_id: 'Strings' }).error?.issues[0]).toMatchObject({ path: ['base_id'] });
    expect(airtable.settings.safeParse({ ...AIRTABLE_SETTINGS, locale_fields: {} }).success).toBe(false);
  });

  it('a rich-text locale or source field is refused naming it; nothing is read or written', async () => {
    mock.richText = 'German';
    try {
      mock.requests.length = 0;
      const error = await rejection(airtable.list(context(mock)));
      expect(error.kind).toBe('config');
      expect(error.message).toMatch(/Airtable field 'German' \(`locale_fields\.de`\) of table 'tblStrings0000001' has rich text formatting on: .*Markdown.*Turn off "Enable rich text formatting" in the field's settings, or use another field\./);
      expect(recordReads(mock)).toHaveLength(0);
      // A locale the project does not translate into is never read, so its field's type does not matter.
      expect(unitOf(await airtable.list(context(mock, { targetLocales: ['fr'] }))).locales).toEqual(['fr']);
      mock.richText = 'English';
      expect((await rejection(airtable.list(context(mock)))).message).toMatch(/field 'English' \(`source_field`\) .* rich text formatting on/);
    } finally {
      mock.richText = undefined;
    }
  });

  it('a token without schema.bases:read: the sync log says the types were not checked and what scope to add, and the sync goes on', async () => {
    mock.withoutSchemaScope = true;
    mock.richText = 'German';
    try {
      const listing = await airtable.list(context(mock));
      expect(unitOf(listing).strings.length).toBeGreaterThan(SEED.length);
      expect(listing.note).toMatch(/The field types could not be checked \(GET \/v0\/meta\/bases\/appPrlnc0000Test1\/tables answered HTTP 403: INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND.*\): add the scope schema\.bases:read to the access token/);
      // As before the check: a wrong table is Airtable's 403, an unknown field its 422.
      const table = await rejection(airtable.list(context(mock, { settings: { table: 'Strngs' } })));
      expect(table.kind).toBe('auth');
      expect(table.message).toMatch(/INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND.*table 'Strngs' are right/);
      const field = await rejection(airtable.list(context(mock, { settings: { locale_fields: { de: 'Deutsch' } } })));
      expect(field.kind).toBe('config');
      expect(field.message).toMatch(/HTTP 422: UNKNOWN_FIELD_NAME: Unknown field name: "Deutsch"\. Check the connection's base_id, table, view and field names/);
    } finally {
      mock.withoutSchemaScope = false;
      mock.richText = undefined;
    }
  });

  it("a server that does not answer is 'unavailable'", async () => {
    await mock.stop();
    try {
      expect((await rejection(airtable.list(context(mock)))).kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
  });

  it("with webhook_id, the first listing starts at the webhook's cursorForNextPayload, not at older payloads", async () => {
    mock.edit(mock.ids.get('cart')!, 'Notes', 'a change made before the connection');
    const next = mock.nextPayload();
    expect(next).toBeGreaterThan(1);
    mock.requests.length = 0;
    // A cursor kept for another webhook (webhook_id changed since) is not used.
    const listing = await airtable.list(hooked(mock, { webhook_id: 'achOther0000Hook1', cursor: 1 }));
    expect(unitOf(listing).strings.length).toBeGreaterThan(SEED.length);
    const hookReads = mock.requests.filter((r) => r.path.startsWith('/v0/bases/'));
    expect(hookReads.map((r) => r.path)).toEqual([`/v0/bases/${AIRTABLE_BASE}/webhooks`, `/v0/bases/${AIRTABLE_BASE}/webhooks/${AIRTABLE_WEBHOOK}/payloads`]);
    expect(hookReads[1]!.query.get('cursor')).toBe(String(next));
    expect(hookReads[1]!.query.get('limit')).toBe('50');
    expect(listing.state).toEqual({ webhook_id: AIRTABLE_WEBHOOK, cursor: next });
    expect(listing.note).toMatch(/Airtable webhook achPrlnc0000Hook1: 0 change\(s\) since the last sync, 0 of them in table tblStrings0000001; reading them moves its expiry to 7 days from now\./);
    expect(listing.note).toMatch(new RegExp(`First read of webhook achPrlnc0000Hook1: from its next payload \\(${next}\\); earlier changes are not read`));
    expect(mock.refused).toBe(0);
  });

  it('a change, then a listing: only the new payloads are read, and the cursor kept moves on', async () => {
    const first = await airtable.list(hooked(mock));
    const from = mock.nextPayload();
    const welcome = mock.ids.get('welcome')!;
    mock.edit(welcome, 'English', 'Welcome to our shop');
    mock.changeElsewhere();
    mock.requests.length = 0;
    const second = await airtable.list(hooked(mock, first.state));
    expect(payloadReads(mock).map((r) => r.query.get('cursor'))).toEqual([String(from)]);
    expect(mock.requests.some((r) => r.path === `/v0/bases/${AIRTABLE_BASE}/webhooks`)).toBe(false);
    expect(second.note).toMatch(/2 change\(s\) since the last sync, 1 of them in table tblStrings0000001/);
    expect(second.state).toEqual({ webhook_id: AIRTABLE_WEBHOOK, cursor: from + 2 });
    // The next listing starts where this one stopped: nothing new, the cursor stays.
    mock.requests.length = 0;
    const third = await airtable.list(hooked(mock, second.state));
    expect(payloadReads(mock).map((r) => r.query.get('cursor'))).toEqual([String(from + 2)]);
    expect(third.note).toMatch(/0 change\(s\) since the last sync/);
    expect(third.state).toEqual(second.state);
    // A table set by name cannot be matched to changedTablesById's ids: no count for it.
    const byName = await airtable.list({ ...context(mock, { settings: { webhook_id: AIRTABLE_WEBHOOK, table: AIRTABLE_TABLE_NAME } }), state: first.state ?? null });
    expect(byName.note).toMatch(/2 change\(s\) since the last sync; reading/);
    mock.edit(welcome, 'English', 'Welcome to our store');
  });

  it('follows mightHaveMore over pages of 50, and after 20 pages keeps the cursor reached for the next sync', async () => {
    const start = await airtable.list(hooked(mock));
    const from = mock.nextPayload();
    const welcome = mock.ids.get('welcome')!;
    for (let n = 0; n < 120; n++) mock.edit(welcome, 'Notes', `note ${n}`);
    mock.requests.length = 0;
    const listing = await airtable.list(hooked(mock, start.state));
    expect(payloadReads(mock).map((r) => Number(r.query.get('cursor')))).toEqual([from, from + 50, from + 100]);
    expect(listing.note).toMatch(/120 change\(s\) since the last sync, 120 of them/);
    expect(listing.state).toEqual({ webhook_id: AIRTABLE_WEBHOOK, cursor: from + 120 });
    for (let n = 0; n < 1010; n++) mock.edit(welcome, 'Notes', `more ${n}`);
    mock.requests.length = 0;
    const capped = await airtable.list(hooked(mock, listing.state));
    expect(payloadReads(mock)).toHaveLength(20);
    expect(capped.note).toMatch(new RegExp(`1000 change\\(s\\) since the last sync.*More than 1000 payloads waited: the rest are read from cursor ${from + 1120} by the next sync`));
    expect(capped.state).toEqual({ webhook_id: AIRTABLE_WEBHOOK, cursor: from + 1120 });
    const rest = await airtable.list(hooked(mock, capped.state));
    expect(rest.note).toMatch(/ 10 change\(s\) since the last sync/);
    expect(rest.state).toEqual({ webhook_id: AIRTABLE_WEBHOOK, cursor: from + 1130 });
    expect(mock.refused).toBe(0);
  }, 30_000);

  it('an unknown webhook or a token without webhook:manage is a note, not a failure, and the cursor stays', async () => {
    const unknown = await airtable.list({ ...context(mock, { settings: { webhook_id: 'achNoSuch000Hook1' } }), state: { webhook_id: 'achNoSuch000Hook1', cursor: 7 } });
    expect(unitOf(unknown).strings.length).toBeGreaterThan(SEED.length);
    expect(unknown.note).toMatch(/HTTP 404 \(NOT_FOUND: Could not find webhook achNoSuch000Hook1\)\. Set `webhook_id` to a webhook of base appPrlnc0000Test1 .* The cursor stays at 7\. The strings were listed all the same\./);
    expect(unknown.state).toBeUndefined();
    const fresh = await airtable.list(context(mock, { settings: { webhook_id: 'achNoSuch000Hook1' } }));
    expect(fresh.note).toMatch(/Airtable base appPrlnc0000Test1 has no webhook achNoSuch000Hook1 \(it has: achPrlnc0000Hook1\)\. Set `webhook_id`/);
    expect(fresh.state).toBeUndefined();
    mock.withoutWebhookScope = true;
    try {
      const denied = await airtable.list(hooked(mock, { webhook_id: AIRTABLE_WEBHOOK, cursor: 3 }));
      expect(unitOf(denied).strings.length).toBeGreaterThan(SEED.length);
      expect(denied.note).toMatch(/HTTP 403 \(INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND: .*\)\. Give the access token the scope webhook:manage.* The cursor stays at 3\./);
      expect(denied.state).toBeUndefined();
    } finally {
      mock.withoutWebhookScope = false;
    }
  });

  it('accepts a signed ping of its base and webhook, and refuses a forged or unsigned one', () => {
    // Airtable counts any answer but 200/204 with an empty body as a failed delivery.
    expect(airtable.acknowledge).toBe('empty');
    const secret = Buffer.from('a mac secret of thirty-two bytes').toString('base64');
    const settings = airtable.settings.parse({ ...AIRTABLE_SETTINGS, webhook_id: AIRTABLE_WEBHOOK });
    const request = (ping: { headers: Record<string, string>; body: string }) => ({ headers: new Headers(ping.headers), body: new TextEncoder().encode(ping.body) });
    expect(airtable.verifyWebhook!(request(airtablePing(secret)), secret, settings)).toEqual({ verified: true, sync: true });
    const forged = airtablePing(Buffer.from('another secret').toString('base64'));
    expect(airtable.verifyWebhook!(request(forged), secret, settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/X-Airtable-Content-MAC does not match/) });
    const tampered = airtablePing(secret);
    expect(airtable.verifyWebhook!({ ...request(tampered), body: new TextEncoder().encode(tampered.body.replace('"timestamp":"', '"timestamp":"1')) }, secret, settings).verified).toBe(false);
    const bare = airtablePing(secret);
    delete bare.headers['x-airtable-content-mac'];
    expect(airtable.verifyWebhook!(request(bare), secret, settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/No X-Airtable-Content-MAC/) });
    expect(airtable.verifyWebhook!(request(airtablePing(secret, { base: 'appOther0000Base1' })), secret, settings)).toMatchObject({ verified: true, sync: false, reason: expect.stringMatching(/base appOther0000Base1/) });
    expect(airtable.verifyWebhook!(request(airtablePing(secret, { webhook: 'achOther0000Hook1' })), secret, settings)).toMatchObject({ verified: true, sync: false });
    // Without webhook_id, any webhook of the base starts a sync.
    expect(airtable.verifyWebhook!(request(airtablePing(secret, { webhook: 'achOther0000Hook1' })), secret, airtable.settings.parse(AIRTABLE_SETTINGS)).sync).toBe(true);
  });
});

connectorAcceptance('Airtable acceptance', airtableFixture, { direction: 'two_way' });
