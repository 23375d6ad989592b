import { describe, it, expect } from 'vitest';
import { MessageName, parseExecClientMessage, parseProxyInit, parseWatchSubscribe } from './messages.ts';
import { ProtocolError } from './close-codes.ts';

// The strict parsers of client text messages, without the spec: messages.test.ts checks them against
// spec/asyncapi.yaml; this file pins their answers and refusals, and is quick enough to run per mutant.

/** `{closeCode, reason}` of the ProtocolError `fn` throws. */
function refusal(fn: () => unknown): { closeCode: number; reason: string; message: string } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ProtocolError);
    const { closeCode, reason, message } = err as ProtocolError;
    return { closeCode, reason, message };
  }
  return expect.unreachable('no ProtocolError thrown');
}

describe('MessageName', () => {
  it('uses the message names of spec/asyncapi.yaml', () => {
    expect(MessageName).toStrictEqual({
      resize: 'resize',
      signal: 'signal',
      sessionInfo: 'session_info',
      exit: 'exit',
      portOpened: 'port_opened',
      portClosed: 'port_closed',
      portList: 'port_list',
      proxyInit: 'proxy_init',
      proxyResponse: 'proxy_response',
      watchSubscribe: 'subscribe',
      watchEvent: 'watch_event',
    });
  });
});

describe('parseExecClientMessage', () => {
  it('returns resize and signal, dropping unknown fields', () => {
    expect(parseExecClientMessage('{"type":"resize","cols":120,"rows":40,"x":1}')).toStrictEqual({ type: 'resize', cols: 120, rows: 40 });
    expect(parseExecClientMessage('{"type":"signal","signal":"SIGINT","x":1}')).toStrictEqual({ type: 'signal', signal: 'SIGINT' });
  });

  it('accepts sizes from 1 to 65535 and returns the signal as sent', () => {
    expect(parseExecClientMessage('{"type":"resize","cols":1,"rows":65535}')).toStrictEqual({ type: 'resize', cols: 1, rows: 65535 });
    expect(parseExecClientMessage('{"type":"resize","cols":65535,"rows":1}')).toStrictEqual({ type: 'resize', cols: 65535, rows: 1 });
    expect(parseExecClientMessage('{"type":"signal","signal":" term "}')).toStrictEqual({ type: 'signal', signal: ' term ' });
  });

  it.each([
    ['hello', 'text message is not a JSON object'],
    ['null', 'text message is not a JSON object'],
    ['"resize"', 'text message is not a JSON object'],
    ['[{"type":"resize","cols":1,"rows":1}]', 'text message is not a JSON object'],
    ['{}', 'unknown message type null'],
    ['{"type":"exit","exit_code":0}', 'unknown message type "exit"'],
    ['{"type":"resize","cols":-1,"rows":2}', 'resize needs integer cols and rows (1-65535)'],
    ['{"type":"resize","cols":0,"rows":0}', 'resize needs integer cols and rows (1-65535)'],
    ['{"type":"resize","cols":2,"rows":0}', 'resize needs integer cols and rows (1-65535)'],
    ['{"type":"resize","cols":2,"rows":-1}', 'resize needs integer cols and rows (1-65535)'],
    ['{"type":"resize","cols":2,"rows":65536}', 'resize needs integer cols and rows (1-65535)'],
    ['{"type":"resize","cols":2,"rows":1.5}', 'resize needs integer cols and rows (1-65535)'],
    ['{"type":"resize","cols":"80","rows":24}', 'resize needs integer cols and rows (1-65535)'],
    ['{"type":"signal"}', 'signal needs a signal name'],
    ['{"type":"signal","signal":""}', 'signal needs a signal name'],
  ])('refuses %s with close 1008 and the reason %j', (text, reason) => {
    expect(refusal(() => parseExecClientMessage(text))).toStrictEqual({ closeCode: 1008, reason, message: reason });
  });

  it.each([
    ['not JSON', 'hello'],
    ['an array', '[1]'],
    ['an unknown type', '{"type":"exit","exit_code":0}'],
    ['a fractional size', '{"type":"resize","cols":1.5,"rows":2}'],
    ['a size above uint16', '{"type":"resize","cols":65536,"rows":2}'],
    ['a missing size', '{"type":"resize","cols":80}'],
    ['an empty signal', '{"type":"signal","signal":" "}'],
    ['a numeric signal field', '{"type":"signal","signal":15}'],
  ])('rejects %s with close 1008', (_name, text) => {
    try {
      parseExecClientMessage(text);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ProtocolError);
      expect((err as ProtocolError).closeCode).toBe(1008);
    }
  });
});

describe('parseProxyInit', () => {
  it('defaults host to localhost', () => {
    expect(parseProxyInit('{"port":5432}')).toStrictEqual({ host: 'localhost', port: 5432 });
    expect(parseProxyInit('{"host":"","port":80}')).toStrictEqual({ host: 'localhost', port: 80 });
    expect(parseProxyInit('{"host":"10.0.0.1","port":65535}')).toStrictEqual({ host: '10.0.0.1', port: 65535 });
    expect(parseProxyInit('{"host":"db","port":1,"x":true}')).toStrictEqual({ host: 'db', port: 1 });
  });

  it.each([
    ['not JSON', 'GET / HTTP/1.1', 'Expected JSON initialization message'],
    ['a JSON string', '"localhost:80"', 'Expected JSON initialization message'],
    ['a numeric host', '{"host":1,"port":80}', 'Expected JSON initialization message'],
    ['port 0', '{"port":0}', 'Invalid port number'],
    ['port 65536', '{"port":65536}', 'Invalid port number'],
    ['a string port', '{"port":"80"}', 'Invalid port number'],
    ['no port', '{"host":"localhost"}', 'Invalid port number'],
    ['null', 'null', 'Expected JSON initialization message'],
    ['an array', '[{"port":80}]', 'Expected JSON initialization message'],
    ['a null host', '{"host":null,"port":80}', 'Expected JSON initialization message'],
    ['a fractional port', '{"port":80.5}', 'Invalid port number'],
  ])('rejects %s with close 1003 and the wire reason', (_name, text, reason) => {
    try {
      parseProxyInit(text);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ProtocolError);
      expect((err as ProtocolError).closeCode).toBe(1003);
      expect((err as ProtocolError).reason).toBe(reason);
    }
  });
});

describe('parseWatchSubscribe', () => {
  it('returns the subscription', () => {
    expect(parseWatchSubscribe('{"type":"subscribe","paths":["/a"],"recursive":false}')).toStrictEqual({ type: 'subscribe', paths: ['/a'], recursive: false });
    expect(parseWatchSubscribe('{"type":"subscribe","paths":["/a","b"],"workingDir":"/w","x":1}')).toStrictEqual({
      type: 'subscribe',
      paths: ['/a', 'b'],
      workingDir: '/w',
    });
    expect(parseWatchSubscribe('{"type":"subscribe","paths":["/a"],"recursive":true,"workingDir":""}')).toStrictEqual({
      type: 'subscribe',
      paths: ['/a'],
      recursive: true,
      workingDir: '',
    });
  });

  it.each([
    ['{"type":"subscribe","paths":[]}', 'subscribe needs a non-empty paths array'],
    ['{"type":"subscribe"}', 'subscribe needs a non-empty paths array'],
    ['{"type":"subscribe","paths":"/a"}', 'subscribe needs a non-empty paths array'],
    ['{"type":"subscribe","paths":["/a",""]}', 'subscribe needs a non-empty paths array'],
    ['{"type":"subscribe","paths":["/a",3]}', 'subscribe needs a non-empty paths array'],
    ['{"type":"sub","paths":["/a"]}', 'expected a subscribe message'],
    ['{"paths":["/a"]}', 'expected a subscribe message'],
    ['{"type":"subscribe","paths":["/a"],"recursive":"yes"}', 'recursive must be a boolean'],
    ['{"type":"subscribe","paths":["/a"],"recursive":null}', 'recursive must be a boolean'],
    ['{"type":"subscribe","paths":["/a"],"workingDir":1}', 'workingDir must be a string'],
    ['subscribe', 'subscribe is not a JSON object'],
    ['[]', 'subscribe is not a JSON object'],
  ])('refuses %s with close 1008 and the reason %j', (text, reason) => {
    expect(refusal(() => parseWatchSubscribe(text))).toStrictEqual({ closeCode: 1008, reason, message: reason });
  });
});

