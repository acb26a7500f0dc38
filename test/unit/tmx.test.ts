// Unit tests for TMX import and export: tool-shaped fixtures, inline codes, encodings, errors with positions, round trips.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTmx, renderTmx, type TmxExportInput, type TmxExportUnit, type TmxUnit } from '../../src/core/tmx.js';
import { parseError } from '../helpers/formats.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/tmx/', import.meta.url));
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(FIXTURES + name));
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

function utf16(text: string, littleEndian: boolean): Uint8Array {
  const full = `\uFEFF${text}`;
  const out = Buffer.alloc(full.length * 2);
  for (let i = 0; i < full.length; i++) {
    if (littleEndian) out.writeUInt16LE(full.charCodeAt(i), i * 2);
    else out.writeUInt16BE(full.charCodeAt(i), i * 2);
  }
  return new Uint8Array(out);
}

/** A minimal TMX 1.4 document around the given body content. */
function tmx(body: string, srclang = 'en'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4">
  <header creationtool="test" creationtoolversion="1" segtype="sentence" o-tmf="test" adminlang="en" srclang="${srclang}" datatype="plaintext"/>
  <body>
${body}
  </body>
</tmx>
`;
}

describe('parseTmx on tool-shaped files', () => {
  it('reads an OmegaT project_save.tmx (TMX 1.1, lang=, escaped OmegaT tags, props)', () => {
    const doc = parseTmx(fixture('omegat-project_save.tmx'));
    expect(doc.sourceLocale).toBe('en');
    expect(doc.units).toEqual<TmxUnit[]>([
      {
        variants: [
          { locale: 'en', text: 'Save changes before closing?' },
          { locale: 'de', text: 'Änderungen vor dem Schließen speichern?' },
        ],
        notes: [],
        line: 7,
      },
      {
        variants: [
          { locale: 'en', text: '<f0>Undo</f0> the last %1$s actions' },
          { locale: 'de', text: 'Die letzten %1$s Aktionen <f0>rückgängig machen</f0>' },
        ],
        notes: ['Shown in the toolbar; keep it short.'],
        line: 15,
      },
      {
        variants: [
          { locale: 'en', text: 'Terms & Conditions' },
          { locale: 'de', text: 'AGB' },
        ],
        notes: [],
        line: 24,
      },
      {
        variants: [
          { locale: 'en', text: 'Open' },
          { locale: 'de', text: 'Öffnen' },
        ],
        notes: [],
        line: 33,
      },
    ]);
  });

  it('reads a Trados-style export: native code back from bpt/ept/ph/it/ut, hi text, sub, CDATA; props ignored; tags canonicalised', () => {
    const doc = parseTmx(fixture('trados-style.tmx'));
    expect(doc.sourceLocale).toBe('en-US');
    expect(doc.units).toEqual<TmxUnit[]>([
      {
        id: '1',
        variants: [
          { locale: 'en-US', text: 'Click <b>Save</b> to keep your changes.' },
          { locale: 'fr-FR', text: 'Cliquez sur <b>Enregistrer</b> pour conserver vos modifications.' },
        ],
        notes: [],
        line: 11,
      },
      {
        id: '2',
        variants: [
          { locale: 'en-US', text: '{count} files selected<br/>Press %s to continue' },
          { locale: 'fr-FR', text: '{count} fichiers sélectionnés<br/>Appuyez sur %s pour continuer' },
        ],
        notes: ['Variable is the number of files.'],
        line: 23,
      },
      {
        id: '3',
        variants: [
          { locale: 'en-US', text: 'See <a href="/help">the help page<sup title="Opens in a new tab">1</sup> & the FAQ<!-- nav -->' },
          { locale: 'fr-FR', text: 'Voir <a href="/help">la page d’aide<sup title="S’ouvre dans un nouvel onglet">1</sup> & la FAQ<!-- nav -->' },
        ],
        notes: [],
        line: 34,
      },
    ]);
  });

  const multilingual: TmxUnit[] = [
    {
      id: 'welcome',
      variants: [
        { locale: 'en', text: 'Welcome back, {name}! 👋' },
        { locale: 'ja', text: 'おかえりなさい、{name}さん！👋' },
        { locale: 'zh-Hant-TW', text: '歡迎回來，{name}！👋' },
      ],
      notes: [],
      line: 7,
    },
    {
      id: 'storage-full',
      variants: [
        // The file's CRLF inside the segment reads as LF, as every XML parser reports it.
        { locale: 'en', text: 'Storage is full.\nFree up space to keep syncing.' },
        { locale: 'ja', text: 'ストレージがいっぱいです。\n同期を続けるには空き容量を確保してください。' },
      ],
      notes: ['Two lines on purpose: the second is the call to action.'],
      line: 12,
    },
    {
      id: 'math',
      variants: [
        { locale: 'fr', text: 'Résultat : 𝑥² ≥ 0' },
        { locale: 'en', text: 'Result: 𝑥² ≥ 0' },
      ],
      notes: [],
      line: 19,
    },
  ];

  it('reads UTF-16 LE with a BOM; srclang="*all*" fixes no source locale and header notes are not unit notes', () => {
    const doc = parseTmx(fixture('olifant-multilingual-utf16le.tmx'));
    expect(doc).toEqual({ sourceLocale: undefined, units: multilingual });
  });

  it('uses the given source locale only where the header fixes none', () => {
    expect(parseTmx(fixture('olifant-multilingual-utf16le.tmx'), { sourceLocale: 'en' }).sourceLocale).toBe('en');
    expect(parseTmx(fixture('trados-style.tmx'), { sourceLocale: 'de' }).sourceLocale).toBe('en-US');
    const noSrclang = tmx('<tu><tuv xml:lang="en"><seg>a</seg></tuv></tu>').replace(' srclang="en"', '');
    expect(parseTmx(enc(noSrclang)).sourceLocale).toBeUndefined();
    expect(parseTmx(enc(noSrclang), { sourceLocale: 'fr' }).sourceLocale).toBe('fr');
  });

  it('reads the same document as UTF-16 BE and as UTF-8 with and without a BOM', () => {
    const text = new TextDecoder('utf-16le').decode(fixture('olifant-multilingual-utf16le.tmx'));
    const asUtf8 = text.replace('encoding="UTF-16"', 'encoding="UTF-8"');
    expect(parseTmx(utf16(text, false)).units).toEqual(multilingual);
    expect(parseTmx(enc(`\uFEFF${asUtf8}`)).units).toEqual(multilingual);
    expect(parseTmx(enc(asUtf8)).units).toEqual(multilingual);
  });
});

describe('parseTmx details', () => {
  it('decodes entities, character references and CDATA, and keeps segment whitespace', () => {
    const doc = parseTmx(enc(tmx('<tu><tuv xml:lang="en"><seg>  a &lt;b&gt; &quot;c&quot; &apos;d&apos; &#233;&#x1F600; <![CDATA[<i>&amp;</i>]]>  </seg></tuv></tu>')));
    expect(doc.units[0]!.variants[0]!.text).toBe('  a <b> "c" \'d\' é😀 <i>&amp;</i>  ');
  });

  it('keeps nested hi text with the native code of the inline elements inside it', () => {
    const seg = '<seg><hi type="b">Bold <hi x="2">and <bpt i="1">[i]</bpt>italic<ept i="1">[/i]</ept></hi></hi> done</seg>';
    expect(parseTmx(enc(tmx(`<tu><tuv xml:lang="en">${seg}</tuv></tu>`))).units[0]!.variants[0]!.text).toBe('Bold and [i]italic[/i] done');
  });

  it('gives an empty inline element (tags-only exports) no text, and skips comments inside segments', () => {
    const seg = '<seg>Line one<ph x="1" type="0"/> and <!-- reviewer: check -->two</seg>';
    expect(parseTmx(enc(tmx(`<tu><tuv xml:lang="en">${seg}</tuv></tu>`))).units[0]!.variants[0]!.text).toBe('Line one and two');
  });

  it('collects unit notes then variant notes, leaving blank ones out', () => {
    const body = `<tu tuid="n"><note>unit</note><note>  </note><prop type="x">p</prop>
      <tuv xml:lang="en"><note>about the English</note><seg>a</seg></tuv>
      <tuv xml:lang="de"><prop type="y">q</prop><seg>b</seg></tuv></tu>`;
    expect(parseTmx(enc(tmx(body))).units[0]!.notes).toEqual(['unit', 'about the English']);
  });

  it('keeps a locale that is not a well-formed tag as written, so the importer can name it', () => {
    const doc = parseTmx(enc(tmx('<tu><tuv xml:lang="EN_us"><seg>a</seg></tuv><tuv xml:lang=" DE-de "><seg>b</seg></tuv></tu>', 'EN_us')));
    expect(doc.sourceLocale).toBe('EN_us');
    expect(doc.units[0]!.variants.map((v) => v.locale)).toEqual(['EN_us', 'de-DE']);
  });

  it('accepts version 1.4b and a missing version; an empty body has no units', () => {
    expect(parseTmx(enc(tmx('').replace('version="1.4"', 'version="1.4b"'))).units).toEqual([]);
    expect(parseTmx(enc(tmx('').replace(' version="1.4"', ''))).units).toEqual([]);
  });
});

describe('parseTmx errors name line and column', () => {
  it('refuses the malformed fixture at its unescaped ampersand', () => {
    const error = parseError(() => parseTmx(fixture('malformed-ampersand.tmx')));
    expect([error.line, error.column]).toEqual([15, 20]);
    expect(error.message).toBe("Expected an entity or character reference after '&' (write a literal '&' as '&amp;') at line 15, column 20");
  });

  it.each<[string, string, string, number, number]>([
    ['another root element', '<xliff version="1.2"/>', 'Expected a <tmx> root element; found <xliff>', 1, 1],
    ['an unsupported version', '<tmx version="2.0"><header/><body/></tmx>', 'Expected TMX version 1.1 to 1.4b; found version "2.0"', 1, 6],
    ['no body', '<tmx version="1.4">\n  <header srclang="en"/>\n</tmx>', 'Expected a <body> in <tmx>', 1, 1],
    ['two headers', '<tmx><header/>\n<header/><body/></tmx>', 'Expected one <header> in <tmx>; found another', 2, 1],
    ['a foreign element in the body', '<tmx><header/><body>\n  <tu><tuv xml:lang="en"><seg>a</seg></tuv></tu>\n  <unit/></body></tmx>', 'Unexpected <unit> in <body>; expected <tu>', 3, 3],
    ['a unit with no variant', '<tmx><header/><body>\n<tu tuid="7">\n<note>n</note></tu></body></tmx>', 'Expected at least one <tuv> in <tu tuid="7">', 2, 1],
    ['a variant without language', '<tmx><header/><body><tu>\n  <tuv><seg>a</seg></tuv></tu></body></tmx>', 'Expected an xml:lang attribute (or TMX 1.1 lang) on <tuv>', 2, 3],
    ['a variant without segment', '<tmx><header/><body><tu>\n <tuv xml:lang="de"><note>x</note></tuv></tu></body></tmx>', 'Expected a <seg> in <tuv xml:lang="de">', 2, 2],
    ['a variant with two segments', '<tmx><header/><body><tu><tuv xml:lang="de"><seg>a</seg>\n<seg>b</seg></tuv></tu></body></tmx>', 'Expected one <seg> in <tuv xml:lang="de">; found another', 2, 1],
    [
      'unescaped markup in a segment',
      '<tmx><header/><body><tu><tuv xml:lang="en">\n<seg>Hello <b>world</b></seg></tuv></tu></body></tmx>',
      'Unexpected <b> in <seg>; expected text or the TMX inline elements <bpt>, <ept>, <it>, <ph>, <hi> or <ut>',
      2,
      12,
    ],
    ['an element inside native code', '<tmx><header/><body><tu><tuv xml:lang="en"><seg><ph><x/></ph></seg></tuv></tu></body></tmx>', 'Unexpected <x> in <ph>; expected its native code as text, or <sub>', 1, 53],
    ['a file cut short', '<tmx><header/><body><tu><tuv xml:lang="en"><seg>a</seg>', "Expected '</tuv>' to close <tuv> (opened at line 1, column 25) before the end of the file", 1, 56],
  ])('refuses %s', (_what, source, message, line, column) => {
    const error = parseError(() => parseTmx(enc(source)));
    expect(error.message).toBe(`${message} at line ${line}, column ${column}`);
    expect([error.line, error.column]).toEqual([line, column]);
  });

  it('refuses bytes that are not UTF-8 or UTF-16', () => {
    const bytes = enc(tmx('<tu><tuv xml:lang="en"><seg>caf_</seg></tuv></tu>'));
    bytes[bytes.indexOf(0x5f)] = 0xe9; // a Latin-1 'é' where UTF-8 was promised
    const error = parseError(() => parseTmx(bytes));
    expect(error.message).toBe('Invalid UTF-8 byte sequence at line 5, column 32');
  });
});

describe('renderTmx', () => {
  const input: TmxExportInput = {
    sourceLocale: 'en',
    units: [
      {
        id: 'checkout.total',
        source: 'Total: <b>{amount}</b> & "tax"',
        targets: [
          { locale: 'de', text: 'Gesamt: <b>{amount}</b> & „Steuer“' },
          { locale: 'fr-CA', text: 'Total : <b>{amount}</b> & « taxe »' },
        ],
        note: 'Shown at checkout > summary',
        created: new Date(Date.UTC(2024, 2, 5, 7, 8, 9, 450)),
      },
      { source: 'Line one\r\nline two', targets: [] },
    ],
  };

  it('writes a TMX 1.4b document with the Parlance header, escaped text and TMX dates', () => {
    expect(renderTmx(input)).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4">
  <header creationtool="Parlance" creationtoolversion="unknown" segtype="sentence" o-tmf="parlance" adminlang="en" srclang="en" datatype="plaintext"/>
  <body>
    <tu tuid="checkout.total" creationdate="20240305T070809Z">
      <note>Shown at checkout &gt; summary</note>
      <tuv xml:lang="en"><seg>Total: &lt;b&gt;{amount}&lt;/b&gt; &amp; &quot;tax&quot;</seg></tuv>
      <tuv xml:lang="de"><seg>Gesamt: &lt;b&gt;{amount}&lt;/b&gt; &amp; „Steuer“</seg></tuv>
      <tuv xml:lang="fr-CA"><seg>Total : &lt;b&gt;{amount}&lt;/b&gt; &amp; « taxe »</seg></tuv>
    </tu>
    <tu>
      <tuv xml:lang="en"><seg>Line one&#13;
line two</seg></tuv>
    </tu>
  </body>
</tmx>
`);
  });

  it('names the tool it is given and escapes attribute values', () => {
    const out = renderTmx({ sourceLocale: 'en', units: [{ id: 'a"b<c>\td', source: 'x', targets: [] }], tool: { name: 'Parlance CLI', version: '1.2.0' } });
    expect(out).toContain('<header creationtool="Parlance CLI" creationtoolversion="1.2.0" ');
    expect(out).toContain('<tu tuid="a&quot;b&lt;c&gt;&#9;d">');
    expect(parseTmx(enc(out)).units[0]!.id).toBe('a"b<c>\td');
  });

  it('reads back to the same pairs, CR included', () => {
    const doc = parseTmx(enc(renderTmx(input)));
    expect(doc.sourceLocale).toBe('en');
    expect(doc.units).toEqual<TmxUnit[]>([
      { id: 'checkout.total', variants: [{ locale: 'en', text: input.units[0]!.source }, ...input.units[0]!.targets], notes: ['Shown at checkout > summary'], line: 5 },
      { variants: [{ locale: 'en', text: 'Line one\r\nline two' }], notes: [], line: 11 },
    ]);
  });

  it('leaves out blank notes and writes characters XML cannot carry as U+FFFD', () => {
    const out = renderTmx({ sourceLocale: 'en', units: [{ source: 'bell\u0007', targets: [{ locale: 'de', text: 'nul\u0000' }], note: ' \n ' }] });
    expect(out).not.toContain('<note>');
    expect(parseTmx(enc(out)).units[0]!.variants.map((v) => v.text)).toEqual(['bell\uFFFD', 'nul\uFFFD']);
  });

  it('refuses a creation date TMX cannot write, naming the unit', () => {
    expect(() => renderTmx({ sourceLocale: 'en', units: [{ id: 'k1', source: 'a', targets: [], created: new Date(Number.NaN) }] })).toThrow(
      new RangeError("Invalid creation date for unit 'k1': expected a date in the years 0000 to 9999, got Invalid Date"),
    );
    expect(() => renderTmx({ sourceLocale: 'en', units: [{ source: 'a', targets: [], created: new Date(Date.UTC(10_000, 0, 1)) }] })).toThrow(
      /^Invalid creation date for a unit without id: expected a date in the years 0000 to 9999, got /,
    );
  });

  it('round-trips any units through parseTmx (property)', () => {
    // XML 1.0's Char production: anything outside it cannot be written and comes back as U+FFFD.
    const notXmlChar = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
    const readable = (s: string): string => s.replace(notXmlChar, '\uFFFD');
    const piece = fc.constantFrom('&', '&amp;', '<b>', '</b>', ']]>', '"', "'", '{name}', '%1$s', '\r\n', '\r', '\n', '\t', '  ', '👋', 'é', '<![CDATA[', '<ph x="1"/>');
    const text = fc.array(fc.oneof(piece, fc.string({ unit: 'binary', maxLength: 5 })), { maxLength: 6 }).map((parts) => parts.join(''));
    const locale = fc.constantFrom('en', 'de', 'fr-FR', 'pt-BR', 'zh-Hant-TW', 'sr-Latn');
    const unit: fc.Arbitrary<TmxExportUnit> = fc.record(
      {
        id: text,
        source: text,
        targets: fc.array(fc.record({ locale, text }), { maxLength: 3 }),
        note: text,
        created: fc.date({ min: new Date(Date.UTC(1990, 0, 1)), max: new Date(Date.UTC(2100, 0, 1)), noInvalidDate: true }),
      },
      { requiredKeys: ['source', 'targets'] },
    );
    fc.assert(
      fc.property(locale, fc.array(unit, { maxLength: 5 }), (sourceLocale, units) => {
        const doc = parseTmx(enc(renderTmx({ sourceLocale, units })));
        expect(doc.sourceLocale).toBe(sourceLocale);
        expect(doc.units.map(({ line: _line, ...rest }) => rest)).toEqual(
          units.map((u) => ({
            ...(u.id === undefined ? {} : { id: readable(u.id) }),
            variants: [{ locale: sourceLocale, text: readable(u.source) }, ...u.targets.map((t) => ({ locale: t.locale, text: readable(t.text) }))],
            notes: u.note !== undefined && u.note.trim() !== '' ? [readable(u.note)] : [],
          })),
        );
      }),
    );
  });
});
