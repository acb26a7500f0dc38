// Unit tests for the shared XML scanner: decoding, node spans, entities, well-formedness errors and the writing helpers.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  attribute,
  childElements,
  contentEdit,
  decodeXml,
  encodeXml,
  escapeXmlAttribute,
  escapeXmlText,
  lineColumn,
  lineEnding,
  lineIndent,
  pluralSlotEdits,
  removalStart,
  scanXml,
  splice,
  textContent,
  type XmlElement,
  type XmlNode,
} from '../../src/core/formats/xml-scan.js';
import { parseError } from '../helpers/formats.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

function utf16(text: string, littleEndian: boolean, bom: boolean): Uint8Array {
  const full = bom ? `\uFEFF${text}` : text;
  const out = Buffer.alloc(full.length * 2);
  for (let i = 0; i < full.length; i++) {
    if (littleEndian) out.writeUInt16LE(full.charCodeAt(i), i * 2);
    else out.writeUInt16BE(full.charCodeAt(i), i * 2);
  }
  return new Uint8Array(out);
}

const el = (node: XmlNode | undefined): XmlElement => {
  expect(node?.kind).toBe('element');
  return node as XmlElement;
};

describe('decodeXml / encodeXml', () => {
  it('reads UTF-8 with and without a BOM', () => {
    expect(decodeXml(enc('<a>é</a>'))).toEqual({ text: '<a>é</a>', bom: false, encoding: 'utf-8' });
    expect(decodeXml(enc('\uFEFF<a>é</a>'))).toEqual({ text: '<a>é</a>', bom: true, encoding: 'utf-8' });
  });

  it.each([
    [true, true, 'utf-16le'],
    [false, true, 'utf-16be'],
    [true, false, 'utf-16le'],
    [false, false, 'utf-16be'],
  ] as const)('reads UTF-16 (little endian %s, BOM %s) and writes the same bytes back', (little, bom, encoding) => {
    const text = '<?xml version="1.0" encoding="UTF-16"?>\r\n<a>😀 é</a>\r\n';
    const bytes = utf16(text, little, bom);
    const decoded = decodeXml(bytes);
    expect(decoded).toEqual({ text, bom, encoding });
    expect(Buffer.from(encodeXml(decoded.text, decoded.bom, decoded.encoding))).toEqual(Buffer.from(bytes));
  });

  it('recognises UTF-16 without a BOM or declaration from the first character', () => {
    expect(decodeXml(utf16('<a>x</a>', true, false))).toEqual({ text: '<a>x</a>', bom: false, encoding: 'utf-16le' });
    expect(decodeXml(utf16('<a>x</a>', false, false))).toEqual({ text: '<a>x</a>', bom: false, encoding: 'utf-16be' });
  });

  it('round-trips UTF-8 bytes exactly', () => {
    const bytes = enc('\uFEFF<?xml version="1.0"?>\r\n<a b="ü">🚀</a>');
    const { text, bom, encoding } = decodeXml(bytes);
    expect(Buffer.from(encodeXml(text, bom, encoding))).toEqual(Buffer.from(bytes));
  });

  it('reports invalid UTF-8 with its line and column', () => {
    const bytes = new Uint8Array([...enc('<a>\n  é'), 0xc3, 0x28, ...enc('</a>')]);
    const error = parseError(() => decodeXml(bytes));
    expect(error.message).toBe('Invalid UTF-8 byte sequence at line 2, column 4');
    expect([error.line, error.column]).toEqual([2, 4]);
  });

  it('reports unpaired surrogates and odd lengths in UTF-16', () => {
    const lone = utf16('<a>\nx\uD800</a>', true, true);
    expect(parseError(() => decodeXml(lone)).message).toBe('Unpaired UTF-16 surrogate at line 2, column 2');
    const odd = new Uint8Array([...utf16('<a/>', true, true), 0x41]);
    expect(parseError(() => decodeXml(odd)).message).toBe('The file ends in the middle of a UTF-16 character at line 1, column 5');
  });

  it('refuses encodings it cannot write back', () => {
    const error = parseError(() => decodeXml(enc('<?xml version="1.0" encoding="ISO-8859-1"?>\n<a/>')));
    expect(error.message).toBe("Unsupported encoding 'ISO-8859-1'; expected UTF-8 or UTF-16 at line 1, column 31");
    expect(decodeXml(enc("<?xml version='1.0' encoding='us-ascii'?><a/>")).encoding).toBe('utf-8');
  });
});

describe('scanXml', () => {
  it('keeps the prolog, comments and whitespace at the top level with spans', () => {
    const text =
      '<?xml version="1.0" encoding="UTF-8"?>\n<!-- head -->\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0"/>\n<!-- tail -->\n';
    const doc = scanXml(text);
    expect(doc.nodes.map((n) => n.kind)).toEqual(['pi', 'text', 'comment', 'text', 'doctype', 'text', 'element', 'text', 'comment', 'text']);
    for (const n of doc.nodes) expect(n.start).toBeLessThan(n.end);
    expect(doc.nodes.map((n) => text.slice(n.start, n.end)).join('')).toBe(text);
    expect(doc.nodes[0]).toMatchObject({ kind: 'pi', raw: '<?xml version="1.0" encoding="UTF-8"?>', line: 1, column: 1 });
    expect(doc.nodes[2]).toMatchObject({ kind: 'comment', value: ' head ', line: 2, column: 1 });
    expect(doc.nodes[4]).toMatchObject({ kind: 'doctype', line: 3, column: 1 });
    expect(doc.root).toMatchObject({ name: 'plist', selfClosing: true, line: 4, column: 1 });
    expect(doc.root.closeStart).toBe(doc.root.end);
    expect(doc.root.openEnd).toBe(doc.root.end);
  });

  it('gives elements their start, open end, close start and end', () => {
    const text = '<r>\n  <s name="a">Hi <b>you</b></s>\n</r>';
    const doc = scanXml(text);
    const s = el(doc.root.children[1]);
    expect(text.slice(s.start, s.openEnd)).toBe('<s name="a">');
    expect(text.slice(s.openEnd, s.closeStart)).toBe('Hi <b>you</b>');
    expect(text.slice(s.closeStart, s.end)).toBe('</s>');
    expect([s.line, s.column]).toEqual([2, 3]);
    expect(s.children.map((n) => n.kind)).toEqual(['text', 'element']);
    expect(textContent(s)).toBe('Hi you');
    expect(text.slice(doc.root.closeStart, doc.root.end)).toBe('</r>');
  });

  it('reads attributes in both quote styles with raw spans and decoded values', () => {
    const text = `<a x="1 &amp; 2" y='say "hi"' z = "it&apos;s&#10;&#x41;" w="tab\there\r\nnext"/>`;
    const a = scanXml(text).root;
    expect(a.attributes.map((x) => [x.name, x.value, x.quote])).toEqual([
      ['x', '1 & 2', '"'],
      ['y', 'say "hi"', "'"],
      ['z', "it's\nA", '"'],
      ['w', 'tab here next', '"'],
    ]);
    const z = attribute(a, 'z')!;
    expect(text.slice(z.start, z.end)).toBe('z = "it&apos;s&#10;&#x41;"');
    expect(text.slice(z.valueStart, z.valueEnd)).toBe('it&apos;s&#10;&#x41;');
    expect(attribute(a, 'missing')).toBeUndefined();
  });

  it('decodes entities and character references in text, keeping the raw text', () => {
    const doc = scanXml('<a>&lt;b&gt; &amp; &quot;&apos; &#233;&#xE9; &#x1F680;</a>');
    const text = doc.root.children[0]!;
    expect(text).toMatchObject({ kind: 'text', raw: '&lt;b&gt; &amp; &quot;&apos; &#233;&#xE9; &#x1F680;', value: `<b> & "' éé 🚀` });
  });

  it('honours plain-text entities declared in the internal subset', () => {
    const doc = scanXml('<!DOCTYPE r [\n  <!ENTITY app "Parlance &#169;">\n  <!-- ] inside a comment -->\n]>\n<r>&app;</r>');
    expect(textContent(doc.root)).toBe('Parlance ©');
    expect(doc.nodes[0]).toMatchObject({ kind: 'doctype' });
  });

  it('reads CDATA sections verbatim', () => {
    const doc = scanXml('<a>x<![CDATA[<b>&amp;</b> ]] ]>]]>y</a>');
    expect(doc.root.children.map((n) => n.kind)).toEqual(['text', 'cdata', 'text']);
    expect(doc.root.children[1]).toMatchObject({ kind: 'cdata', value: '<b>&amp;</b> ]] ]>', start: 4 });
    expect(textContent(doc.root)).toBe('x<b>&amp;</b> ]] ]>y');
  });

  it('keeps comments and processing instructions inside elements', () => {
    const doc = scanXml('<a><!-- note --><?php echo 1; ?><b/></a>');
    expect(doc.root.children).toMatchObject([
      { kind: 'comment', value: ' note ' },
      { kind: 'pi', raw: '<?php echo 1; ?>' },
      { kind: 'element', name: 'b' },
    ]);
  });

  it('keeps qualified names and checks their prefixes are declared', () => {
    const doc = scanXml(
      '<resources xmlns:tools="http://schemas.android.com/tools" xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2"><string tools:ignore="x">A <xliff:g id="n">%d</xliff:g></string></resources>',
    );
    const s = childElements(doc.root, 'string')[0]!;
    expect(attribute(s, 'tools:ignore')?.value).toBe('x');
    expect(childElements(s).map((e) => e.name)).toEqual(['xliff:g']);
    expect(textContent(s)).toBe('A %d');
    expect(scanXml('<a xml:space="preserve"/>').root.attributes[0]?.name).toBe('xml:space');
    expect(scanXml('<p:a xmlns:p="urn:x"><p:b/></p:a>').root.name).toBe('p:a');
  });

  it('normalises line ends in values but keeps raw text and counts CRLF as one line end', () => {
    const text = '<a>\r\n  one\r\n  two\rthree\r\n  <b/>&#13;</a>';
    const doc = scanXml(text);
    expect(doc.root.children[0]).toMatchObject({ kind: 'text', value: '\n  one\n  two\nthree\n  ' });
    expect(el(doc.root.children[1])).toMatchObject({ name: 'b', line: 5, column: 3 });
    expect(doc.root.children[2]).toMatchObject({ kind: 'text', value: '\r', raw: '&#13;' });
  });

  it('counts columns in code points', () => {
    const doc = scanXml('<a>😀😀<b/></a>');
    expect(el(doc.root.children[1])).toMatchObject({ line: 1, column: 6 });
  });

  it('positions every node as lineColumn does, whatever holds the first surrogate pair or CR', () => {
    // Columns are found by subtraction until the scan meets a surrogate pair or a CR: each place one can hide.
    const pieces = ['<b x="😀"/>', '<b>t😀t</b>', '<!-- 😀 -->', '<![CDATA[😀]]>', '<?pi 😀?>', '<é😀/>', '&#x1F600;', '\r\n', '\r', '\n  ', 'plain', '<c/>'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 10 }), (parts) => {
        const text = `<r>\n${parts.join('')}\n  <z/></r>`;
        const positions: [number, number, number][] = [];
        const walk = (node: XmlNode): void => {
          positions.push([node.start, node.line, node.column]);
          if (node.kind === 'element') node.children.forEach(walk);
        };
        scanXml(text).nodes.forEach(walk);
        expect(positions).toEqual(positions.map(([start]) => [start, lineColumn(text, start).line, lineColumn(text, start).column]));
      }),
    );
  });

  it('accepts a BOM left in the text', () => {
    expect(scanXml('\uFEFF<?xml version="1.0"?><a/>').root.name).toBe('a');
  });

  it('filters child elements by name', () => {
    const doc = scanXml('<r><a/><b/><a>x</a>text</r>');
    expect(childElements(doc.root).map((e) => e.name)).toEqual(['a', 'b', 'a']);
    expect(childElements(doc.root, 'a')).toHaveLength(2);
  });

  describe('malformed input', () => {
    it.each([
      ['<a><b></a>', "Expected '</b>' to close <b> (opened at line 1, column 4); found '</a>' at line 1, column 7", 1, 7],
      ['<a>\n  <b>\n</a>', "Expected '</b>' to close <b> (opened at line 2, column 3); found '</a>' at line 3, column 1", 3, 1],
      ['<a>\n  <b>x</b>', "Expected '</a>' to close <a> (opened at line 1, column 1) before the end of the file at line 2, column 11", 2, 11],
      ['<a/></a>', 'Unexpected end tag </a>: no element is open at line 1, column 5', 1, 5],
      ['<a>&nbsp;</a>', "Unknown entity '&nbsp;'; expected &amp; &lt; &gt; &quot; &apos; or a character reference at line 1, column 4", 1, 4],
      ['<a>Fish & chips</a>', "Expected an entity or character reference after '&' (write a literal '&' as '&amp;') at line 1, column 9", 1, 9],
      ['<a>&#0;</a>', "Character reference '&#0;' is not a character XML allows at line 1, column 4", 1, 4],
      ['<a>&#xD800;</a>', "Character reference '&#xD800;' is not a character XML allows at line 1, column 4", 1, 4],
      ['<a x="1 < 2"/>', "'<' is not allowed in an attribute value (write it as '&lt;') at line 1, column 9", 1, 9],
      ['<a x="1" x="2"/>', "Attribute 'x' appears twice on <a> at line 1, column 10", 1, 10],
      ['<a x=1/>', "Expected a quoted value for the attribute 'x' at line 1, column 6", 1, 6],
      ['<a x/>', "Expected '=' after the attribute name 'x' at line 1, column 5", 1, 5],
      ['<a x="1"y="2"/>', "Expected whitespace, '>' or '/>' in the start tag <a> at line 1, column 9", 1, 9],
      ['<a x="1', "Expected \" to close the value of the attribute 'x' at line 1, column 8", 1, 8],
      ['<a', "Expected '>' to close the start tag <a> at line 1, column 3", 1, 3],
      ['<a/>\ntext', 'Expected nothing but whitespace and comments after the root element </a> at line 2, column 1', 2, 1],
      ['<a/><b/>', 'Expected a single root element; found another element after </a> at line 1, column 5', 1, 5],
      ['hello<a/>', "Expected the root element ('<'); text is not allowed before it at line 1, column 1", 1, 1],
      ['', 'Expected a root element; the file has none at line 1, column 1', 1, 1],
      ['<?xml version="1.0"?>\n<!-- only -->\n', 'Expected a root element; the file has none at line 3, column 1', 3, 1],
      ['<a><!-- a -- b --></a>', "'--' is not allowed inside a comment at line 1, column 11", 1, 11],
      ['<a><!-- open</a>', "Expected '-->' to close the comment at line 1, column 17", 1, 17],
      ['<a><![CDATA[x</a>', "Expected ']]>' to close the CDATA section at line 1, column 18", 1, 18],
      ['<![CDATA[x]]><a/>', 'A CDATA section is only allowed inside the root element at line 1, column 1', 1, 1],
      ['<a>x ]]> y</a>', "']]>' is not allowed in text; write it as ']]&gt;' at line 1, column 6", 1, 6],
      ['\n<?xml version="1.0"?><a/>', 'The XML declaration (<?xml ...?>) is only allowed at the very start of the file at line 2, column 1', 2, 1],
      ['<?xml encoding="UTF-8"?><a/>', 'Malformed XML declaration; expected <?xml version="1.0" encoding="..."?> at line 1, column 1', 1, 1],
      ['<a><?XML x?></a>', "The processing instruction target 'XML' is reserved at line 1, column 4", 1, 4],
      ['<a><?pi x</a>', "Expected '?>' to close the processing instruction at line 1, column 14", 1, 14],
      ['<a/><!DOCTYPE a>', 'A DOCTYPE is only allowed before the root element at line 1, column 5', 1, 5],
      ['<!DOCTYPE a [ <!ENTITY x "y"> <a/>', "Expected ']' to close the DOCTYPE's internal subset at line 1, column 35", 1, 35],
      ['<a>\u0001</a>', 'Character U+0001 is not allowed in XML at line 1, column 4', 1, 4],
      ['<a>ok\r\n\uFFFF</a>', 'Character U+FFFF is not allowed in XML at line 2, column 1', 2, 1],
      ['<1a/>', "Expected an element name after '<' at line 1, column 2", 1, 2],
      ['<a></ a>', "Expected an element name after '</' at line 1, column 6", 1, 6],
      ['<a></a x>', "Expected '>' to close the end tag </a> at line 1, column 8", 1, 8],
      ['<a><!ELEMENT a></a>', "Expected a comment ('<!--'), CDATA section or DOCTYPE after '<!' at line 1, column 4", 1, 4],
      ['<x:a/>', "Namespace prefix 'x' of element 'x:a' is not declared (expected an xmlns:x attribute) at line 1, column 2", 1, 2],
      ['<a><b y:z="1"/></a>', "Namespace prefix 'y' of attribute 'y:z' is not declared (expected an xmlns:y attribute) at line 1, column 7", 1, 7],
      ['<a:b:c xmlns:a="u"/>', "Element 'a:b:c' is not a valid qualified name at line 1, column 2", 1, 2],
      ['<r>\r\n  <s>😀</t>', "Expected '</s>' to close <s> (opened at line 2, column 3); found '</t>' at line 2, column 7", 2, 7],
    ])('%j → %s', (input, message, line, column) => {
      const error = parseError(() => scanXml(input));
      expect(error.message).toBe(message);
      expect([error.line, error.column]).toEqual([line, column]);
    });

    it('refuses elements nested absurdly deep instead of overflowing', () => {
      expect(parseError(() => scanXml('<a>'.repeat(600) + '</a>'.repeat(600))).message).toMatch(/^Elements are nested more than 512 levels deep at line 1, column 1537$/);
    });
  });
});

describe('lineColumn', () => {
  it('counts LF, CRLF and lone CR as one line end each and columns in code points', () => {
    const text = 'ab\ncd\r\nef\rg😀h';
    expect(lineColumn(text, 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn(text, 4)).toEqual({ line: 2, column: 2 });
    expect(lineColumn(text, 6)).toEqual({ line: 2, column: 3 });
    expect(lineColumn(text, 7)).toEqual({ line: 3, column: 1 });
    expect(lineColumn(text, 10)).toEqual({ line: 4, column: 1 });
    expect(lineColumn(text, 13)).toEqual({ line: 4, column: 3 });
    expect(lineColumn(text, text.length)).toEqual({ line: 4, column: 4 });
    // Out of order queries and a different text give fresh answers.
    expect(lineColumn(text, 1)).toEqual({ line: 1, column: 2 });
    expect(lineColumn('x\ny', 2)).toEqual({ line: 2, column: 1 });
  });
});

describe('escaping', () => {
  it('escapes text so that it reads back as written', () => {
    expect(escapeXmlText('a < b && c > d ]]> "q" \'s\'')).toBe('a &lt; b &amp;&amp; c &gt; d ]]&gt; "q" \'s\'');
    expect(escapeXmlText('line\r\nnext')).toBe('line&#13;\nnext');
    expect(escapeXmlText('bad\u0001\uFFFE')).toBe('bad\uFFFD\uFFFD');
  });

  it('escapes attributes for their quote', () => {
    expect(escapeXmlAttribute(`a "b" 'c' & <d>\n\t\r`, '"')).toBe(`a &quot;b&quot; 'c' &amp; &lt;d>&#10;&#9;&#13;`);
    expect(escapeXmlAttribute(`a "b" 'c'`, "'")).toBe(`a "b" &apos;c&apos;`);
  });

  const xmlChar = fc
    .string({ unit: 'grapheme', maxLength: 30 })
    // eslint-disable-next-line no-control-regex -- the characters XML 1.0 cannot carry
    .map((s) => s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, ''));
  const tricky = fc.array(fc.constantFrom('<', '>', '&', '"', "'", ']]>', '\r\n', '\r', '\n', '\t', '&amp;', '😀', 'עברית', ' '), { maxLength: 8 });
  const value = fc.tuple(xmlChar, tricky).map(([a, b]) => a + b.join('') + a);

  it('round-trips any text value and attribute through the scanner', () => {
    fc.assert(
      fc.property(value, value, fc.constantFrom('"' as const, "'" as const), (text, attr, quote) => {
        const doc = scanXml(`<a v=${quote}${escapeXmlAttribute(attr, quote)}${quote}>${escapeXmlText(text)}</a>`);
        expect(textContent(doc.root)).toBe(text);
        expect(doc.root.attributes[0]?.value).toBe(attr);
      }),
      { numRuns: 200 },
    );
  });
});

describe('splice', () => {
  it('applies edits given in any order, including insertions', () => {
    expect(splice('0123456789', [
      { start: 7, end: 9, text: 'X' },
      { start: 0, end: 1, text: '' },
      { start: 3, end: 3, text: '+' },
    ])).toBe('12+3456X9');
    expect(splice('abc', [])).toBe('abc');
  });

  it('refuses overlapping edits', () => {
    expect(() => splice('abcdef', [{ start: 1, end: 4, text: '' }, { start: 3, end: 5, text: '' }])).toThrow(/overlaps/);
  });
});

describe('layout helpers', () => {
  it('finds indentation, line ends and where a removed line starts', () => {
    const text = '<r>\r\n\t\t<a/> <b/>\n  <c/></r>';
    expect(lineIndent(text, text.indexOf('<a'))).toBe('\t\t');
    expect(lineIndent(text, text.indexOf('<b'))).toBe('');
    expect(removalStart(text, text.indexOf('<a'))).toBe(3);
    expect(removalStart(text, text.indexOf('<b'))).toBe(text.indexOf('<b') - 1);
    expect(removalStart(text, text.indexOf('<c'))).toBe(text.indexOf('\n  <c'));
    expect(lineEnding(text)).toBe('\r\n');
    expect(lineEnding('<a/>\n')).toBe('\n');
    expect(lineEnding('<a/>')).toBe('\n');
  });

  it('replaces element content, expanding self-closing tags', () => {
    const text = '<r><a>old</a><b /></r>';
    const [a, b] = childElements(scanXml(text).root);
    expect(splice(text, [contentEdit(text, a!, 'new'), contentEdit(text, b!, 'x')])).toBe('<r><a>new</a><b >x</b></r>');
  });

  describe('pluralSlotEdits', () => {
    const text = '<p>\n    <i q="one">1</i>\n    <i q="other">n</i>\n</p>';
    const slots = childElements(scanXml(text).root).map((el) => ({ category: attribute(el, 'q')!.value, start: el.start, end: el.end }));
    const make = (c: string): string => `<i q="${c}">${c}</i>`;
    const apply = (categories: string[]): string => splice(text, pluralSlotEdits(text, slots, categories, make)!);

    it('inserts categories next to their CLDR neighbours with the existing separator', () => {
      expect(apply(['zero', 'one', 'two', 'few', 'many', 'other'])).toBe(
        '<p>\n    <i q="zero">zero</i>\n    <i q="one">1</i>\n    <i q="two">two</i>\n    <i q="few">few</i>\n    <i q="many">many</i>\n    <i q="other">n</i>\n</p>',
      );
    });

    it('removes categories with their line', () => {
      expect(apply(['other'])).toBe('<p>\n    <i q="other">n</i>\n</p>');
      expect(apply(['one', 'few', 'other'])).toBe('<p>\n    <i q="one">1</i>\n    <i q="few">few</i>\n    <i q="other">n</i>\n</p>');
    });

    it('replaces every slot when none is kept, and leaves an empty container to the caller', () => {
      expect(apply(['few'])).toBe('<p>\n    <i q="few">few</i>\n</p>');
      expect(pluralSlotEdits(text, [], ['one'], make)).toBeUndefined();
      expect(pluralSlotEdits(text, [], [], make)).toEqual([]);
    });
  });
});
