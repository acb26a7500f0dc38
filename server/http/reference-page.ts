/** A readable API reference rendered from the generated OpenAPI document: no scripts, no CDN, works offline. */
import { createHash } from 'node:crypto';

interface OperationLike {
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: unknown }[];
  requestBody?: { content?: Record<string, unknown> };
  responses?: Record<string, { description?: string }>;
}

const STYLES = `
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
code{background:#f2f2f5;padding:0 .25em;border-radius:3px}
section{border-top:1px solid #ddd;padding:.5rem 0}
.method{display:inline-block;min-width:4.5em;color:#fff;background:#3a5ccc;border-radius:4px;padding:0 .4em;font-size:.8em;text-align:center}
`;

/**
 * The page's Content-Security-Policy: nothing loads but its one inline style block, allowed by hash; no other site may
 * frame it. (Links to /v1/openapi.json are navigation, which CSP does not restrict.)
 */
export const REFERENCE_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLES).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const inlineCode = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

export function renderReferencePage(doc: { info: { title: string; version: string; description?: string }; paths?: Record<string, Record<string, OperationLike>> }): string {
  const sections: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(methods)) {
      const params = (op.parameters ?? [])
        .filter((p) => p.in !== 'header')
        .map((p) => `<li><code>${escapeHtml(p.name)}</code> (${p.in}${p.required ? ', required' : ''})${p.description ? ` — ${inlineCode(p.description)}` : ''}</li>`)
        .join('');
      const bodies = Object.keys(op.requestBody?.content ?? {}).map((type) => `<code>${escapeHtml(type)}</code>`).join(', ');
      const responses = Object.entries(op.responses ?? {})
        .map(([status, r]) => `<li><code>${status}</code> ${inlineCode(r.description ?? '')}</li>`)
        .join('');
      sections.push(`<section id="${escapeHtml(method + path)}">
<h2><span class="method">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h2>
<p><strong>${inlineCode(op.summary ?? '')}</strong></p>
<p>${inlineCode(op.description ?? '')}</p>
${params ? `<h3>Parameters</h3><ul>${params}</ul>` : ''}
${bodies ? `<h3>Request body</h3><p>${bodies}</p>` : ''}
<h3>Responses</h3><ul>${responses}</ul>
</section>`);
    }
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(doc.info.title)} — API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${STYLES}</style></head><body>
<h1>${escapeHtml(doc.info.title)} <small>${escapeHtml(doc.info.version)}</small></h1>
<p>${inlineCode(doc.info.description ?? '')}</p>
<p>Machine-readable: <a href="/v1/openapi.json"><code>/v1/openapi.json</code></a> (OpenAPI 3.1).</p>
${sections.join('\n')}
</body></html>`;
}
