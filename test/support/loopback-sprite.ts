/**
 * Sprites that serve HTTP on the in-memory engines: shell-engine machines whose `connect(host, port)` dials a real
 * server on 127.0.0.1 (what a real engine's connect does inside the sprite), so the sprite URL and the proxy can be
 * tested against a server the test controls. Nothing here starts a process; the servers belong to the caller.
 */
import net from 'node:net';
import { createEngine } from '../../src/server/machines/memory/engines.ts';
import { SystemClock, type Clock } from '../../src/server/core/clock.ts';
import { memoryMachines } from './server.ts';

/**
 * Shell-engine machines whose dial of `port` inside sprite `sprite` goes to `127.0.0.1:<route(sprite, port)>`;
 * `undefined` (or a port nothing listens on) is a refused connection, as in an empty sprite. `dialled` records
 * each dial as `[sprite, port]`.
 */
export function loopbackMachines(route: (sprite: string, port: number) => number | undefined, clock: Clock = new SystemClock()) {
  const dialled: Array<[string, number]> = [];
  const engine = {
    ...createEngine('shell', { clock }),
    connect: (sprite: { name: string }, _host: string, port: number) =>
      new Promise<net.Socket>((resolve, reject) => {
        dialled.push([sprite.name, port]);
        const to = route(sprite.name, port);
        if (to === undefined) return reject(Object.assign(new Error(`dial tcp 127.0.0.1:${port}: connect: connection refused`), { code: 'ECONNREFUSED' }));
        const socket = net.connect(to, '127.0.0.1');
        socket.once('connect', () => resolve(socket));
        socket.once('error', reject);
      }),
  };
  return { machines: memoryMachines(engine, clock), dialled, clock };
}
