/**
 * Authentication (sprites-wire.md §2.1): `Authorization: Bearer <token>` on every REST call and WebSocket
 * upgrade; `FlyV1 <macaroon>` on token minting. With `--token` set only that token passes; without it any
 * non-empty bearer token does. One function serves REST and the upgrade router.
 */
import type { Deps } from '../context.ts';

/** The 401 body. @deviation the public 401 body is UNCONFIRMED (§17); we use the JSON envelope. */
export const UNAUTHORIZED = { error: 'unauthorized', message: 'Missing or invalid authentication' } as const;

/** True when the Authorization header is acceptable for this request. */
export function isAuthorized(header: string | undefined, deps: Pick<Deps, 'token'>, scheme: 'Bearer' | 'FlyV1' = 'Bearer'): boolean {
  if (!header) return false;
  const match = /^(\S+)\s+(.+)$/.exec(header.trim());
  if (!match || match[1].toLowerCase() !== scheme.toLowerCase()) return false;
  const credential = match[2].trim();
  if (!credential) return false;
  if (scheme === 'FlyV1') return true;
  return deps.token === undefined || credential === deps.token;
}
