/**
 * The settings every engine's factory is opened with: the injected clock and logger, the in-memory engines' stdin
 * waits and shell limits, the sandbox's places, resources and egress mode, the container engine's runtime and image.
 * It owns their shape only; main.ts fills them from the flags, and each wing reads the part it needs.
 * @see docs/architecture.md "Machines and engines"
 */
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.ts';
import type { ShellLimits } from './shell-limits.ts';
import type { SpriteResources } from './sprite-resources.ts';

/** `--sandbox-egress` (`SPRITZER_SANDBOX_EGRESS`): `none` (no outbound at all, the default) or `gate`. */
export const SANDBOX_EGRESS_MODES = ['none', 'gate'] as const;
/** One of {@link SANDBOX_EGRESS_MODES}. */
export type SandboxEgressMode = (typeof SANDBOX_EGRESS_MODES)[number];

/** What factories may need: the injected clock, the shell engine's stdin grace period (ms), the sandbox's places. */
export interface MachineFactoryDeps {
  clock: Clock;
  stdinGraceMs?: number;
  /** `--stdin-wait`: the shell engine's wait (ms) for the first stdin byte of a command that may read stdin. */
  stdinWaitMs?: number;
  /** Most stdin one exec may send (bytes); the shell engine refuses more (docs/limits.md). */
  maxStdinBytes?: number;
  /** The shell engine's limits (`--shell-max-commands`, `--shell-timeout`, docs/limits.md). */
  shellLimits?: ShellLimits;
  /** `--data-dir`: where sandbox layers and snapshots live (default: a temp dir removed at exit). */
  dataDir?: string;
  /** With `dataDir`: sandbox sprites' disks outlive the server (`--data-dir` persistence, src/server/store). */
  persist?: boolean;
  /** `--sandbox-root`: a prepared root used as the read-only base instead of the host's OS. */
  sandboxRoot?: string;
  /** `--sandbox-spares`: sandboxes kept booted ahead of creates (default 0 here; the CLI's default is 1). */
  sandboxSpares?: number;
  /** `--sprite-memory`, `--sprite-pids`, `--sandbox-pids-total`, `--sandbox-memory-total`, `--sprite-inotify-*` (default: sized to the host). */
  spriteResources?: SpriteResources;
  /** `--sandbox-uid-base`: first host uid of the sandbox sprites' id ranges. */
  sandboxUidBase?: number;
  /** `--sandbox-egress`: `none` (default: loopback only) or `gate` (src/server/machines/sandbox/egress/sprite-egress.ts). */
  sandboxEgress?: SandboxEgressMode;
  logger?: Logger;
  /** `--agent-timeout` (ms): the deadline of one call to a sandbox or container sprite's agent (machines/agent/deadlines.ts). */
  agentTimeoutMs?: number;
  /** `--container-runtime`, `--sprite-image`, `--namespace`, `--create-timeout` (ms), `--agent-image`: the container engine's settings. */
  container?: { runtime?: 'auto' | 'docker' | 'podman' | 'kubernetes'; image?: string; namespace?: string; createTimeoutMs?: number; agentImage?: string };
}
