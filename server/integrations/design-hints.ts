/**
 * What a design tool's text box says about a translation's length, for the import-only design connectors (Figma,
 * Sketch, Penpot, Zeplin). A width in pixels is no character count (proportional fonts, wider scripts, another font
 * size), so it is never made the key's max_length, which would replace the project's length budget and reach the
 * provider as a character limit (docs/decisions.md): it goes into the notes, with an estimate of the characters a
 * line holds marked as one.
 */
import { z } from '@hono/zod-openapi';

/** The `chars_per_px` setting every design connector takes, for the estimate of the characters a line holds. */
export const charsPerPxSetting = z
  .number()
  .positive()
  .max(2)
  .default(0.14)
  .openapi({ description: "Characters per pixel of layer width, for the notes' estimate of the characters a line of a text box holds. Default 0.14 (about a 14 px proportional font)." });

/**
 * How a text box meets a longer text: `fixed` keeps its size (the text overflows), `truncate` keeps it and cuts the
 * text with an ellipsis, `grows_down` keeps its width and adds lines, `grows` follows the text (no hint), and `unknown`
 * when the tool does not say (an export of the box as drawn).
 */
export type BoxGrowth = 'fixed' | 'truncate' | 'grows_down' | 'grows' | 'unknown';

export interface TextBox {
  width: number;
  height?: number | undefined;
  /** The text's line height in pixels, when the file holds one: with the height, the lines the box shows. */
  lineHeightPx?: number | undefined;
  growth: BoxGrowth;
}

/** The note of a text box, or undefined when it says nothing about length (it grows with its text, or has no width). */
export function textBoxHint(box: TextBox, charsPerPx: number): string | undefined {
  if (box.growth === 'grows' || !(box.width > 0)) return undefined;
  const width = Math.round(box.width);
  const perLine = Math.floor(box.width * charsPerPx);
  const about = perLine >= 1 ? `about ${perLine} characters a line` : undefined;
  if (box.growth === 'grows_down') return `Text box ${width} px wide, growing downwards${about ? ` (${about})` : ''}: a longer translation wraps onto more lines.`;
  const height = box.height !== undefined && box.height > 0 ? box.height : undefined;
  const lines = height !== undefined && box.lineHeightPx !== undefined && box.lineHeightPx > 0 ? Math.max(1, Math.round(height / box.lineHeightPx)) : undefined;
  const fits = [about, lines === undefined ? undefined : `${lines} ${lines === 1 ? 'line' : 'lines'}`].filter((part) => part !== undefined).join(', ');
  const size = height === undefined ? `${width} px wide` : `${width} × ${Math.round(height)} px`;
  if (box.growth === 'unknown') return `Text box ${size} in the design${fits ? ` (${fits})` : ''}: a much longer translation may not fit.`;
  const longer = box.growth === 'truncate' ? 'a longer translation is cut off with an ellipsis' : 'a longer translation overflows the box';
  return `Fixed text box ${size}${fits ? ` (${fits})` : ''}: ${longer}.`;
}
