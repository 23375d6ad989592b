/**
 * Where the agent runs, as its command line and PID tell: a sandbox (bubblewrap's PID 2, no `--root`, no
 * `--api-socket`), a container sprite (`--api-socket` given), or the host (`--root`, its own tests). It decides
 * whether `killAll` may sweep every other process of the PID namespace: only in a sandbox, where the agent and its
 * PID 1 are the only processes spritzer does not start through the agent. In a container, spritzer reaches the
 * agent through processes the runtime starts beside it (the exec bridge: `docker exec`, Kubernetes `pods/exec`),
 * and a pod without a shared PID namespace makes the agent PID 1: a sweep there kills the bridge that asked for it.
 */

/** What the agent was started with: `--root` ('' when absent), its PID, `--api-socket` (undefined when absent). */
export interface AgentPlace {
  root: string;
  pid: number;
  apiSocket: string | undefined;
}

/** Whether the agent is a sandbox's (no `--root`, PID 1 or 2, no `--api-socket`: the sandbox launcher's command). */
export function inSandbox(place: AgentPlace): boolean {
  return !place.root && place.pid <= 2 && place.apiSocket === undefined;
}

/** Whether `killAll` also kills every other process of the PID namespace: only inside a sandbox. */
export function sweepsNamespace(place: AgentPlace): boolean {
  return inSandbox(place);
}
