// Registry of the file-format codecs, looked up by format id or detected from a file's name and first bytes.
import { FORMAT_IDS, type Codec, type FormatId } from './codec.js';
import { jsonCodec } from './json.js';
import { jsonNestedCodec } from './json-nested.js';
import { androidXmlCodec } from './android-xml.js';
import { arbCodec } from './arb.js';
import { csvCodec } from './csv.js';
import { iosStringsCodec } from './ios-strings.js';
import { iosStringsdictCodec } from './ios-stringsdict.js';
import { iosXcstringsCodec } from './ios-xcstrings.js';
import { laravelJsonCodec } from './laravel-json.js';
import { laravelPhpCodec } from './laravel-php.js';
import { markdownCodec } from './markdown.js';
import { poCodec } from './po.js';
import { propertiesCodec } from './properties.js';
import { resxCodec } from './resx.js';
import { unityCsvCodec } from './unity-csv.js';
import { unrealPoCodec } from './unreal-po.js';
import { xlsxCodec } from './xlsx.js';
import { xliff12Codec } from './xliff12.js';
import { xliff2Codec } from './xliff2.js';
import { yamlCodec } from './yaml.js';

export * from './codec.js';
export { jsonCodec } from './json.js';
export { jsonNestedCodec } from './json-nested.js';

const CODECS: ReadonlyMap<FormatId, Codec> = new Map(
  [jsonCodec, jsonNestedCodec, laravelPhpCodec, laravelJsonCodec, androidXmlCodec, iosStringsCodec, iosStringsdictCodec, iosXcstringsCodec, arbCodec, xliff12Codec, xliff2Codec, poCodec, yamlCodec, csvCodec, xlsxCodec, propertiesCodec, resxCodec, markdownCodec, unityCsvCodec, unrealPoCodec].map((codec) => [codec.id, codec]),
);

/** Implemented format ids, in FORMAT_IDS order. */
export const IMPLEMENTED_FORMATS: FormatId[] = FORMAT_IDS.filter((id) => CODECS.has(id));

export function getCodec(id: FormatId): Codec | undefined {
  return CODECS.get(id);
}

const FORMAT_ID_SET: ReadonlySet<string> = new Set(FORMAT_IDS);

export function isFormatId(s: string): s is FormatId {
  return FORMAT_ID_SET.has(s);
}

const HEAD_BYTES = 4096;

/** The first bytes of a file as text, honouring a UTF-16 byte-order mark, for the codecs' cheap detection. */
function headOf(bytes: Uint8Array): string {
  const head = bytes.subarray(0, HEAD_BYTES);
  const encoding = head[0] === 0xff && head[1] === 0xfe ? 'utf-16le' : head[0] === 0xfe && head[1] === 0xff ? 'utf-16be' : 'utf-8';
  return new TextDecoder(encoding).decode(head);
}

/** The format a file most likely is, by its name and content; undefined when no codec recognises it. */
export function detectFormat(fileName: string, bytes: Uint8Array): FormatId | undefined {
  const head = headOf(bytes);
  let best: { id: FormatId; score: number } | undefined;
  for (const codec of CODECS.values()) {
    const score = codec.detect(fileName, head);
    if (score > 0 && (!best || score > best.score)) best = { id: codec.id, score };
  }
  return best?.id;
}
