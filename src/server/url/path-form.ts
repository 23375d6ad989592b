/**
 * What a sprite may send through the path form of its URL (`/s/<name>/…`), which shares spritzer's own origin with
 * the API and the inspector: every answer is a sandboxed document (an opaque origin of its own, so no service
 * worker, storage or cookie of spritzer's origin is reachable from it), and the headers that act on the whole origin
 * are dropped. It owns those rules only; the relay is url/sprite-url.ts.
 */
import type { IncomingMessage } from 'node:http';

/**
 * The policy every path-form answer carries: `sandbox` without `allow-same-origin` gives the document an opaque
 * origin (its requests to the API carry `Origin: null`, it has no `navigator.serviceWorker`, no storage or
 * `document.cookie` of spritzer's origin); scripts, forms, popups (sandboxed too), modals and downloads still work.
 */
export const PATH_FORM_CSP = 'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads';

/**
 * Response headers a sprite may not set on spritzer's origin: cookies (they would be sent to the API, the inspector
 * and every other sprite's path form), a service worker's scope beyond its script, and `Clear-Site-Data` (which
 * would wipe the inspector's token and storage).
 */
const ORIGIN_WIDE = /^(set-cookie|set-cookie2|service-worker-allowed|clear-site-data)$/i;

/**
 * The sprite's raw response headers (`[name, value, name, value…]`, as `IncomingMessage.rawHeaders`) made safe
 * for spritzer's origin: origin-wide headers dropped, {@link PATH_FORM_CSP} added (a sprite's own policy stays and
 * applies as well: browsers enforce every policy they get).
 * @deviation real Sprites serve a sprite on a host of its own with its headers unchanged (docs/fidelity.md).
 */
export function pathFormHeaders(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (!ORIGIN_WIDE.test(raw[i])) out.push(raw[i], raw[i + 1]);
  out.push('Content-Security-Policy', PATH_FORM_CSP);
  return out;
}

/**
 * Why a path-form request must not reach the sprite, or undefined: a browser fetching a service worker script
 * (`Service-Worker: script`) — a worker on spritzer's origin would see every request of the inspector.
 */
export function pathFormRefusal(req: Pick<IncomingMessage, 'headers'>): { status: number; body: { error: string; message: string } } | undefined {
  if (req.headers['service-worker'] === undefined) return undefined;
  return { status: 403, body: { error: 'forbidden', message: "a sprite's path-form URL shares spritzer's origin and may not serve a service worker; use the sprite's url" } };
}
