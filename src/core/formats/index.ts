// Registry of the file-format codecs implemented so far, looked up by format id.
import { FORMAT_IDS, type Codec, type FormatId } from './codec.js';
import { jsonCodec } from './json.js';
import { jsonNestedCodec } from './json-nested.js';

export * from './codec.js';
export { jsonCodec } from './json.js';
export { jsonNestedCodec } from './json-nested.js';

const CODECS: ReadonlyMap<FormatId, Codec> = new Map([jsonCodec, jsonNestedCodec].map((codec) => [codec.id, codec]));

/** Implemented format ids, in FORMAT_IDS order. */
export const IMPLEMENTED_FORMATS: FormatId[] = FORMAT_IDS.filter((id) => CODECS.has(id));

export function getCodec(id: FormatId): Codec | undefined {
  return CODECS.get(id);
}

const FORMAT_ID_SET: ReadonlySet<string> = new Set(FORMAT_IDS);

export function isFormatId(s: string): s is FormatId {
  return FORMAT_ID_SET.has(s);
}
