import { describe, it, expect } from 'vitest';
import { CloseCode, CloseReason, ProtocolError, ttyExitCloseCode } from './close-codes.ts';

// The close codes and reasons the wire reference fixes (docs/wire-reference.md §4.4, §4.5, §6.1) and spritzer's own
// limit closes (docs/limits.md), as literal values:
// messages.test.ts checks the same table against spec/asyncapi.yaml.

describe('close codes', () => {
  it('are the RFC 6455 codes of the Sprites channels', () => {
    expect(CloseCode).toStrictEqual({
      Normal: 1000,
      GoingAway: 1001,
      UnsupportedData: 1003,
      PolicyViolation: 1008,
      MessageTooBig: 1009,
      InternalError: 1011,
      TryAgainLater: 1013,
    });
  });

  it('carry the reasons word for word', () => {
    expect(CloseReason).toStrictEqual({
      InvalidPort: 'Invalid port number',
      ExpectedJsonInit: 'Expected JSON initialization message',
      UpstreamClosed: 'upstream closed',
      ShuttingDown: 'server shutting down',
      FailedToConnectPrefix: 'Failed to connect to target: ',
      ClientTooSlow: 'client too slow: output backlog limit exceeded',
    });
  });

  it('end a TTY session with 1000 for exit code 0 and 1011 for any other', () => {
    expect(ttyExitCloseCode(0)).toBe(1000);
    expect(ttyExitCloseCode(1)).toBe(1011);
    expect(ttyExitCloseCode(255)).toBe(1011);
    expect(ttyExitCloseCode(-1)).toBe(1011);
  });

  it('ProtocolError carries the close code and reason, and says it in its message', () => {
    const err = new ProtocolError(1003, 'Invalid port number');
    expect(err).toBeInstanceOf(Error);
    expect({ name: err.name, closeCode: err.closeCode, reason: err.reason, message: err.message }).toStrictEqual({
      name: 'ProtocolError',
      closeCode: 1003,
      reason: 'Invalid port number',
      message: 'Invalid port number',
    });
  });
});
