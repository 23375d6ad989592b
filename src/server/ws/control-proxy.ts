/**
 * The proxy op of the control socket (docs/wire-reference.md §5.3): the same dial, `{status:"connected", target}`
 * and relay as `/proxy` (ws/proxy.ts), then `release` and reuse. Two forms start it: the `op.start` envelope
 * (`op.ack`, and `op.complete` when the upstream ends) and sprites-go's bare `{host, port}` (no envelopes; the
 * relay's end closes the socket as `/proxy` does). The socket's state machine is control.ts's.
 */
import type { Duplex } from 'node:stream';
import { encodeOpAck, encodeOpComplete } from '../../protocol/control.ts';
import { CloseCode, CloseReason } from '../../protocol/close-codes.ts';
import { dialPaused, dialProxyTarget, failedToConnectReason, relay, UpstreamWriter, type ProxyRelay } from './proxy.ts';
import { ControlErrorCode, type ControlHost, type ControlOp } from './control-op.ts';

/** Where a proxy op dials, inside the sprite's network. */
export interface ProxyTarget {
  host: string;
  port: number;
}

/**
 * Starts the envelope form from the op's args as a query (`host`, default `localhost`; `port` 1–65535, else
 * `op.error` `op.failed` with `/proxy`'s invalid-port reason).
 */
export function startProxyOp(host: ControlHost, query: URLSearchParams): void {
  const port = Number(query.get('port'));
  if (!Number.isInteger(port) || port < 1 || port > 65535) return host.error(ControlErrorCode.Failed, CloseReason.InvalidPort, 'proxy');
  void runProxyOp(host, { host: query.get('host') || 'localhost', port }, 'envelope');
}

/** Starts the sprites-go bare form: a dial that fails closes the socket 1011 as `/proxy` does. */
export function startBareProxyOp(host: ControlHost, target: ProxyTarget): void {
  void runProxyOp(host, target, 'bare');
}

/** A proxy op: binary frames go upstream (kept until the dial completes); text is not part of the relay (§6.1). */
class ProxyOp implements ControlOp {
  relay: ProxyRelay | null = null;
  upstream: UpstreamWriter | null = null;
  readonly early: Buffer[] = [];

  text(): void {}

  binary(bytes: Buffer): void {
    if (this.upstream) this.upstream.write(bytes);
    else this.early.push(bytes);
  }

  release(): void {
    this.relay?.stop();
  }

  closed(): void {
    this.relay?.stop();
  }
}

async function runProxyOp(host: ControlHost, target: ProxyTarget, form: 'bare' | 'envelope'): Promise<void> {
  const { ws, sprite, logger } = host;
  const op = new ProxyOp();
  host.begin(op, false);
  let upstream: Duplex | null;
  try {
    upstream = await dialPaused(ws, () => dialProxyTarget(ws, sprite, target));
  } catch (err) {
    if (form === 'bare') return void ws.close(CloseCode.InternalError, failedToConnectReason(err));
    host.end(op);
    return host.error(ControlErrorCode.Failed, failedToConnectReason(err), 'proxy');
  }
  if (!upstream || !host.holds(op)) return void upstream?.destroy();
  if (form === 'envelope') host.reply(encodeOpAck('proxy'));
  sprite.touch();
  const onEnd =
    form === 'bare'
      ? undefined // sprites-go reads the relay until the socket closes: end it as /proxy does (1001)
      : () => {
          if (!host.holds(op)) return;
          host.reply(encodeOpComplete(0, 'proxy'));
          host.end(op);
        };
  op.relay = relay(ws, upstream, target, logger, onEnd);
  op.upstream = new UpstreamWriter(ws, upstream);
  for (const chunk of op.early.splice(0)) op.upstream.write(chunk);
}
