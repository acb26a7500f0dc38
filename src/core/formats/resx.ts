// .NET .resx resource files: string <data> elements read and spliced back, everything else kept byte for byte.
import type { Codec, Entry, FreshEntry, RenderInput } from './codec.js';
import { FileUnparsableError } from './file-unparsable-error.js';
import { textValue } from './values.js';
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
  removalStart,
  scanXml,
  splice,
  textContent,
  type XmlEdit,
  type XmlElement,
} from './xml-scan.js';

/*
 * Only <data> without `type` or `mimetype` is a string: typed data (icons, serialized objects, file references)
 * stays as it is and is no entry. The value is the <value> element's text exactly (XML-decoded; .resx has no escaping
 * of its own), the <comment> element becomes the notes. Removed entries take their whole <data> element.
 */

interface Data {
  el: XmlElement;
  key: string;
  value: XmlElement | undefined;
  comment: XmlElement | undefined;
}

interface Parsed {
  text: string;
  bom: boolean;
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be';
  data: Data[];
}

function parseResx(bytes: Uint8Array): Parsed {
  const { text, bom, encoding } = decodeXml(bytes);
  const doc = scanXml(text);
  const fail: (message: string, at: number) => never = (message, at) => {
    const { line, column } = lineColumn(text, at);
    throw new FileUnparsableError(`${message} at line ${line}, column ${column}`, line, column);
  };
  if (doc.root.name !== 'root') fail(`Expected <root> as the root element of a .resx file, found <${doc.root.name}>`, doc.root.start + 1);
  const data: Data[] = [];
  // One set operation per key: where a repeated name was first defined is looked up only when it happens.
  const seen = new Set<string>();
  for (const el of childElements(doc.root, 'data')) {
    const name = attribute(el, 'name');
    if (!name) fail('Expected a name attribute on <data>', el.start + 1);
    if (attribute(el, 'type') || attribute(el, 'mimetype')) continue;
    const size = seen.size;
    if (seen.add(name.value).size === size) {
      const first = data.find((d) => d.key === name.value)!.el.start;
      fail(`Duplicate <data name="${name.value}"> (first defined at line ${lineColumn(text, first).line})`, el.start);
    }
    const values = childElements(el, 'value');
    if (values.length > 1) fail(`Expected one <value> in <data name="${name.value}">, found another`, values[1]!.start);
    data.push({ el, key: name.value, value: values[0], comment: childElements(el, 'comment')[0] });
  }
  return { text, bom, encoding, data };
}

function toEntries(parsed: Parsed): Entry[] {
  return parsed.data.map((d) => {
    const notes = d.comment ? textContent(d.comment).trim() : '';
    const entry: Partial<Entry> = { key: d.key, path: [d.key], source: d.value ? textContent(d.value) : '' };
    if (notes !== '') entry.notes = notes;
    const { line, column } = lineColumn(parsed.text, d.value ? d.value.openEnd : d.el.openEnd);
    entry.line = line;
    entry.column = column;
    return entry as Entry;
  });
}

function escapeValue(value: string, eol: string): string {
  const escaped = escapeXmlText(value);
  return eol === '\n' ? escaped : escaped.replace(/\n/g, eol);
}

function render(input: RenderInput): Uint8Array {
  const parsed = parseResx(input.source);
  const { text } = parsed;
  const eol = lineEnding(text);
  const edits: XmlEdit[] = [];
  for (const d of parsed.data) {
    const value = input.values.get(d.key);
    if (value === undefined) {
      if (input.missing === 'omit') edits.push({ start: removalStart(text, d.el.start), end: d.el.end, text: '' });
      continue;
    }
    const next = textValue(value, 'resx');
    if (d.value) {
      if (next !== textContent(d.value)) edits.push(contentEdit(text, d.value, escapeValue(next, eol)));
    } else if (next !== '') {
      // <data> without <value>: add one, on its own line like its siblings would be.
      const indent = lineIndent(text, d.el.start);
      const child = `${eol}${indent}${indent || '  '}<value>${escapeValue(next, eol)}</value>`;
      edits.push(d.el.selfClosing ? contentEdit(text, d.el, `${child}${eol}${indent}`) : { start: d.el.openEnd, end: d.el.openEnd, text: child });
    }
  }
  if (edits.length === 0) return input.source.slice();
  return encodeXml(splice(text, edits), parsed.bom, parsed.encoding);
}

const RESX_HEADER = `<?xml version="1.0" encoding="utf-8"?>
<root>
  <xsd:schema id="root" xmlns="" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata">
    <xsd:import namespace="http://www.w3.org/XML/1998/namespace" />
    <xsd:element name="root" msdata:IsDataSet="true">
      <xsd:complexType>
        <xsd:choice maxOccurs="unbounded">
          <xsd:element name="metadata">
            <xsd:complexType>
              <xsd:sequence>
                <xsd:element name="value" type="xsd:string" minOccurs="0" />
              </xsd:sequence>
              <xsd:attribute name="name" use="required" type="xsd:string" />
              <xsd:attribute name="type" type="xsd:string" />
              <xsd:attribute name="mimetype" type="xsd:string" />
              <xsd:attribute ref="xml:space" />
            </xsd:complexType>
          </xsd:element>
          <xsd:element name="assembly">
            <xsd:complexType>
              <xsd:attribute name="alias" type="xsd:string" />
              <xsd:attribute name="name" type="xsd:string" />
            </xsd:complexType>
          </xsd:element>
          <xsd:element name="data">
            <xsd:complexType>
              <xsd:sequence>
                <xsd:element name="value" type="xsd:string" minOccurs="0" msdata:Ordinal="1" />
                <xsd:element name="comment" type="xsd:string" minOccurs="0" msdata:Ordinal="2" />
              </xsd:sequence>
              <xsd:attribute name="name" type="xsd:string" use="required" msdata:Ordinal="1" />
              <xsd:attribute name="type" type="xsd:string" msdata:Ordinal="3" />
              <xsd:attribute name="mimetype" type="xsd:string" msdata:Ordinal="4" />
              <xsd:attribute ref="xml:space" />
            </xsd:complexType>
          </xsd:element>
          <xsd:element name="resheader">
            <xsd:complexType>
              <xsd:sequence>
                <xsd:element name="value" type="xsd:string" minOccurs="0" msdata:Ordinal="1" />
              </xsd:sequence>
              <xsd:attribute name="name" type="xsd:string" use="required" />
            </xsd:complexType>
          </xsd:element>
        </xsd:choice>
      </xsd:complexType>
    </xsd:element>
  </xsd:schema>
  <resheader name="resmimetype">
    <value>text/microsoft-resx</value>
  </resheader>
  <resheader name="version">
    <value>2.0</value>
  </resheader>
  <resheader name="reader">
    <value>System.Resources.ResXResourceReader, System.Windows.Forms, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089</value>
  </resheader>
  <resheader name="writer">
    <value>System.Resources.ResXResourceWriter, System.Windows.Forms, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089</value>
  </resheader>
`;

/** A file as Visual Studio writes it (schema header, resheaders), with LF line ends. */
function renderFresh(entries: readonly FreshEntry[]): Uint8Array {
  let out = RESX_HEADER;
  for (const entry of entries) {
    out += `  <data name="${escapeXmlAttribute(entry.key, '"')}" xml:space="preserve">\n`;
    out += `    <value>${escapeXmlText(textValue(entry.value, 'resx'))}</value>\n`;
    if (entry.notes !== undefined && entry.notes !== '') out += `    <comment>${escapeXmlText(entry.notes)}</comment>\n`;
    out += '  </data>\n';
  }
  return new TextEncoder().encode(`${out}</root>\n`);
}

export const resxCodec: Codec = {
  id: 'resx',
  extensions: ['.resx'],
  plurals: false,
  detect(fileName, head) {
    const looksResx = /<root[\s>]/.test(head) && /microsoft-resx|<resheader|<data\s/.test(head);
    if (/\.resx$/i.test(fileName)) return looksResx || head.trim() === '' ? 0.95 : 0.7;
    return looksResx ? 0.6 : 0;
  },
  parse(bytes) {
    return toEntries(parseResx(bytes));
  },
  render,
  renderFresh,
};
