import { describe, it, expect } from 'vitest';
import { encodeNdjsonLine, NdjsonDecoder, NdjsonError, readNdjson } from './ndjson.ts';

async function* chunks(...parts: Array<string | Uint8Array>): AsyncGenerator<string | Uint8Array> {
  for (const p of parts) yield p;
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const v of it) out.push(v);
  return out;
}

async function failure(it: AsyncIterable<unknown>): Promise<NdjsonError> {
  try {
    await collect(it);
  } catch (err) {
    if (err instanceof NdjsonError) return err;
    throw err;
  }
  throw new Error('expected an NdjsonError');
}

const isTerminal = (v: { type?: string }) => v.type === 'complete' || v.type === 'error';

describe('encodeNdjsonLine', () => {
  it('writes one JSON value and a newline, escaping newlines inside strings', () => {
    expect(encodeNdjsonLine({ type: 'info', data: 'a\nb' })).toBe('{"type":"info","data":"a\\nb"}\n');
    expect(encodeNdjsonLine({ type: 'complete', exit_code: 0 })).toBe('{"type":"complete","exit_code":0}\n');
  });

  it('refuses values with no JSON form', () => {
    expect(() => encodeNdjsonLine(undefined)).toThrow(new TypeError('value has no JSON representation'));
    expect(() => encodeNdjsonLine(() => 1)).toThrow(TypeError);
  });
});

describe('NdjsonDecoder', () => {
  it('decodes lines split anywhere, including inside a UTF-8 sequence', () => {
    const text = '{"data":"é€😀"}\n{"n":2}\n';
    const all = new TextEncoder().encode(text);
    for (let cut = 0; cut <= all.length; cut++) {
      const d = new NdjsonDecoder();
      const values = [...d.push(all.subarray(0, cut)), ...d.push(all.subarray(cut)), ...d.end()];
      expect(values).toEqual([{ data: 'é€😀' }, { n: 2 }]);
    }
  });

  it('decodes byte-at-a-time input', () => {
    const d = new NdjsonDecoder();
    const values: unknown[] = [];
    for (const b of new TextEncoder().encode('{"a":"ü"}\n[1]\n')) values.push(...d.push(Uint8Array.of(b)));
    expect(values).toEqual([{ a: 'ü' }, [1]]);
  });

  it('skips blank lines, accepts CRLF and a last line without newline', () => {
    const d = new NdjsonDecoder();
    expect(d.pushEntries('\n{"a":1}\r\n  \n{"b"')).toStrictEqual([{ value: { a: 1 }, line: 2 }]);
    expect(d.linesRead).toBe(3);
    expect(d.push(':2}')).toEqual([]);
    expect(d.linesRead).toBe(3);
    expect(d.endEntries()).toStrictEqual([{ value: { b: 2 }, line: 4 }]);
    expect(d.linesRead).toBe(4);
  });

  it('counts no extra line when the input ends with a newline, and ending twice yields nothing more', () => {
    const d = new NdjsonDecoder();
    expect(d.push('{"a":1}\n')).toEqual([{ a: 1 }]);
    expect(d.end()).toEqual([]);
    expect(d.linesRead).toBe(1);
    expect(d.end()).toEqual([]);
    expect(d.linesRead).toBe(1);
    const last = new NdjsonDecoder();
    expect(last.push('{"a":1}\n{"b":')).toEqual([{ a: 1 }]);
    expect(last.push('2}')).toEqual([]);
    expect(last.end()).toStrictEqual([{ b: 2 }]);
  });

  it('accepts whitespace, a carriage return included, around a value', () => {
    expect(new NdjsonDecoder().push('\r{"a":1}\r\n \t[2] \n')).toEqual([{ a: 1 }, [2]]);
  });

  it('quotes a malformed CRLF line without its carriage return', () => {
    const d = new NdjsonDecoder();
    const err = (() => {
      try {
        d.push('nope\r\n');
      } catch (e) {
        return e as NdjsonError;
      }
      return expect.unreachable();
    })();
    expect(err.code).toBe('malformed_line');
    expect(err.message).toMatch(/^malformed NDJSON line 1: /);
    expect(err.message).toContain('nope');
    expect(err.message).not.toContain('\r');
  });

  it('reports a malformed line with its 1-based line number', () => {
    const d = new NdjsonDecoder();
    expect(d.push('{"ok":true}\n\n')).toEqual([{ ok: true }]);
    try {
      d.push('{"type":"info",\n');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(NdjsonError);
      expect((err as NdjsonError).name).toBe('NdjsonError');
      expect((err as NdjsonError).code).toBe('malformed_line');
      expect((err as NdjsonError).line).toBe(3);
      expect((err as NdjsonError).message).toMatch(/^malformed NDJSON line 3: ./);
    }
  });

  it('rejects invalid UTF-8 with the number of the line it is on', () => {
    const d = new NdjsonDecoder();
    expect(d.push('{"a":1}\n')).toEqual([{ a: 1 }]);
    try {
      d.push(Uint8Array.of(0x22, 0xff, 0x22, 0x0a));
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(NdjsonError);
      expect({ ...(err as NdjsonError), message: (err as NdjsonError).message }).toStrictEqual({
        name: 'NdjsonError',
        code: 'invalid_utf8',
        line: 2,
        message: 'invalid UTF-8 after line 1',
      });
    }
  });

  it('fails with invalid_utf8 when the input ends inside a UTF-8 sequence', () => {
    const d = new NdjsonDecoder();
    const e = new TextEncoder().encode('{"a":1}\n\n{"b":"é"}');
    expect(d.push(e.subarray(0, e.length - 3))).toEqual([{ a: 1 }]); // stops after the first byte of `é`
    try {
      d.end();
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(NdjsonError);
      expect((err as NdjsonError).code).toBe('invalid_utf8');
      expect((err as NdjsonError).line).toBe(3);
      expect((err as NdjsonError).message).toBe('invalid UTF-8 after line 2');
    }
  });
});

describe('readNdjson', () => {
  it('yields every value up to and including the terminal one', async () => {
    const stream = chunks('{"type":"info","data":"Creating checkpoint..."}\n{"ty', 'pe":"complete","data":"Checkpoint v1 created"}\n');
    expect(await collect(readNdjson(stream, { isTerminal }))).toEqual([
      { type: 'info', data: 'Creating checkpoint...' },
      { type: 'complete', data: 'Checkpoint v1 created' },
    ]);
  });

  it('fails with missing_terminal when the stream ends early', async () => {
    const err = await failure(readNdjson(chunks('{"type":"info"}\n\n{"type":"info"}'), { isTerminal }));
    expect(err.code).toBe('missing_terminal');
    expect(err.message).toBe('stream ended after 3 lines without a terminal event');
  });

  it('fails with missing_terminal on an empty stream', async () => {
    const err = await failure(readNdjson(chunks(), { isTerminal }));
    expect(err.code).toBe('missing_terminal');
    expect(err.message).toBe('stream ended after 0 lines without a terminal event');
  });

  it('fails with malformed_line instead of skipping a bad line', async () => {
    const err = await failure(readNdjson(chunks('{"type":"info"}\nnot json\n{"type":"complete"}\n'), { isTerminal }));
    expect(err.code).toBe('malformed_line');
    expect(err.line).toBe(2);
    expect(err.message).toMatch(/^malformed NDJSON line 2: /);
  });

  it('fails with after_terminal when a line follows the terminal event', async () => {
    const err = await failure(readNdjson(chunks('{"type":"error","error":"x"}\n\n{"type":"info"}\n'), { isTerminal }));
    expect(err.code).toBe('after_terminal');
    expect(err.line).toBe(3);
    expect(err.message).toBe('line 3 follows the terminal event on line 1');
  });

  it('accepts blank lines after the terminal event', async () => {
    const values = await collect(readNdjson(chunks('{"type":"complete"}\n\n'), { isTerminal }));
    expect(values).toEqual([{ type: 'complete' }]);
  });
});
