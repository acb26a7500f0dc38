/** The Penpot connector against a local Penpot: the RPC API, uploaded and fetched .penpot exports, length hints, refusals. */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit, UploadedFile } from '../../server/integrations/connector.js';
import { penpot, type PenpotSecrets } from '../../server/integrations/connectors/penpot.js';
import { buildZip, deflatedZeros } from '../helpers/build-zip.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { penpotFixture, startPenpotMock, v1Export, type PenpotMock } from '../helpers/connector-mocks/penpot.js';
import { connectorContext, rejection } from '../helpers/connector-unit.js';

const upload = (content: Uint8Array, name = 'Store checkout.penpot'): UploadedFile => ({ name, content, sha256: createHash('sha256').update(content).digest('hex'), uploadedAt: new Date('2026-11-03T10:00:00Z') });

/** The seed file's one page, and the id a designer's duplicate of it gets. */
const CHECKOUT_PAGE = 'e7d1f9a0-5c1b-80b2-8006-000000000100';
const COPY_PAGE = 'e7d1f9a0-5c1b-80b2-8006-000000000101';

const unitAt = (units: unknown[], path: string) => (units as StringUnit[]).find((u) => u.path === path)!;

describe('Penpot connector', () => {
  let mock: PenpotMock;
  const api = (overrides: { settings?: Record<string, unknown>; secrets?: PenpotSecrets } = {}) =>
    connectorContext(penpot, { api_url: mock.url, file_ids: [mock.fileId, mock.secondId], ...overrides.settings }, overrides.secrets ?? { access_token: mock.token });

  beforeAll(async () => {
    mock = await startPenpotMock();
  });
  afterAll(async () => {
    await mock.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });

  describe('through the API', () => {
    it('lists the visible text shapes of every file, one unit per file keyed by page and shape id, with page, board and layer names', async () => {
      const listing = await penpot.list(api());
      expect(listing.units.map((u) => u.path)).toEqual([mock.fileId, mock.secondId]);
      const store = unitAt(listing.units, mock.fileId);
      expect(store.strings.map((s) => s.source)).toEqual(SEED.map((s) => s.source));
      expect(store.strings.map((s) => s.key)).toEqual(SEED.map((s) => `${CHECKOUT_PAGE}/${mock.seedShape(s.id).id}`));
      expect(store.strings.map((s) => s.key)).toEqual(SEED.map((s) => mock.seedKey(s.id)));
      expect(store.strings[0]).toMatchObject({
        context: 'Page "Checkout" › board "Cart screen" › layer "Title"',
        notes: 'Layer "Title". Fixed text box 200 × 17 px (about 28 characters a line, 1 line): a longer translation overflows the box.',
      });
      // Named after its text (Penpot's default): only the box's hint.
      expect(store.strings[1]!.notes).toBe('Text box 220 px wide, growing downwards (about 30 characters a line): a longer translation wraps onto more lines.');
      // Auto width: the box grows with the text, no hint.
      expect(store.strings[2]!.notes).toBe('Layer "Button label".');
      // No growType: a fixed box.
      expect(store.strings[3]!.notes).toMatch(/^Layer "Footer"\. Fixed text box 100 × 17 px \(about 14 characters a line, 1 line\)/);
      expect(store.strings.every((s) => s.maxLength === undefined)).toBe(true);
      expect(listing.note).toContain("'Store checkout' (" + mock.fileId + ', revision 41): 4 text layers on 1 pages, 2 hidden layers skipped');
      // JSON asked for (Penpot answers Transit otherwise), the token as Penpot takes it, camelCase parameters.
      expect(mock.requests.map((r) => [r.method, r.path, r.accept, r.authorization, r.body])).toEqual([
        ['POST', '/api/rpc/command/get-file', 'application/json', `Token ${mock.token}`, { id: mock.fileId }],
        ['POST', '/api/rpc/command/get-file', 'application/json', `Token ${mock.token}`, { id: mock.secondId }],
      ]);
    });

    it('keeps nested boards under their top-level board, joins styled runs and paragraphs, skips hidden boards, reads every page', async () => {
      const onboarding = unitAt((await penpot.list(api())).units, mock.secondId);
      expect(onboarding.strings.map((s) => [s.source, s.context])).toEqual([
        ['Create your account', 'Page "Onboarding" › board "Step 1" › layer "Heading"'],
        ['Free shipping\non every order', 'Page "Onboarding" › board "Step 1" › layer "Perks"'],
        ['Skip for now', 'Page "Onboarding" › layer "Loose text"'],
        ['Welcome aboard', 'Page "Archive" › board "Old step" › layer "Heading"'],
      ]);
      // 34 px ÷ (14 px × 1.2) = 2 lines.
      expect(onboarding.strings[0]!.notes).toBe('Layer "Heading". Fixed text box 300 × 34 px (about 42 characters a line, 2 lines): a longer translation overflows the box.');
    });

    it('project_id reads every file of the project, each once even when also in file_ids', async () => {
      const listing = await penpot.list(api({ settings: { file_ids: [mock.secondId], project_id: mock.projectId } }));
      expect(listing.units.map((u) => u.path)).toEqual([mock.secondId, mock.fileId]);
      expect(mock.requests.map((r) => [r.path, r.body])).toEqual([
        ['/api/rpc/command/get-project-files', { projectId: mock.projectId }],
        ['/api/rpc/command/get-file', { id: mock.secondId }],
        ['/api/rpc/command/get-file', { id: mock.fileId }],
      ]);
    });

    it('a changed text is listed with its new source, under the same key', async () => {
      const shape = mock.seedShape('cart');
      mock.setText(mock.fileId, shape.id, 'Your basket is empty\nAdd something');
      try {
        const store = unitAt((await penpot.list(api())).units, mock.fileId);
        expect(store.strings.find((s) => s.key === mock.seedKey('cart'))!.source).toBe('Your basket is empty\nAdd something');
      } finally {
        mock.setText(mock.fileId, shape.id, SEED[1]!.source);
      }
    });

    it("a duplicated page keeps its shapes' ids: its texts are keyed by page too, each with its own text whatever the pages' order", async () => {
      const keyed = async () => new Map(unitAt((await penpot.list(api())).units, mock.fileId).strings.map((s) => [s.key, s.source]));
      const copy = { id: COPY_PAGE, name: 'Checkout (copy)' };
      for (const at of [1, 0]) {
        const undo = mock.duplicatePage(mock.fileId, CHECKOUT_PAGE, { ...copy, at });
        const shapeId = mock.seedShape('cart').id;
        mock.setText(mock.fileId, shapeId, 'Basket (original)', CHECKOUT_PAGE);
        try {
          const strings = await keyed();
          expect(strings.size).toBe(2 * SEED.length);
          expect(strings.get(`${CHECKOUT_PAGE}/${shapeId}`)).toBe('Basket (original)');
          expect(strings.get(`${COPY_PAGE}/${shapeId}`)).toBe(SEED[1]!.source);
        } finally {
          undo();
          mock.setText(mock.fileId, shapeId, SEED[1]!.source, CHECKOUT_PAGE);
        }
      }
    });

    it('an empty answer where Penpot answers a document: ConnectorError unavailable, not a crash', async () => {
      for (const [command, settings] of [
        ['get-project-files', { file_ids: [], project_id: mock.projectId }],
        ['get-file', {}],
      ] as const) {
        mock.answerEmpty(command);
        try {
          const error = await rejection(penpot.list(api({ settings })));
          expect(error.kind).toBe('unavailable');
          expect(error.message).toMatch(/answered HTTP 200 with an empty body/);
        } finally {
          mock.answerEmpty(undefined);
        }
      }
    });

    it("a refused token: ConnectorError auth quoting Penpot's hint and code", async () => {
      const error = await rejection(penpot.list(api({ secrets: { access_token: 'revoked' } })));
      expect(error.kind).toBe('auth');
      expect(error.message).toContain(`Reading Penpot file '${mock.fileId}' (setting file_ids): Penpot refused the credentials (HTTP 401: authentication required for this endpoint (authentication-required))`);
      expect(error.message).toContain('access_token');
    });

    it('a file Penpot does not have, or file_ids without a token: ConnectorError config naming the setting', async () => {
      const missing = await rejection(penpot.list(api({ settings: { file_ids: ['00000000-1111-8222-8333-444444444444'] } })));
      expect(missing.kind).toBe('config');
      expect(missing.message).toContain("Reading Penpot file '00000000-1111-8222-8333-444444444444' (setting file_ids): Penpot answered HTTP 404: not found (object-not-found)");
      const noToken = await rejection(penpot.list(api({ secrets: {} })));
      expect(noToken.kind).toBe('config');
      expect(noToken.message).toMatch(/needs the secret access_token/);
      expect(mock.requests).toHaveLength(1);
    });

    it('an api_url that answers something other than JSON: ConnectorError config naming api_url', async () => {
      const error = await rejection(penpot.list(api({ settings: { api_url: `${mock.url}/exports/x` } })));
      expect(error.kind).toBe('config');
    });

    it('Penpot down: ConnectorError unavailable, and fine once it is back', async () => {
      await mock.stop();
      try {
        expect((await rejection(penpot.list(api()))).kind).toBe('unavailable');
      } finally {
        await mock.start();
      }
      expect((await penpot.list(api())).units).toHaveLength(2);
    });
  });

  describe('from an exported .penpot file', () => {
    it('reads an uploaded export (binfile v3) as the API gives the same file: same keys, sources, context and notes', async () => {
      const fromApi = unitAt((await penpot.list(api())).units, mock.secondId);
      const listing = await penpot.list(connectorContext(penpot, {}, {}, { upload: upload(mock.exportOf(mock.secondId), 'Onboarding flow.penpot') }));
      expect(listing.units).toEqual([fromApi]);
      expect(listing.note).toMatch(/^Penpot, import only, from the uploaded file 'Onboarding flow\.penpot': 'Onboarding flow'/);
    });

    it('fetches the export from file_url with file_token as a Bearer token', async () => {
      // An upload is not read while file_url names the source, and the sync's note says so.
      const listing = await penpot.list(connectorContext(penpot, { file_url: mock.exportUrl(mock.fileId) }, { file_token: mock.exportToken }, { upload: upload(v1Export(), 'old.penpot') }));
      expect(unitAt(listing.units, mock.fileId).strings.map((s) => s.source)).toEqual(SEED.map((s) => s.source));
      expect(listing.note).toMatch(/The uploaded file 'old\.penpot' is not read while file_url/);
      expect(mock.requests.map((r) => [r.method, r.path, r.authorization])).toEqual([['GET', `/exports/${mock.fileId}.penpot`, `Bearer ${mock.exportToken}`]]);
    });

    it('file_url refusing the token: auth; not there: config naming file_url', async () => {
      const refused = await rejection(penpot.list(connectorContext(penpot, { file_url: mock.exportUrl(mock.fileId) }, { file_token: 'wrong' })));
      expect(refused.kind).toBe('auth');
      expect(refused.message).toMatch(/file_url .*refused the credentials \(HTTP 401: Unauthorized\).*file_token/);
      const missing = await rejection(penpot.list(connectorContext(penpot, { file_url: `${mock.url}/exports/nothing.penpot` }, { file_token: mock.exportToken })));
      expect(missing.kind).toBe('config');
      expect(missing.message).toMatch(/HTTP 404.*file_url/);
    });

    it('refuses a Penpot 1 export with what to do, and a file that is no export', async () => {
      const v1 = await rejection(penpot.list(connectorContext(penpot, {}, {}, { upload: upload(v1Export(), 'old.penpot') })));
      expect(v1.kind).toBe('config');
      expect(v1.message).toBe("The uploaded file 'old.penpot' is a Penpot 1 export (binfile v1), which this connector cannot read. Open the file in Penpot 2 and export it again (menu › Export .penpot), then upload that.");
      const text = await rejection(penpot.list(connectorContext(penpot, {}, {}, { upload: upload(new TextEncoder().encode('{"not": "a penpot file"}'), 'notes.penpot') })));
      expect(text.message).toMatch(/is not a Penpot export/);
      const otherZip = await rejection(penpot.list(connectorContext(penpot, {}, {}, { upload: upload(buildZip([{ name: 'document.json', content: '{}' }]), 'x.penpot') })));
      expect(otherZip.message).toMatch(/has no 'manifest\.json'/);
      const otherManifest = await rejection(penpot.list(connectorContext(penpot, {}, {}, { upload: upload(buildZip([{ name: 'manifest.json', content: '{"type":"sketch"}' }]), 'x.penpot') })));
      expect(otherManifest.message).toMatch(/of type 'sketch', not 'penpot\/export-files'/);
    });

    it('refuses an export whose entries inflate past the limit, naming the entry', async () => {
      const bomb = buildZip([{ name: 'manifest.json', content: '{}' }, { name: 'files/x.json', deflated: deflatedZeros(257 * 1024 * 1024) }]);
      const error = await rejection(penpot.list(connectorContext(penpot, {}, {}, { upload: upload(bomb) })));
      expect(error.kind).toBe('config');
      expect(error.message).toMatch(/^The uploaded file 'Store checkout\.penpot': Archive entry 'files\/x\.json' inflates past the limit of 268,435,456 bytes \(MAX_INFLATED_BYTES\)/);
    }, 30_000);

    it('nothing to read: ConnectorError config giving the upload request and the settings', async () => {
      const error = await rejection(penpot.list(connectorContext(penpot, {}, {}, { connectionId: 'con_pp1' })));
      expect(error.kind).toBe('config');
      expect(error.message).toContain('PUT /v1/integrations/penpot/con_pp1/file?name=<name>.penpot');
      expect(error.message).toContain('file_url');
    });

    it('settings: file_url with file_ids is refused; ids must be UUIDs', () => {
      expect(penpot.settings.safeParse({ file_url: 'https://files.example.com/a.penpot', file_ids: [mock.fileId] }).success).toBe(false);
      expect(penpot.settings.safeParse({ file_ids: ['not-a-uuid'] }).success).toBe(false);
      expect(penpot.settings.safeParse({}).success).toBe(true);
    });
  });

  it('is import only, reads .penpot uploads, and has no webhooks', () => {
    expect(penpot.direction).toBe('import_only');
    expect(penpot.write).toBeUndefined();
    expect(penpot.verifyWebhook).toBeUndefined();
    expect(penpot.upload).toEqual({ description: 'a Penpot export (.penpot)', extensions: ['.penpot'] });
  });
});

connectorAcceptance('Penpot acceptance', penpotFixture, { direction: 'import_only' });
