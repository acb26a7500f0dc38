/**
 * Miro as an import-only design connector (REST API v2): the text of every non-empty text item, sticky note and shape
 * on the configured boards is a source string, one unit per board, keyed by the item's id (stable while the item
 * exists, wherever it is moved); the board and the frame the item sits in are the context, and its width is a length
 * hint in the notes. Miro's rich text becomes plain text, since nothing is written back (the connector reads with
 * boards:read only): translations stay in Parlance. Miro's webhooks (experimental board subscriptions) take no secret
 * to sign with, so syncs run on the schedule.
 */
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, Listing, RemoteString, StringUnit } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure } from '../connector-http.js';
import { charsPerPxSetting } from '../design-hints.js';

/** The item types that hold translatable text (their `data.content`). Frames are read too, for their titles only. */
const TEXT_TYPES = ['text', 'sticky_note', 'shape'] as const;
type TextType = (typeof TEXT_TYPES)[number];

/** Miro's largest page (`limit` 10–50), and how many pages of one item type a board may have (10,000 items). */
const PAGE_SIZE = 50;
const MAX_PAGES = 200;

const settings = z
  .object({
    api_url: z.string().url().default('https://api.miro.com').openapi({ description: 'Miro REST API base URL. Default `https://api.miro.com`.' }),
    board_ids: z
      .array(z.string().regex(/^[A-Za-z0-9_\-+=]{6,64}$/, "a Miro board id: the part after /app/board/ in the board's URL, such as 'uXjVOD6LSME='"))
      .min(1)
      .openapi({ description: "The boards to translate, by id: `https://miro.com/app/board/<id>/`. Each is one path in Parlance." }),
    item_types: z
      .array(z.enum(TEXT_TYPES))
      .min(1)
      .default([...TEXT_TYPES])
      .openapi({ description: 'The item types to read: `text`, `sticky_note`, `shape`. Default all three.' }),
    chars_per_px: charsPerPxSetting,
  })
  .strict();

const secrets = z
  .object({
    access_token: z.string().min(1).openapi({ description: "An OAuth access token of a Miro app with the scope boards:read, of a user who can open the boards; sent as a Bearer token." }),
  })
  .strict();

export type MiroSettings = z.infer<typeof settings>;
export type MiroSecrets = z.infer<typeof secrets>;
type Ctx = ConnectorContext<MiroSettings, MiroSecrets>;

interface MiroItem {
  id: string;
  type: string;
  data?: { content?: string; title?: string; shape?: string } | null;
  geometry?: { width?: number; height?: number } | null;
  parent?: { id?: string } | null;
}
interface ItemsPage {
  data: MiroItem[];
  cursor?: string;
  size?: number;
  total?: number;
}
interface MiroBoard {
  id: string;
  name: string;
}

function apiUrl(ctx: Ctx, path: string, query: Record<string, string> = {}): string {
  const url = new URL(ctx.settings.api_url.replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

/** A GET whose refusals name Miro, the board setting and the token, quoting Miro's `message`. */
async function getJson<T>(ctx: Ctx, url: string, what: string): Promise<T> {
  const response = await ctx.http.request(url, { headers: { authorization: `Bearer ${ctx.secrets.access_token}`, accept: 'application/json' } });
  if (!response.ok) {
    throw await failure(response, what, {
      vendor: 'Miro',
      credentials: "the connection's access_token (an OAuth token with boards:read, of a user who can open the board)",
      settings: 'the setting board_ids',
    });
  }
  try {
    return (await response.json()) as T;
  } catch {
    throw new ConnectorError('unavailable', `${what}: Miro answered HTTP ${response.status} with a body that is not JSON.`);
  }
}

/** Every item of one type on a board, page by page (cursor), stopping at MAX_PAGES with an error rather than reading on. */
async function itemsOfType(ctx: Ctx, boardId: string, type: TextType | 'frame'): Promise<MiroItem[]> {
  const items: MiroItem[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query: Record<string, string> = { limit: String(PAGE_SIZE), type, ...(cursor ? { cursor } : {}) };
    const got = await getJson<ItemsPage>(ctx, apiUrl(ctx, `/v2/boards/${encodeURIComponent(boardId)}/items`, query), `Reading the ${type} items of Miro board '${boardId}' (setting board_ids)`);
    items.push(...(got.data ?? []));
    cursor = got.cursor || undefined;
    if (!cursor) return items;
  }
  throw new ConnectorError('config', `Miro board '${boardId}' has more than ${MAX_PAGES * PAGE_SIZE} ${type} items; the connector reads at most that many of a type. Split the board, or narrow item_types.`);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/**
 * Miro's rich text (`<p>`, `<br>`, `<strong>`, `<a>`, lists, …) as plain text: paragraphs, line breaks and list items
 * become line breaks, other tags go, entities are decoded. Markup is not kept as placeholders: nothing is written back
 * to Miro, so the tags would only stand in the translator's way and reach no one.
 */
export function plainText(content: string): string {
  const text = content
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li[^>]*>/gi, '• ')
    .replace(/<\/(p|li|div|h[1-6]|ul|ol|blockquote)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole: string, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    });
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * What an item's size says about a translation's length, as a note (a pixel width is no character count, so it is no
 * max_length: that would replace the project's length budget and flag every translation longer than the guess).
 */
function sizeHint(item: MiroItem, charsPerPx: number): string | undefined {
  const width = item.geometry?.width;
  if (!width || !(width > 0)) return undefined;
  const height = item.geometry?.height;
  const box = height && height > 0 ? `${Math.round(width)} × ${Math.round(height)} px` : `${Math.round(width)} px wide`;
  const perLine = Math.floor(width * charsPerPx);
  const about = perLine >= 1 ? ` (about ${perLine} characters a line)` : '';
  if (item.type === 'sticky_note') return `Sticky note ${box}: Miro shrinks the text to fit the note, so a much longer translation turns small.`;
  if (item.type === 'shape') return `Shape${item.data?.shape ? ` (${item.data.shape})` : ''} ${box}${about}: the text wraps inside the shape; a much longer translation may not fit.`;
  return `Text ${Math.round(width)} px wide${about}: a longer translation wraps onto more lines.`;
}

const TYPE_NAMES: Record<TextType, string> = { text: 'text', sticky_note: 'sticky note', shape: 'shape' };

function stringOf(item: MiroItem, board: MiroBoard, frames: Map<string, string>, charsPerPx: number): RemoteString | undefined {
  const source = plainText(item.data?.content ?? '');
  if (source === '') return undefined;
  const frame = item.parent?.id ? frames.get(item.parent.id) : undefined;
  const notes = sizeHint(item, charsPerPx);
  return {
    key: item.id,
    source,
    context: `Board "${board.name}"${frame ? ` › frame "${frame}"` : ''} › ${TYPE_NAMES[item.type as TextType] ?? item.type}`,
    ...(notes ? { notes } : {}),
  };
}

async function list(ctx: Ctx): Promise<Listing> {
  const units: StringUnit[] = [];
  const notes: string[] = [];
  for (const boardId of ctx.settings.board_ids) {
    const board = await getJson<MiroBoard>(ctx, apiUrl(ctx, `/v2/boards/${encodeURIComponent(boardId)}`), `Reading Miro board '${boardId}' (setting board_ids)`);
    const frames = new Map((await itemsOfType(ctx, boardId, 'frame')).map((f) => [f.id, (f.data?.title ?? '').trim()]));
    const strings: RemoteString[] = [];
    let empty = 0;
    for (const type of new Set(ctx.settings.item_types)) {
      for (const item of await itemsOfType(ctx, boardId, type)) {
        const string = stringOf(item, board, frames, ctx.settings.chars_per_px);
        if (string) strings.push(string);
        else empty++;
      }
    }
    units.push({ kind: 'strings', path: boardId, strings });
    notes.push(`'${board.name}' (${boardId}): ${strings.length} items in ${frames.size} frames${empty > 0 ? `, ${empty} empty items skipped` : ''}`);
  }
  return { units, note: `Miro, import only: ${notes.join('; ')}.` };
}

export const miro: Connector<MiroSettings, MiroSecrets> = {
  id: 'miro',
  name: 'Miro',
  category: 'design',
  direction: 'import_only',
  summary: "Miro boards: the text of every text item, sticky note and shape is imported for translation as plain text, with the board and frame as context and the item's width as a length hint in the notes; import only.",
  settings,
  secrets,
  list,
};
