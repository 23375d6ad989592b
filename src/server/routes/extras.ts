/**
 * Handlers, WebSocket channels and per-sprite addons beyond the core (issue 4): services, network policy,
 * tasks, proxy. Filled in as those land; the core app imports them from here.
 */
import type { Deps, HandlerMap } from '../context.ts';
import type { Sprite } from '../model/sprites.ts';
import type { ExtraChannels } from '../ws/router.ts';

/** Extra REST handlers by operationId. */
export const extraHandlers: HandlerMap = {};

/** Extra WebSocket channels. */
export function extraChannels(): ExtraChannels {
  return {};
}

/** Attaches per-sprite addons (services, tasks, policy) to a new sprite. */
export function attachAddons(_sprite: Sprite, _deps: Deps): void {}
