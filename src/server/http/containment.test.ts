import { EventEmitter } from 'node:events';
import type http from 'node:http';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { containTimers, installLastResort, isWebSocketUpgrade } from './containment.ts';
import { FakeClock } from '../core/clock.ts';

function capture() {
  const entries: Array<Record<string, any>> = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void entries.push(JSON.parse(line)) });
  return { logger, entries };
}

describe('installLastResort', () => {
  it('logs an uncaught exception and an unhandled rejection at fatal with their origin, and removes itself', () => {
    const proc = new EventEmitter();
    const { logger, entries } = capture();
    const remove = installLastResort(proc, logger);
    proc.emit('uncaughtException', new Error('boom'), 'uncaughtException');
    proc.emit('unhandledRejection', new Error('nope'), Promise.resolve());
    expect(entries.map((e) => [e.level, e.origin, e.err.message])).toEqual([
      [60, 'uncaughtException', 'boom'],
      [60, 'unhandledRejection', 'nope'],
    ]);
    remove();
    expect(proc.listenerCount('uncaughtException') + proc.listenerCount('unhandledRejection')).toBe(0);
  });

  it('a logger that throws does not turn the contained error into a new one', () => {
    const proc = new EventEmitter();
    const broken = { fatal: () => { throw new Error('log write failed'); } } as unknown as import('pino').Logger;
    installLastResort(proc, broken);
    expect(() => proc.emit('uncaughtException', new Error('boom'))).not.toThrow();
  });
});

describe('containTimers', () => {
  it('logs a throwing timer callback, and later timers still fire in order', () => {
    const clock = new FakeClock(0);
    const { logger, entries } = capture();
    const contained = containTimers(clock, logger);
    const fired: string[] = [];
    contained.setTimeout(() => {
      fired.push('a');
      throw new Error('linger kill failed');
    }, 10);
    contained.setTimeout(() => fired.push('b'), 20);
    const cancelled = contained.setTimeout(() => fired.push('never'), 15);
    contained.clearTimeout(cancelled);
    expect(() => clock.advance(30)).not.toThrow();
    expect(fired).toEqual(['a', 'b']);
    expect(entries.map((e) => [e.msg, e.err.message])).toEqual([['timer callback failed', 'linger kill failed']]);
    expect(contained.now()).toBe(clock.now());
  });
});

describe('isWebSocketUpgrade', () => {
  const req = (upgrade?: string) => ({ headers: upgrade === undefined ? {} : { upgrade } }) as http.IncomingMessage;
  it('is true for the websocket token in any case, alone or in a list, and false otherwise', () => {
    expect([req('websocket'), req('WebSocket'), req('h2c, websocket')].map(isWebSocketUpgrade)).toEqual([true, true, true]);
    expect([req('h2c'), req('x'), req(''), req()].map(isWebSocketUpgrade)).toEqual([false, false, false, false]);
  });
});
