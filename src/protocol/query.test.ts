import { describe, it, expect } from 'vitest';
import { wsQueryObject } from './query.ts';

describe('wsQueryObject', () => {
  it('builds the object the JS SDK exec URL stands for', () => {
    expect(wsQueryObject('?cmd=sh&cmd=-c&cmd=echo%20hi&path=sh&stdin=true&env=A%3D1&env=B%3D')).toEqual({
      cmd: ['sh', '-c', 'echo hi'],
      path: 'sh',
      stdin: 'true',
      env: ['A=1', 'B='],
    });
  });

  it('makes a single cmd an array and accepts the cmd[] spelling in order', () => {
    expect(wsQueryObject('cmd=ls')).toEqual({ cmd: ['ls'] });
    expect(wsQueryObject(new URLSearchParams('cmd[]=a&cmd=b&cmd[]=c'))).toEqual({ cmd: ['a', 'b', 'c'] });
  });

  it('keeps the first value of a repeated single-valued parameter', () => {
    expect(wsQueryObject('tty=true&tty=false')).toEqual({ tty: 'true' });
  });

  it('treats __proto__ as an ordinary parameter', () => {
    const q = wsQueryObject('__proto__=x&cmd=ls');
    expect(Object.getPrototypeOf(q)).toBe(Object.prototype);
    expect(Object.keys(q).sort()).toEqual(['__proto__', 'cmd']);
  });
});
