// Regenerates src/core/locales/known-locales.json from the CLDR data in the cldr-core devDependency.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cldrDir = new URL('../node_modules/cldr-core/', import.meta.url);
const outFile = fileURLToPath(new URL('../src/core/locales/known-locales.json', import.meta.url));

// `und`/`root` name CLDR's inheritance root, not a locale anyone translates into.
const DROPPED = new Set(['und', 'root']);

function readJson<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(name, cldrDir), 'utf8')) as T;
}

const { version } = readJson<{ version: string }>('package.json');
const { full } = readJson<{ availableLocales: { full: string[] } }>('availableLocales.json').availableLocales;
// `full` lists only locales with their own data file; default-content locales such as en-US, de-DE
// and ja-JP share their parent's data, so without them the most common tags would count as unknown.
const { defaultContent } = readJson<{ defaultContent: string[] }>('defaultContent.json');

const tags = new Set<string>();
const rejected: string[] = [];
for (const tag of [...full, ...defaultContent]) {
  if (DROPPED.has(tag)) continue;
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    if (canonical) tags.add(canonical);
  } catch {
    rejected.push(tag);
  }
}

// A CLDR tag the runtime cannot parse would silently vanish from the table; make a human decide.
if (rejected.length > 0) {
  console.error(`Intl.getCanonicalLocales rejected CLDR tags: ${rejected.join(', ')}`);
  process.exit(1);
}

// Code-unit order, not localeCompare, so the output is identical on every machine.
const sorted = [...tags].sort();
writeFileSync(outFile, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(
  `cldr-core ${version}: ${full.length} full + ${defaultContent.length} default-content tags -> ${sorted.length} locales written to ${outFile}`,
);
