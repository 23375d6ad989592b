/**
 * What spritzer accepts from a sprite's agent. The agent runs inside the sprite, so root there can take over its
 * connection and write any bytes: this module owns the bounds on each frame type, on the relays the agent may open
 * (ACCEPT) and on the bytes the host buffers for them. AgentClient enforces them; a frame over a bound is a protocol
 * violation (the connection closes and the sprite is marked failed). @see docs/security.md "The agent's connection"
 */
import { FrameType, MAX_PAYLOAD_BYTES, type CallJson } from '../../../protocol/agent.ts';

/** The bounds of one agent connection (docs/limits.md "The agent's connection"). Sizes in bytes. */
export interface AgentBounds {
  /** Payload of a STDOUT, STDERR, DATA or EVENT frame (the agent sends at most 64 KiB reads; events are split). */
  streamFrameBytes: number;
  /** Payload of an EXIT, ACCEPT, END, RESET, PAUSE or RESUME frame, and of a REPLY to no pending call. */
  controlFrameBytes: number;
  /** Payload of a REPLY to `readFile` (the file's bytes: the largest file `fs/read` returns). */
  fileReplyBytes: number;
  /** Payload of a REPLY to a recursive listing or change (`readdir`, `rm`, `copy`, `chmod`, `chown`: one entry per path). */
  treeReplyBytes: number;
  /** Payload of a REPLY to any other call (`stat`, `ports`, `usage`…). */
  replyBytes: number;
  /** Relays the agent may have open at once (ACCEPT: in-sprite API and egress connections); one more is reset. */
  acceptedRelays: number;
  /**
   * Bytes the host may hold for the agent's relays, summed over them, once one of them is past its stream's buffer
   * (16 KiB) and was asked to PAUSE: an agent that keeps sending breaks the protocol.
   */
  relayBufferedBytes: number;
  /** Bytes the host may have unsent to the agent before it stops reading from it (until the agent reads). */
  unsentBytes: number;
}

/**
 * The defaults. Each is far above what the agent sends in normal use (64 KiB chunks, one JSON batch of a few
 * KiB), and together they bound what one sprite's connection can make spritzer hold to about
 * `maxFrame + relayBufferedBytes + acceptedRelays × 16 KiB + unsentBytes`, where `maxFrame` is `streamFrameBytes`
 * unless the host itself asked for a file or a tree listing.
 */
export const DEFAULT_AGENT_BOUNDS: Readonly<AgentBounds> = Object.freeze({
  streamFrameBytes: 1024 * 1024,
  controlFrameBytes: 4096,
  fileReplyBytes: MAX_PAYLOAD_BYTES,
  treeReplyBytes: 256 * 1024 * 1024,
  replyBytes: 1024 * 1024,
  acceptedRelays: 256,
  relayBufferedBytes: 16 * 1024 * 1024,
  unsentBytes: 4 * 1024 * 1024,
});

/** The calls whose reply lists one entry per path of a tree. */
const TREE_OPS = new Set<CallJson['op']>(['readdir', 'rm', 'copy', 'chmod', 'chown']);

/**
 * The largest payload the host takes in a frame of `type` from the agent, given the op of the pending call the
 * frame answers (`pendingOp`, for a REPLY; undefined when no call has that id). 0 for the types only the host
 * sends (CALL, SPAWN, STDIN, STDIN_EOF, SIGNAL, RESIZE, TAP): the caller refuses those whatever their size.
 */
export function agentPayloadLimit(bounds: AgentBounds, type: FrameType, pendingOp: CallJson['op'] | undefined): number {
  switch (type) {
    case FrameType.Stdout:
    case FrameType.Stderr:
    case FrameType.Data:
    case FrameType.Event:
      return bounds.streamFrameBytes;
    case FrameType.Exit:
    case FrameType.Started:
    case FrameType.Accept:
    case FrameType.End:
    case FrameType.Reset:
    case FrameType.Pause:
    case FrameType.Resume:
      return bounds.controlFrameBytes;
    case FrameType.Reply:
      if (pendingOp === undefined) return bounds.controlFrameBytes;
      if (pendingOp === 'readFile') return bounds.fileReplyBytes;
      return TREE_OPS.has(pendingOp) ? bounds.treeReplyBytes : bounds.replyBytes;
    default:
      return 0;
  }
}

/** Whether the agent may send a frame of `type` at all (the host → agent types are a protocol violation). */
export function agentMaySend(type: FrameType): boolean {
  return type === FrameType.Reply || type === FrameType.Accept || type === FrameType.Started || (type >= FrameType.Stdout && type <= FrameType.Exit) || (type >= FrameType.Data && type <= FrameType.Event);
}
