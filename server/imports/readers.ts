/** Each platform's reader, loaded when an import of that platform runs (the others are never loaded). */
import type { PlatformId, PlatformReader } from './import-model.js';

const READERS: Record<PlatformId, () => Promise<PlatformReader>> = {
  crowdin: async () => (await import('./platforms/crowdin.js')).crowdinReader,
  lokalise: async () => (await import('./platforms/lokalise.js')).lokaliseReader,
  phrase: async () => (await import('./platforms/phrase.js')).phraseReader,
  transifex: async () => (await import('./platforms/transifex.js')).transifexReader,
  tolgee: async () => (await import('./platforms/tolgee.js')).tolgeeReader,
  poeditor: async () => (await import('./platforms/poeditor.js')).poeditorReader,
};

export const platformReader = (platform: PlatformId): Promise<PlatformReader> => READERS[platform]();
