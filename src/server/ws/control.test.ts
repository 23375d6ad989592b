import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import type { WebSocket } from 'ws';
import { handleControl, MAX_MESSAGES_WHILE_STARTING, REPLY_BACKLOG_REASON } from './control.ts';
import { DEFAULT_LIMITS } from '../core/limits.ts';
import type { AppContext } from '../context.ts';
import type { Sprite } from '../model/sprites.ts';

/** A control socket's peer that never reads: what the server sends stays in `bufferedAmount`. */
class StuckSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: string[] = [];
  closed: { code: number; reason: string } | undefined;
  send(data: string) {
    this.sent.push(String(data));
    this.bufferedAmount += String(data).length;
  }
  close(code: number, reason: string) {
    this.closed ??= { code, reason };
    this.readyState = 3;
  }
  text(s: string) {
    this.emit('message', Buffer.from(s), false);
  }
}

/** A sprite whose exec start (the working-directory check) never finishes: the socket stays "starting". */
function startingSprite(): Sprite {
  return {
    environment: {},
    sessions: { list: () => [], validate: () => new Promise(() => {}) },
    touch: () => {},
  } as unknown as Sprite;
}

function open(ws: StuckSocket, limits: Partial<typeof DEFAULT_LIMITS> = {}) {
  const ctx = { deps: { logger: pino({ level: 'silent' }), limits: { ...DEFAULT_LIMITS, ...limits } } } as unknown as AppContext;
  handleControl(ws as unknown as WebSocket, startingSprite(), ctx, { limits: {} as never });
}

describe('control socket limits', () => {
  it('closes 1013 once the unsent replies pass controlReplyBacklogBytes, and sends nothing more', () => {
    const ws = new StuckSocket();
    open(ws, { controlReplyBacklogBytes: 1000 });
    const flood = 'control:{not json';
    while (ws.bufferedAmount <= 1000) ws.text(flood);
    const answered = ws.sent.length;
    expect(answered).toBeGreaterThan(1);
    expect(ws.sent.every((s) => JSON.parse(s.slice('control:'.length)).args.code === 'op.invalid')).toBe(true);
    expect(ws.closed).toBeUndefined();
    ws.text(flood); // one reply over the backlog: closed instead of answered
    expect(ws.closed).toEqual({ code: 1013, reason: REPLY_BACKLOG_REASON });
    expect(ws.sent).toHaveLength(answered);
  });

  it('the default backlog is 1 MiB: replies go out until then', () => {
    const ws = new StuckSocket();
    open(ws);
    ws.bufferedAmount = 1024 * 1024;
    ws.text('control:{');
    expect(ws.closed).toBeUndefined();
    expect(ws.sent).toHaveLength(1);
    ws.text('control:{');
    expect(ws.closed).toEqual({ code: 1013, reason: REPLY_BACKLOG_REASON });
  });

  it(`keeps ${MAX_MESSAGES_WHILE_STARTING} messages while an op starts; one more closes 1008`, () => {
    const ws = new StuckSocket();
    open(ws);
    ws.text(`control:${JSON.stringify({ type: 'op.start', op: 'exec', args: { cmd: ['true'] } })}`);
    for (let i = 0; i < MAX_MESSAGES_WHILE_STARTING; i++) ws.emit('message', Buffer.from([0, 0x61]), true);
    expect(ws.closed).toBeUndefined();
    expect(ws.sent).toEqual([]); // queued for the op, not answered as not_active
    ws.emit('message', Buffer.from([0, 0x61]), true);
    expect(ws.closed).toEqual({ code: 1008, reason: 'too many messages before the operation started' });
  });
});
