/**
 * Handlers, WebSocket channels and per-sprite addons beyond the core lifecycle/exec/checkpoint/fs surface
 * (issue 4): services, network policy, tasks and the proxy socket. The app imports them from here.
 */
import type { Deps, HandlerMap } from '../context.ts';
import type { Sprite } from '../model/sprites.ts';
import type { ExtraChannels } from '../ws/router.ts';
import { ServiceManager } from '../model/services.ts';
import { TaskRegistry } from '../model/tasks.ts';
import { serviceHandlers } from './services.ts';
import { policyHandlers, SpritePolicies } from './policy.ts';
import { taskHandlers } from './tasks.ts';
import { handleProxy } from '../ws/proxy.ts';
import { handlePortsWatch } from '../ws/ports-watch.ts';
import { handleFsWatch } from '../ws/fs-watch.ts';

/** Extra REST handlers by operationId. */
export const extraHandlers: HandlerMap = { ...serviceHandlers, ...policyHandlers, ...taskHandlers };

/** Extra WebSocket channels. */
export function extraChannels(): ExtraChannels {
  return {
    proxy: { handle: handleProxy },
    'ports/watch': { handle: handlePortsWatch },
    'fs/watch': { handle: handleFsWatch },
  };
}

/** Attaches the per-sprite addons: services (through the exec engine), tasks and policies. */
export function attachAddons(sprite: Sprite, deps: Deps): void {
  const services = new ServiceManager({ clock: deps.clock, engine: deps.engine, sprite: sprite.ctx, onActivity: () => sprite.touch(), limits: deps.limits });
  sprite.addons.set('services', Object.assign(services, { size: () => services.list().length }));
  sprite.addons.set('tasks', new TaskRegistry({ clock: deps.clock, onChange: () => sprite.touch() }));
  sprite.addons.set('policy', new SpritePolicies());
}
