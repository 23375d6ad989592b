/**
 * Authentication (docs/wire-reference.md §2.1): `Authorization: Bearer <token>` on every REST call and WebSocket
 * upgrade; `FlyV1 <macaroon>` on token minting. With `--token` set, that token passes everywhere, minting needs
 * `FlyV1 <that token>` (spritzer cannot check a real Fly macaroon, so the configured secret stands in for one),
 * and a token minted through `createToken` passes only for the public API of the organization it was minted
 * for, never for `/_spritzer`. Without `--token` any non-empty credential does. Tokens are compared in constant
 * time. One object serves REST and the upgrade router; it does not answer requests.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** The 401 body. @deviation the public 401 body is UNCONFIRMED (§17); we use the JSON envelope. */
export const UNAUTHORIZED = { error: 'unauthorized', message: 'Missing or invalid authentication' } as const;

/**
 * What a request reaches: `admin` is the emulator's own surface (`/_spritzer/*`); `org` is the public API of
 * one organization (its sprites, and `/v1/organizations/{org}/…`).
 */
export type AuthScope = { kind: 'admin' } | { kind: 'org'; org: string };

/**
 * The scope of a request path (raw, as `req.path` or `URL.pathname`): `/_spritzer/…` → admin;
 * `/v1/organizations/{org}/…` → that org (percent-decoded); anything else is the server's own organization,
 * which owns every sprite. Matching is case-sensitive, like routing.
 */
export function scopeOfPath(path: string, serverOrg: string): AuthScope {
  if (path.startsWith('/_spritzer/')) return { kind: 'admin' };
  const m = /^\/v1\/organizations\/([^/]+)(?:\/|$)/.exec(path);
  if (!m) return { kind: 'org', org: serverOrg };
  try {
    return { kind: 'org', org: decodeURIComponent(m[1]) };
  } catch {
    return { kind: 'org', org: m[1] };
  }
}

/**
 * The key under which the in-sprite API (src/server/url/in-sprite-api.ts) marks a request with the name of the sprite
 * whose API socket it came through. A symbol: nothing on the wire can set it.
 */
export const IN_SPRITE_SCOPE = Symbol('spritzer.in-sprite-scope');

/** The sprite an in-sprite API request acts for, or undefined for a request from outside. */
export function inSpriteScopeOf(req: object): string | undefined {
  return (req as { [IN_SPRITE_SCOPE]?: string })[IN_SPRITE_SCOPE];
}

/**
 * Whether an in-sprite API request of sprite `name` may reach `path` (raw, as `req.path`) with `method`: only that
 * sprite's own public API, `/v1/sprites/<name>/…`, with no `.`/`..` segment and no encoded separator that could
 * lead out of it, and the sprite itself, `/v1/sprites/<name>`, to read (GET, HEAD). A sprite's code holds no token;
 * this scope is its only credential, and it admits nothing else.
 */
export function inSpriteAdmits(name: string, path: string, method: string): boolean {
  const self = `/v1/sprites/${encodeURIComponent(name)}`;
  if (path === self) return method === 'GET' || method === 'HEAD';
  const own = `${self}/`;
  if (!path.startsWith(own)) return false;
  const rest = path.slice(own.length);
  return !/%(2e|2f|5c)/i.test(rest) && !rest.includes('\\') && !rest.split('/').some((seg) => seg === '.' || seg === '..');
}

/** SHA-256 of a credential: fixed-length digests make `timingSafeEqual` applicable to any token length. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** The tokens a server accepts. */
export class Credentials {
  /** Minted tokens: SHA-256 (hex) → the organization they were minted for. */
  private readonly minted = new Map<string, string>();
  private readonly requiredDigest: Buffer | undefined;

  /**
   * `required`: the `--token` value; when undefined any non-empty credential is accepted.
   * `organization`: the server's organization slug (the default scope of a request and of a minted token).
   */
  constructor(
    required: string | undefined,
    private readonly organization = 'personal',
  ) {
    this.requiredDigest = required === undefined ? undefined : digest(required);
  }

  /** Records a token minted by `createToken` for `org`, so it authenticates later calls in that org's API (§3.9). */
  mint(token: string, org: string = this.organization): string {
    this.minted.set(digest(token).toString('hex'), org);
    return token;
  }

  /** Persistence hook (src/server/store): the minted tokens as [SHA-256 hex, organization] (never the tokens). */
  mintedDigests(): Array<[string, string]> {
    return [...this.minted];
  }

  /** Persistence hook (src/server/store): accepts again a token minted before a restart, by its SHA-256 hex. */
  restoreDigest(digestHex: string, org: string): void {
    this.minted.set(digestHex, org);
  }

  /**
   * True when `header` (an Authorization value of any scheme: `Bearer`, `FlyV1`) carries a credential this server
   * issued: the `--token` value or a minted token. Without `--token` only minted tokens count, since any other
   * credential then names nobody. Used to keep spritzer's own credentials from being passed on (url/sprite-url.ts).
   */
  carriesOwnToken(header: string | undefined): boolean {
    const credential = /^\S+\s+(.+)$/.exec(header?.trim() ?? '')?.[1]?.trim();
    if (!credential) return false;
    const given = digest(credential);
    if (this.requiredDigest !== undefined && timingSafeEqual(given, this.requiredDigest)) return true;
    return this.minted.has(given.toString('hex'));
  }

  /**
   * True when the Authorization header is acceptable for a request in `scope` (default: the public API of the
   * server's organization). The `--token` value passes in every scope; a minted token only as `Bearer`, only
   * in the `org` scope of its own organization.
   */
  accepts(header: string | undefined, scheme: 'Bearer' | 'FlyV1' = 'Bearer', scope?: AuthScope): boolean {
    if (!header) return false;
    const match = /^(\S+)\s+(.+)$/.exec(header.trim());
    if (!match || match[1].toLowerCase() !== scheme.toLowerCase()) return false;
    const credential = match[2].trim();
    if (!credential) return false;
    if (this.requiredDigest === undefined) return true;
    const given = digest(credential);
    if (timingSafeEqual(given, this.requiredDigest)) return true;
    if (scheme !== 'Bearer') return false;
    const org = this.minted.get(given.toString('hex'));
    const wanted = scope ?? { kind: 'org', org: this.organization };
    return org !== undefined && wanted.kind === 'org' && wanted.org === org;
  }
}
