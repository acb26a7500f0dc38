/** The key extractor (src/core/extract): each library convention, line numbers, dynamic keys, .vue templates, $localize, bounds, the source-file report. */
import { describe, expect, it } from 'vitest';
import { extractKeys, ExtractLimitError } from '../../src/core/extract/extract-keys.js';
import { DEFAULT_EXTRACT_LIMITS } from '../../src/core/extract/extract-limits.js';
import { collectKeys, compareWithSource, keyInSource } from '../../src/core/extract/key-report.js';
import { readSourceFile, withAddedKeys } from '../../src/core/extract/source-file.js';
import { splitVueFile, templateCode } from '../../src/core/extract/vue-file.js';

const one = async (path: string, text: string) => extractKeys([{ path, text }]);
const summary = (uses: { key: string; defaultText?: string; notes?: string; line: number }[]) => uses.map((u) => [u.key, u.defaultText, u.line, ...(u.notes ? [u.notes] : [])]);

describe('i18next', () => {
  it("t('key'), a default as the second argument or as defaultValue, i18n.t and i18next.t, with their lines", async () => {
    const found = await one(
      'src/App.tsx',
      `import { useTranslation } from 'react-i18next';
export function App() {
  const { t } = useTranslation();
  return <p title={t('title')}>
    {t('cart.empty', 'Your cart is empty')}
    {t("checkout", { defaultValue: 'Proceed to checkout', count: 2 })}
    {i18n.t(\`plain.template\`)}
  </p>;
}
i18next.t('outside');
`,
    );
    expect(summary(found.uses)).toEqual([
      ['title', undefined, 4],
      ['cart.empty', 'Your cart is empty', 5],
      ['checkout', 'Proceed to checkout', 6],
      ['plain.template', undefined, 7],
      ['outside', undefined, 10],
    ]);
    expect(found.uses.every((u) => u.convention === 'i18next' && u.file === 'src/App.tsx')).toBe(true);
    expect(found.warnings).toEqual([]);
  });

  it('reports dynamic keys with file:line and does not guess them', async () => {
    const found = await one('src/nav.ts', "const section = 'home';\nt(section);\nt(`nav.${section}`);\nt('nav.' + section);\nt('');\nfoo.t(section);\n");
    expect(found.uses).toEqual([]);
    expect(found.warnings.map((w) => [w.line, w.message.slice(0, 30)])).toEqual([
      [2, 't(…) with a dynamic key: not e'],
      [3, 't(…) with a dynamic key: not e'],
      [4, 't(…) with a dynamic key: not e'],
      [5, 't(…) with a empty key: not ext'],
    ]);
  });

  it('<Trans>: the key, and the children as the default text exactly as react-i18next writes them', async () => {
    const found = await one(
      'src/Greeting.jsx',
      `export const Greeting = ({ name }) => (
  <Trans i18nKey="greeting">
    Hello <strong>{{ name }}</strong>, you have <b>new</b> messages.<br />
    Open <Link to="/inbox">your inbox</Link>{' '}now. <i>Really</i>
  </Trans>
);
const untitled = <Trans>Just text</Trans>;
const withDefaults = <Trans i18nKey="d" defaults="From defaults" />;
const dynamic = <Trans i18nKey={key}>x</Trans>;
`,
    );
    expect(summary(found.uses)).toEqual([
      ['greeting', 'Hello <1>{{name}}</1>, you have <3>new</3> messages.<br/>Open <7>your inbox</7> now. <i>Really</i>', 2],
      // Without an i18nKey, i18next uses the default text as the key.
      ['Just text', 'Just text', 7],
      ['d', 'From defaults', 8],
    ]);
    expect(found.warnings).toEqual([{ file: 'src/Greeting.jsx', line: 9, message: '<Trans> with a dynamic i18nKey: not extracted (only literal keys are).' }]);
  });

  it('keeps a namespace prefix as written, and looks it up without it in that namespace\'s file', async () => {
    const found = await one('src/a.ts', "t('common:title');\nt('other:title');\n");
    expect(found.uses.map((u) => u.key)).toEqual(['common:title', 'other:title']);
    expect(keyInSource('common:title', 'locales/en/common.json')).toBe('title');
    expect(keyInSource('other:title', 'locales/en/common.json')).toBe('other:title');
    const { keys } = collectKeys(found.uses);
    expect(compareWithSource(keys, ['title'], 'locales/en/common.json').missing.map((k) => k.key)).toEqual(['other:title']);
  });
});

describe('react-intl / FormatJS', () => {
  it('defineMessages, defineMessage, formatMessage and <FormattedMessage>, the description as notes', async () => {
    const found = await one(
      'src/messages.tsx',
      `import { defineMessages, defineMessage, FormattedMessage, useIntl } from 'react-intl';
const messages = defineMessages({
  greeting: {
    id: 'app.greeting',
    defaultMessage: 'Hello, {name}!',
    description: 'Greeting on the home page',
  },
  noId: { defaultMessage: 'No id here' },
});
const single = defineMessage({ id: 'app.single', defaultMessage: 'Single', description: { context: 'menu', maxLength: '20' } });
export function Home() {
  const intl = useIntl();
  intl.formatMessage({ id: 'app.title', defaultMessage: 'Title' });
  intl.formatMessage(messages.greeting);
  return <FormattedMessage id="app.bye" defaultMessage="Goodbye" description="Footer" values={{ x: 1 }} />;
}
const computed = <FormattedMessage id={id} />;
`,
    );
    expect(summary(found.uses)).toEqual([
      ['app.greeting', 'Hello, {name}!', 3, 'Greeting on the home page'],
      ['app.single', 'Single', 10, 'context: menu; maxLength: 20'],
      ['app.title', 'Title', 13],
      ['app.bye', 'Goodbye', 15, 'Footer'],
    ]);
    expect(found.uses.every((u) => u.convention === 'react-intl')).toBe(true);
    expect(found.warnings.map((w) => [w.line, w.message.split(':')[0]])).toEqual([
      [8, 'A message of defineMessages without an id'],
      [17, '<FormattedMessage> with a dynamic id'],
    ]);
  });
});

describe('vue-i18n', () => {
  it('reads <script setup>, <script> and every template expression with the file\'s own line numbers', async () => {
    const vue = `<template>
  <div :title="$t('page.title')" v-bind:aria-label="t('page.label')">
    <h1>{{ $t('page.heading', 'Welcome') }}</h1>
    <template v-if="open">
      <p v-t="'page.vt'"></p>
      <p v-t="{ path: 'page.vt.object' }"></p>
    </template>
    <button @click="count++; notify($t('page.clicked'))">{{ $tc('page.items', count) }}</button>
    <li v-for="item in [t('page.list')]" :key="item">{{ item }}</li>
    <!-- {{ $t('in.a.comment') }} -->
    <code v-pre>{{ $t('not.compiled') }}</code>
    <span>{{ t(dynamicKey) }}</span>
  </div>
</template>

<script setup lang="ts">
import { useI18n } from 'vue-i18n';
const { t } = useI18n();
const label: string = t('script.setup');
</script>

<script>
export default { computed: { x() { return this.$t('script.options'); } }, created() { i18n.global.t('script.global'); } };
</script>
`;
    const found = await one('src/components/Page.vue', vue);
    expect(summary(found.uses)).toEqual([
      ['page.title', undefined, 2],
      ['page.label', undefined, 2],
      ['page.heading', 'Welcome', 3],
      ['page.vt', undefined, 5],
      ['page.vt.object', undefined, 6],
      ['page.clicked', undefined, 8],
      ['page.items', undefined, 8],
      ['page.list', undefined, 9],
      ['script.setup', undefined, 19],
      ['script.options', undefined, 23],
      ['script.global', undefined, 23],
    ]);
    expect(found.uses.every((u) => u.convention === 'vue-i18n')).toBe(true);
    expect(found.warnings).toEqual([{ file: 'src/components/Page.vue', line: 12, message: expect.stringContaining('t(…) with a dynamic key') }]);
  });

  it('a template expression that does not parse is a warning at its line, the rest is still read', async () => {
    const found = await one('src/Broken.vue', "<template>\n  <p>{{ $t('ok') }}</p>\n  <p :title=\"$t('a' +)\"></p>\n</template>\n");
    expect(found.uses.map((u) => u.key)).toEqual(['ok']);
    expect(found.warnings).toEqual([{ file: 'src/Broken.vue', line: 3, message: expect.stringContaining('template expression :title="$t(\'a\' +)" not parsed') }]);
  });

  it('splits a file of unclosed tags (`<a <a <a …`, 300 KB) in one pass, not one scan to the end per `<`', async () => {
    const tail = '<a '.repeat(100_000);
    const vue = `<script setup>\nconst title = t('page.tail');\n</script>\n<template>\n  <p :title="$t('page.before')">{{ x }}</p>\n</template>\n${tail}`;
    const parts = splitVueFile(vue);
    expect(parts.scripts).toHaveLength(1);
    expect(parts.template?.content).toBe(`\n  <p :title="$t('page.before')">{{ x }}</p>\n`);
    const { uses } = await extractKeys([{ path: 'src/Tail.vue', text: vue }]);
    expect(uses.map((u) => u.key).sort()).toEqual(['page.before', 'page.tail']);
    // The same inside a template, and an unclosed `<template` there: each scanned once too.
    expect(templateCode(`<p :title="a">${tail}{{ b }}`, 0).map((c) => c.code)).toEqual(['a', ' b ']);
    const nested = '<template '.repeat(30_000);
    expect(splitVueFile(`<template>${nested}`).template?.content).toBe(nested);
  });
});

describe('Angular $localize', () => {
  it('the @@id is the key, the description and meaning the notes, expressions named placeholders', async () => {
    const found = await one(
      'src/app/header.component.ts',
      `@Component({ selector: 'app-header', template: '' })
export class HeaderComponent {
  @Input() name = '';
  title = $localize\`:site header|An introduction header for this sample@@introductionHeader:Hello \${this.name}:userName:, you have \${this.count} new\`;
  plain = $localize\`:@@plain.id:Plain text\`;
  onlyDescription = $localize\`:Shown on the button@@button.save:Save\`;
  escaped = $localize\`:@@time:At 10\\:30\`;
  unkeyed = $localize\`Hello \${this.name}\`;
}
`,
    );
    expect(summary(found.uses)).toEqual([
      ['introductionHeader', 'Hello {userName}, you have {PH_1} new', 4, 'An introduction header for this sample Meaning: site header'],
      ['plain.id', 'Plain text', 5],
      ['button.save', 'Save', 6, 'Shown on the button'],
      ['time', 'At 10:30', 7],
    ]);
    expect(found.warnings).toEqual([{ file: 'src/app/header.component.ts', line: 8, message: expect.stringContaining('$localize`Hello {PH}` without an @@id') }]);
  });
});

describe('bounds and broken files', () => {
  it('skips a file over the size limit and one that cannot be parsed, with a warning each; the others are read', async () => {
    const found = await extractKeys(
      [
        { path: 'src/big.js', text: `t('big');${' '.repeat(2000)}` },
        { path: 'src/broken.ts', text: "t('before');\nconst = ;\n" },
        { path: 'src/ok.js', text: "t('ok');" },
      ],
      { ...DEFAULT_EXTRACT_LIMITS, maxFileBytes: 1000 },
    );
    expect(found.uses.map((u) => u.key)).toEqual(['ok']);
    expect(found).toMatchObject({ files: 1, skipped: 2 });
    expect(found.warnings).toEqual([
      { file: 'src/big.js', line: null, message: expect.stringContaining('skipped: 2009 bytes, over the 1000-byte limit') },
      { file: 'src/broken.ts', line: 2, message: expect.stringContaining('not parsed, skipped') },
    ]);
  });

  it('recovers from what Babel can recover from, and says so', async () => {
    const found = await one('src/dup.js', "let a = 1;\nlet a = 2;\nt('still.read');\n");
    expect(found.uses.map((u) => u.key)).toEqual(['still.read']);
    expect(found.warnings[0]).toMatchObject({ line: 2, message: expect.stringContaining('parsed past a syntax error') });
  });

  it('refuses more files, or more bytes, than one run reads', async () => {
    const files = [{ path: 'a.js', text: "t('a')" }, { path: 'b.js', text: "t('b')" }];
    await expect(extractKeys(files, { ...DEFAULT_EXTRACT_LIMITS, maxFiles: 1 })).rejects.toThrow(ExtractLimitError);
    await expect(extractKeys(files, { ...DEFAULT_EXTRACT_LIMITS, maxTotalBytes: 8 })).rejects.toThrow(/more than 8 bytes together/);
  });

  it('walks deeply nested code; code too deep for the parser is a skipped file, not a crash', async () => {
    const nested = (depth: number) => `${'['.repeat(depth)}t('deep')${']'.repeat(depth)};`;
    expect((await one('src/deep.js', nested(400))).uses.map((u) => u.key)).toEqual(['deep']);
    const tooDeep = await one('src/deeper.js', nested(50_000));
    expect(tooDeep.uses).toEqual([]);
    expect(tooDeep).toMatchObject({ files: 0, skipped: 1, warnings: [{ file: 'src/deeper.js', message: expect.stringContaining('not parsed, skipped') }] });
  });
});

describe('the report', () => {
  it('one entry per key: the first default text, every use, "and N more"; a second default text is reported', async () => {
    const found = await extractKeys([
      { path: 'src/a.ts', text: "t('k', 'First');\nt('k');\n" },
      { path: 'src/b.ts', text: "\n\nt('k', 'Second');" },
    ]);
    const { keys, warnings } = collectKeys(found.uses);
    expect(keys).toEqual([{ key: 'k', defaultText: 'First', context: 'src/a.ts:1 and 2 more', uses: [{ file: 'src/a.ts', line: 1 }, { file: 'src/a.ts', line: 2 }, { file: 'src/b.ts', line: 3 }] }]);
    expect(warnings).toEqual([{ file: 'src/b.ts', line: 3, message: 'key \'k\' has the default text "Second" here and "First" at src/a.ts:1; the first is used.' }]);
  });

  it('missing and unused keys against the source file; adding keys keeps every existing one as it is', () => {
    const bytes = new TextEncoder().encode('{\n  "home": {\n    "title": "A person\'s title"\n  },\n  "old": "Old"\n}\n');
    const source = readSourceFile('locales/en.json', bytes);
    expect(source.format).toBe('json_nested');
    const keys = [
      { key: 'home.title', defaultText: 'Code title', context: 'src/a.ts:1', uses: [] },
      { key: 'home.new', defaultText: 'New', context: 'src/a.ts:2', uses: [] },
    ];
    const { missing, unused } = compareWithSource(keys, [...source.values.keys()], 'locales/en.json');
    expect(missing.map((k) => k.key)).toEqual(['home.new']);
    expect(unused).toEqual(['old']);
    const written = new TextDecoder().decode(withAddedKeys('locales/en.json', bytes, [{ key: 'home.new', text: 'New' }]));
    expect(JSON.parse(written)).toEqual({ home: { title: "A person's title", new: 'New' }, old: 'Old' });
  });

  it('adds keys to a PO file keeping its notes and context, and refuses a format that cannot hold a key as given', () => {
    const po = new TextEncoder().encode('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n#. A note\nmsgctxt "menu"\nmsgid "Open"\nmsgstr "Open"\n');
    const written = withAddedKeys('locales/en.po', po, [{ key: 'New', text: 'New' }], { format: 'po' });
    expect(readSourceFile('locales/en.po', written, { format: 'po' }).entries.map((e) => [e.key, e.source, e.notes, e.context])).toEqual([
      ['menu\u0004Open', 'Open', 'A note', 'menu'],
      ['New', 'New', undefined, undefined],
    ]);
    const json = new TextEncoder().encode('{\n  "a": "A"\n}\n');
    expect(() => withAddedKeys('locales/en.json', json, [{ key: 'b', text: '' }, { key: 'a', text: 'changed' }], { format: 'json' })).toThrow(/Not written/);
  });
});
