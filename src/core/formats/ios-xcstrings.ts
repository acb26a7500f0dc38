// The `ios_xcstrings` codec: Xcode String Catalogs, read from the source language and rendered by writing one language's localizations in place.
import { type Codec, type Entry, type FreshEntry } from './codec.js';
import { encodeUtf8 } from './json-scan.js';
import { readSourceEntries } from './ios-xcstrings-catalog.js';
import { partFor, serialize, translatedStates, XCODE_STYLE, type Desired } from './ios-xcstrings-merge.js';
import { render } from './ios-xcstrings-render.js';

export { readXcstringsLocale } from './ios-xcstrings-catalog.js';

export const iosXcstringsCodec: Codec = {
  id: 'ios_xcstrings',
  extensions: ['.xcstrings'],
  plurals: true,

  detect(fileName: string, head: string): number {
    const catalogLike = /"sourceLanguage"\s*:/.test(head) && /"strings"\s*:/.test(head);
    if (/\.xcstrings$/i.test(fileName)) return head.replace(/^\uFEFF/, '').trimStart().startsWith('{') ? 1 : 0.6;
    return catalogLike ? 0.7 : 0;
  },

  parse(bytes: Uint8Array): Entry[] {
    return readSourceEntries(bytes);
  },

  render,

  renderFresh(entries: readonly FreshEntry[], options?: { locale?: string }): Uint8Array {
    const locale = options?.locale ?? 'en';
    // A repeated key keeps its first position and its last value and notes.
    const byKey = new Map<string, FreshEntry>();
    for (const entry of entries) byKey.set(entry.key, entry);
    const strings = [...byKey.values()].map((entry): [string, Desired] => {
      const value = typeof entry.value === 'string' ? entry.value : entry.value.plurals;
      const members: [string, Desired][] = [];
      if (entry.notes) members.push(['comment', { kind: 'string', value: entry.notes }]);
      members.push(['extractionState', { kind: 'string', value: 'manual' }]);
      members.push(['localizations', { kind: 'object', members: [[locale, { kind: 'object', members: partFor(value, translatedStates(value), 'translated') }]] }]);
      return [entry.key, { kind: 'object', members }];
    });
    const root: Desired = {
      kind: 'object',
      ordered: true,
      members: [
        ['sourceLanguage', { kind: 'string', value: locale }],
        ['strings', { kind: 'object', ordered: true, members: strings }],
        ['version', { kind: 'string', value: '1.0' }],
      ],
    };
    return encodeUtf8(`${serialize(root, '', XCODE_STYLE)}\n`, false);
  },
};
