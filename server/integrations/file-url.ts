/**
 * The design connectors that read a file (Sketch, Penpot) fetch it from the connection's `file_url` when it is set:
 * the secret `file_token`, if any, as a Bearer token, the answer read within the connector's limit, a refusal worded
 * for those two settings.
 */
import type { ConnectorHttp } from './connector-http.js';
import { failure, readBody } from './connector-http.js';

export async function fetchFileUrl(http: ConnectorHttp, url: string, token: string | undefined, options: { what: string; maxBytes: number; tooLarge?: string }): Promise<Uint8Array> {
  const response = await http.request(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, maxBytes: options.maxBytes });
  if (!response.ok) {
    throw await failure(response, options.what, { vendor: new URL(url).host, credentials: "the connection's file_token (sent as a Bearer token to file_url)", settings: 'the file_url setting' });
  }
  return readBody(response, options.what, { maxBytes: options.maxBytes, ...(options.tooLarge ? { tooLarge: options.tooLarge } : {}) });
}
