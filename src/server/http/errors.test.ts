/**
 * The answers to a missed deadline of a sprite's agent: 504 in the fs envelope for an fs call, 504 in the outer API's
 * JSON envelope for any other (machines/agent/deadlines.ts makes the errors).
 */
import { describe, expect, it } from 'vitest';
import { errorAnswer } from './errors.ts';
import { callTimeoutError } from '../machines/agent/deadlines.ts';

describe('errorAnswer of an agent that did not answer in time', () => {
  it('answers an fs call 504 {error, code: ETIMEDOUT, path}', () => {
    const err = callTimeoutError({ op: 'readFile', path: '/tmp/fifo' }, 300_000, true);
    expect(errorAnswer(err, { fsPath: '/tmp/fifo' })).toStrictEqual({
      status: 504,
      headers: {},
      body: { error: "ETIMEDOUT: the sprite's agent did not answer within 300000 ms (--agent-timeout), readFile '/tmp/fifo'", code: 'ETIMEDOUT', path: '/tmp/fifo' },
    });
  });

  it('answers any other call 504 {error: sprite_timeout, message}', () => {
    const err = callTimeoutError({ op: 'killAll' }, 300_000, false);
    expect(errorAnswer(err)).toStrictEqual({
      status: 504,
      headers: {},
      body: { error: 'sprite_timeout', message: "the sprite's agent did not answer within 300000 ms (--agent-timeout) (killAll)" },
    });
  });
});
