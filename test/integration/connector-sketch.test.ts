/** The Sketch connector on real .sketch files: uploaded or fetched from file_url, text layers and symbol overrides, boxes as hints, refusals. */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit, UploadedFile } from '../../server/integrations/connector.js';
import { sketch } from '../../server/integrations/connectors/sketch.js';
import { deflatedZeros } from '../helpers/build-zip.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { artboard, group, sketchFile, sketchFixture, sketchId, startSketchMock, symbolInstance, symbolMaster, text, type SketchMock, type SketchPage } from '../helpers/connector-mocks/sketch.js';
import { connectorContext, rejection } from '../helpers/connector-unit.js';

const upload = (content: Uint8Array, name = 'Checkout.sketch'): UploadedFile => ({ name, content, sha256: createHash('sha256').update(content).digest('hex'), uploadedAt: new Date('2026-11-30T10:00:00Z') });
const uploaded = (file: UploadedFile | null, settings: Record<string, unknown> = {}) => connectorContext(sketch, settings, {}, { upload: file, connectionId: 'con_sketch_1' });
const only = (units: unknown[]) => units[0] as StringUnit;

const id = sketchId;
const BUTTON = id('symbol-button');
const CARD = id('symbol-card');
const BADGE = id('symbol-badge');

/** A design with two pages: screens on "Checkout", the symbols they use on "Symbols", and one symbol from a library. */
function design(): SketchPage[] {
  return [
    {
      id: id('page-checkout'),
      name: 'Checkout',
      layers: [
        artboard(id('ab-cart'), 'Cart', [
          text(id('t-title'), 'Title', 'Your order', { x: 16, y: 40, width: 200, height: 40 }, { textBehaviour: 2, lineHeight: 20 }),
          group(id('g-summary'), 'Summary', [
            group(id('g-row'), 'Total row', [text(id('t-total'), 'Total', 'Total incl. VAT', { x: 0, y: 0, width: 220, height: 20 }, { textBehaviour: 1, lineHeight: 20 })]),
            text(id('t-auto'), 'Pay securely', 'Pay securely', { x: 0, y: 40, width: 90, height: 20 }),
          ]),
          symbolInstance(id('i-buy'), 'Buy button', BUTTON, { [id('t-button')]: 'Buy now' }),
          symbolInstance(id('i-card'), 'Promo card', CARD, { [`${id('i-card-button')}/${id('t-button')}`]: 'Claim offer', [id('t-card-title')]: 'Free shipping' }),
          symbolInstance(id('i-plain'), 'Plain button', BUTTON),
          symbolInstance(id('i-badge'), 'Badge', BADGE, { [id('t-badge')]: 'New' }),
          symbolInstance(id('i-hidden'), 'Hidden button', BUTTON, { [id('t-button')]: 'Never shown' }, false),
          symbolInstance(id('i-empty'), 'Empty override', BUTTON, { [id('t-button')]: '' }),
          symbolInstance(id('i-ghost'), 'Override of a hidden layer', CARD, { [id('t-card-hint')]: 'Hidden hint' }),
          text(id('t-hidden'), 'Draft', 'Not for launch', { x: 0, y: 0, width: 100, height: 20 }, { isVisible: false }),
        ]),
        artboard(id('ab-old'), 'Old cart', [text(id('t-old'), 'Old', 'Old title', { x: 0, y: 0, width: 100, height: 20 })], false),
        text(id('t-loose'), 'Loose note', 'Shipping is free', { x: 500, y: 0, width: 150, height: 20 }, { textBehaviour: 1 }),
        group(id('g-loose'), 'Annotations', [text(id('t-annotation'), 'Annotation', 'Tap to pay', { x: 500, y: 40, width: 150, height: 20 })]),
      ],
    },
    {
      id: id('page-symbols'),
      name: 'Symbols',
      layers: [
        symbolMaster(id('m-button'), 'Button/Primary', BUTTON, [text(id('t-button'), 'Label', 'Continue', { x: 12, y: 12, width: 136, height: 24 }, { textBehaviour: 2, lineHeight: 24 })]),
        symbolMaster(id('m-card'), 'Card/Promo', CARD, [
          text(id('t-card-title'), 'Card title', 'Limited offer', { x: 12, y: 12, width: 200, height: 24 }, { textBehaviour: 1 }),
          text(id('t-card-hint'), 'Hint', 'Swipe', { x: 12, y: 40, width: 200, height: 24 }, { isVisible: false }),
          symbolInstance(id('i-card-button'), 'Card button', BUTTON),
        ]),
      ],
    },
  ];
}
const LIBRARY = [{ libraryName: 'Brand kit', master: symbolMaster(id('m-badge'), 'Badge', BADGE, [text(id('t-badge'), 'Badge text', 'Sale', { x: 0, y: 0, width: 40, height: 16 }, { textBehaviour: 2, fontSize: 12 })]) }];

describe('Sketch connector', () => {
  let mock: SketchMock;
  beforeAll(async () => {
    mock = await startSketchMock();
  });
  afterAll(async () => {
    await mock.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });

  it('reads an uploaded document: visible text layers keyed by do_objectID, symbol overrides by instance and override path', async () => {
    const listing = await sketch.list(uploaded(upload(sketchFile(design(), { foreignSymbols: LIBRARY }))));
    expect(listing.units).toHaveLength(1);
    const unit = only(listing.units);
    expect(unit.path).toBe('design');
    expect(unit.strings.map((s) => [s.key, s.source])).toEqual([
      [id('t-title'), 'Your order'],
      [id('t-total'), 'Total incl. VAT'],
      [id('t-auto'), 'Pay securely'],
      [`${id('i-buy')}/${id('t-button')}`, 'Buy now'],
      [`${id('i-card')}/${id('i-card-button')}/${id('t-button')}`, 'Claim offer'],
      [`${id('i-card')}/${id('t-card-title')}`, 'Free shipping'],
      [`${id('i-badge')}/${id('t-badge')}`, 'New'],
      [id('t-loose'), 'Shipping is free'],
      [id('t-annotation'), 'Tap to pay'],
      [id('t-button'), 'Continue'],
      [id('t-card-title'), 'Limited offer'],
    ]);
    expect(unit.strings.every((s) => s.translations === undefined && s.ref === undefined && s.maxLength === undefined)).toBe(true);
    expect(listing.note).toBe("Sketch, import only, from the uploaded file 'Checkout.sketch', saved by Sketch 2025.1: 11 strings on 2 pages (4 of them symbol overrides, 4 hidden layers skipped).");
  });

  it('gives page › artboard (or symbol) › groups › layer as the context', async () => {
    const strings = only((await sketch.list(uploaded(upload(sketchFile(design(), { foreignSymbols: LIBRARY }))))).units).strings;
    const context = (key: string) => strings.find((s) => s.key === key)!.context;
    expect(context(id('t-title'))).toBe('Page "Checkout" › artboard "Cart" › layer "Title"');
    expect(context(id('t-total'))).toBe('Page "Checkout" › artboard "Cart" › group "Summary" › group "Total row" › layer "Total"');
    expect(context(id('t-loose'))).toBe('Page "Checkout" › layer "Loose note"');
    expect(context(id('t-annotation'))).toBe('Page "Checkout" › group "Annotations" › layer "Annotation"');
    expect(context(id('t-button'))).toBe('Page "Symbols" › symbol "Button/Primary" › layer "Label"');
    expect(context(`${id('i-buy')}/${id('t-button')}`)).toBe('Page "Checkout" › artboard "Cart" › symbol instance "Buy button" › layer "Label"');
    expect(context(`${id('i-card')}/${id('i-card-button')}/${id('t-button')}`)).toBe('Page "Checkout" › artboard "Cart" › symbol instance "Promo card" › layer "Label"');
  });

  it("notes a fixed box's size in Figma's words, never as a max length (a pixel is not a character)", async () => {
    const strings = only((await sketch.list(uploaded(upload(sketchFile(design(), { foreignSymbols: LIBRARY }))))).units).strings;
    const notes = (key: string) => strings.find((s) => s.key === key)!.notes;
    // textBehaviour 2, fixed size: 200 px × 0.14 = 28 characters, 40 px ÷ 20 px = 2 lines.
    expect(notes(id('t-title'))).toBe('Layer "Title". Fixed text box 200 × 40 px (about 28 characters a line, 2 lines): a longer translation overflows the box.');
    // textBehaviour 1, fixed width: grows downwards.
    expect(notes(id('t-total'))).toBe('Layer "Total". Text box 220 px wide, growing downwards (about 30 characters a line): a longer translation wraps onto more lines.');
    // textBehaviour 0, flexible: the box follows the text; a layer named after its text says nothing more.
    expect(notes(id('t-auto'))).toBeUndefined();
    expect(notes(`${id('i-buy')}/${id('t-button')}`)).toBe(
      'Override of the text layer "Label" of symbol "Button/Primary" (its text there: "Continue"). Fixed text box 136 × 24 px (about 19 characters a line, 1 line): a longer translation overflows the box.',
    );
    // A library symbol, no paragraph line height: 1.2 × the 12 px font.
    expect(notes(`${id('i-badge')}/${id('t-badge')}`)).toBe('Override of the text layer "Badge text" of symbol "Badge" (its text there: "Sale"). Fixed text box 40 × 16 px (about 5 characters a line, 1 line): a longer translation overflows the box.');
    const wider = only((await sketch.list(uploaded(upload(sketchFile(design())), { chars_per_px: 0.2 }))).units).strings;
    expect(wider.find((s) => s.key === id('t-title'))!.notes).toContain('about 40 characters a line');
  });

  it('skips hidden layers and their children, hidden instances, empty overrides and overrides of hidden symbol layers', async () => {
    const keys = only((await sketch.list(uploaded(upload(sketchFile(design(), { foreignSymbols: LIBRARY }))))).units).strings.map((s) => s.key);
    for (const hidden of [id('t-hidden'), id('t-old'), id('t-card-hint')]) expect(keys).not.toContain(hidden);
    for (const instance of ['i-hidden', 'i-empty', 'i-ghost', 'i-plain']) expect(keys.some((k) => k.startsWith(`${id(instance)}/`))).toBe(false);
  });

  it('an override of a symbol the document lacks is still a string, named by its override path', async () => {
    const strings = only((await sketch.list(uploaded(upload(sketchFile(design()))))).units).strings;
    const badge = strings.find((s) => s.key === `${id('i-badge')}/${id('t-badge')}`)!;
    expect(badge).toMatchObject({ source: 'New', notes: `Override of the text layer "${id('t-badge')}".` });
  });

  it('a re-upload under another name keeps the path and the keys; `path` names it otherwise', async () => {
    const first = only((await sketch.list(uploaded(upload(sketchFile(design()), 'Checkout.sketch')))).units);
    const again = only((await sketch.list(uploaded(upload(sketchFile(design()), 'Checkout v2 (final).sketch')))).units);
    expect(again.path).toBe(first.path);
    expect(again.strings.map((s) => s.key)).toEqual(first.strings.map((s) => s.key));
    expect(only((await sketch.list(uploaded(upload(sketchFile(design())), { path: 'apps/checkout' }))).units).path).toBe('apps/checkout');
    expect(sketch.settings.safeParse({ path: '../elsewhere' }).success).toBe(false);
  });

  it('reads only the named pages (symbols on other pages still resolve), and names a page the document lacks', async () => {
    const file = upload(sketchFile(design(), { foreignSymbols: LIBRARY }));
    const strings = only((await sketch.list(uploaded(file, { pages: ['Checkout'] }))).units).strings;
    expect(strings.map((s) => s.key)).not.toContain(id('t-button'));
    expect(strings.find((s) => s.key === `${id('i-buy')}/${id('t-button')}`)!.notes).toContain('of symbol "Button/Primary"');
    const error = await rejection(sketch.list(uploaded(file, { pages: ['Settings'] })));
    expect(error.kind).toBe('config');
    expect(error.message).toBe("The uploaded file 'Checkout.sketch' has no page 'Settings' (setting pages). Its pages: 'Checkout', 'Symbols'.");
  });

  it('a repeated layer id is keyed with its page and parent layer, so reordering pages or layers keeps every key with its text', async () => {
    const box = { x: 0, y: 0, width: 10, height: 10 };
    const first: SketchPage = {
      id: id('p1'),
      name: 'Page 1',
      layers: [
        artboard(id('a1'), 'A', [text(id('same'), 'One', 'First', box), text(id('twin'), 'T', 'Twin one', box), text(id('twin'), 'T', 'Twin two', box)]),
        text(id('same'), 'Loose', 'On the page', box),
        text(id('unique'), 'U', 'Alone', box),
      ],
    };
    const copy: SketchPage = { id: id('p2'), name: 'Page 1 copy', layers: [artboard(id('a2'), 'B', [text(id('same'), 'Two', 'Second', box)])] };
    const pairs = async (pages: SketchPage[]) => {
      const listing = await sketch.list(uploaded(upload(sketchFile(pages))));
      return { pairs: only(listing.units).strings.map((s) => [s.key, s.source] as const), note: listing.note };
    };
    const read = await pairs([first, copy]);
    expect(read.pairs).toEqual([
      [`${id('same')}@${id('p1')}/${id('a1')}`, 'First'],
      [`${id('twin')}@${id('p1')}/${id('a1')}`, 'Twin one'],
      [`${id('twin')}@${id('p1')}/${id('a1')}#2`, 'Twin two'],
      [`${id('same')}@${id('p1')}`, 'On the page'],
      [id('unique'), 'Alone'],
      [`${id('same')}@${id('p2')}/${id('a2')}`, 'Second'],
    ]);
    expect(read.note).toContain('6 strings on 2 pages (5 strings of repeated layer ids keyed with their page and parent layer (<id>@<page id>/<parent id>))');
    // The pages swapped, and the artboard and the loose text swapped on the first: each key still holds its text.
    const moved = await pairs([copy, { ...first, layers: [first.layers[1]!, first.layers[2]!, first.layers[0]!] }]);
    expect(new Map(moved.pairs)).toEqual(new Map(read.pairs));
  });

  it('with neither an upload nor file_url: a config error giving the exact PUT', async () => {
    const error = await rejection(sketch.list(uploaded(null)));
    expect(error.kind).toBe('config');
    expect(error.message).toBe('No Sketch document to read: upload one (PUT /v1/integrations/sketch/con_sketch_1/file?name=<name>.sketch with the .sketch file as the body), or set file_url (where to fetch it on each sync).');
  });

  describe('refuses what is not a readable Sketch document, saying what to do', () => {
    const message = async (bytes: Uint8Array) => {
      const error = await rejection(sketch.list(uploaded(upload(bytes))));
      expect(error.kind).toBe('config');
      return error.message;
    };

    it('a file saved by Sketch 42 or earlier (SQLite), and one that is no zip', async () => {
      expect(await message(new TextEncoder().encode('SQLite format 3\0\x10\x00\x01\x01'))).toMatch(/^The uploaded file 'Checkout\.sketch' was saved by Sketch 42 or earlier \(an SQLite file\).*Open it in a current Sketch/);
      expect(await message(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]))).toBe("The uploaded file 'Checkout.sketch' is not a Sketch document (a .sketch file is a zip of JSON, saved by Sketch 43 or later).");
      expect(await message(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0]))).toMatch(/is not a readable zip \(invalid zip data\)/);
    });

    it('a zip without document.json, or with a page that is not JSON', async () => {
      expect(await message(sketchFile(design(), { without: ['document.json'] }))).toMatch(/has no 'document\.json': it is not a Sketch document/);
      const broken = sketchFile(design(), { without: [`pages/${id('page-symbols')}.json`], extra: [{ name: `pages/${id('page-symbols')}.json`, content: '{"_class": "page", "layers": [' }] });
      expect(await message(broken)).toBe(`The uploaded file 'Checkout.sketch': 'pages/${id('page-symbols')}.json' is not JSON. Save the document again in Sketch and upload that.`);
    });

    it('inflates only the JSON: a 512 MiB bitmap is never inflated, a page that inflates past the limit is refused', async () => {
      const bitmap = sketchFile(design(), { extra: [{ name: 'images/huge.png', deflated: deflatedZeros(512 * 1024 * 1024) }] });
      expect(only((await sketch.list(uploaded(upload(bitmap)))).units).strings.length).toBeGreaterThan(0);
      const bomb = sketchFile(design(), { without: [`pages/${id('page-symbols')}.json`], extra: [{ name: `pages/${id('page-symbols')}.json`, deflated: deflatedZeros(300 * 1024 * 1024) }] });
      expect(await message(bomb)).toMatch(new RegExp(`^The uploaded file 'Checkout\\.sketch': Archive entry 'pages/${id('page-symbols')}\\.json' inflates past the limit of 268,435,456 bytes \\(MAX_INFLATED_BYTES\\)`));
    }, 30_000);
  });

  describe('file_url', () => {
    const fetched = (settings: Record<string, unknown> = {}, secrets: Record<string, unknown> = { file_token: mock.token }, file: UploadedFile | null = null) =>
      connectorContext(sketch, { file_url: mock.fileUrl, ...settings }, secrets, { upload: file });

    it('fetches the document with the token as Bearer, and prefers it to an uploaded file', async () => {
      const listing = await sketch.list(fetched({}, { file_token: mock.token }, upload(sketchFile(design()))));
      const unit = only(listing.units);
      expect(unit.strings.map((s) => s.source)).toEqual(SEED.map((s) => s.source));
      expect(unit.strings[3]).toMatchObject({ key: mock.seedLayer('farewell'), context: 'Page "Checkout" › artboard "Cart screen" › group "Footer" › layer "Goodbye"' });
      expect(mock.requests.map((r) => [r.method, r.path, r.authorization, r.status])).toEqual([['GET', '/files/Checkout.sketch', `Bearer ${mock.token}`, 200]]);
      expect(listing.note).toBe('Sketch, import only, from file_url, saved by Sketch 2025.1: 4 strings on 1 pages (2 hidden layers skipped).');
    });

    it("sees a designer's change in the next fetch", async () => {
      mock.setText(mock.seedLayer('cart'), 'Your basket is empty');
      try {
        const strings = only((await sketch.list(fetched())).units).strings;
        expect(strings.find((s) => s.key === mock.seedLayer('cart'))!.source).toBe('Your basket is empty');
      } finally {
        mock.setText(mock.seedLayer('cart'), SEED[1]!.source);
      }
    });

    it("a refused token: ConnectorError auth quoting the server's words and naming file_token", async () => {
      const error = await rejection(sketch.list(fetched({}, { file_token: 'wrong' })));
      expect(error.kind).toBe('auth');
      expect(error.message).toContain(`Fetching the Sketch document at file_url '${mock.fileUrl}'`);
      expect(error.message).toContain('HTTP 401: invalid token');
      expect(error.message).toContain('file_token');
    });

    it('a URL with nothing there: ConnectorError config naming file_url', async () => {
      const error = await rejection(sketch.list(fetched({ file_url: `${mock.url}/files/Missing.sketch` })));
      expect(error.kind).toBe('config');
      expect(error.message).toContain('HTTP 404: no file at /files/Missing.sketch');
      expect(error.message).toContain('Check the file_url setting');
    });

    it('the server down: ConnectorError unavailable, and fine once it is back', async () => {
      await mock.stop();
      try {
        expect((await rejection(sketch.list(fetched()))).kind).toBe('unavailable');
      } finally {
        await mock.start();
      }
      expect(only((await sketch.list(fetched())).units).strings).toHaveLength(SEED.length);
    });
  });

  it('takes .sketch uploads, has no write and no webhooks', () => {
    expect(sketch.upload).toEqual({ description: 'a Sketch document (.sketch)', extensions: ['.sketch'] });
    expect(sketch.direction).toBe('import_only');
    expect(sketch.write).toBeUndefined();
    expect(sketch.verifyWebhook).toBeUndefined();
    expect(sketch.secrets.safeParse({}).success).toBe(true);
    expect(sketch.secrets.safeParse({ token: 'x' }).success).toBe(false);
  });
});

connectorAcceptance('Sketch acceptance', sketchFixture, { direction: 'import_only' });
