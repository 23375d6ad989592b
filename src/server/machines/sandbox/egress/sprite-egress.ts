/**
 * What `--sandbox-egress` does to one sandbox sprite: with `gate`, at every boot the agent starts the gate's
 * loopback listeners and `/etc/resolv.conf` names them; processes get the proxy variables; the agent's egress
 * connections go to the sprite's {@link EgressGate}. With `none` (the default) it does nothing: the sprite's own
 * network namespace has loopback only, so nothing inside reaches out. It owns that wiring, not the policy logic.
 * @see docs/sandbox.md "Egress", docs/limits.md
 */
import type { Duplex } from 'node:stream';
import type { NetworkPolicy } from '../../../core/network-policy.ts';
import type { MachineFs } from '../../port.ts';
import type { SandboxEgressMode } from '../../../config/machines.ts';
import { EGRESS_DNS_PORT, EGRESS_ENV, EGRESS_PROXY_PORT, EGRESS_RESOLV_CONF, EgressGate, type EgressGateOptions } from './gate.ts';
import type { EgressNet } from './net.ts';


/** The sandbox factory's egress settings. */
export interface EgressSettings {
  mode: SandboxEgressMode;
  /** The outside the gate reaches (default the host's resolver and TCP stack); tests inject a loopback double. */
  net?: EgressNet;
  logger?: EgressGateOptions['logger'];
}

/** The agent calls a booting sprite needs (a subset of AgentClient). */
export interface EgressAgent {
  startEgress(proxyPort: number, dnsPort: number): Promise<void>;
  readonly fs: MachineFs;
}

/** One sprite's egress with the gate on. */
export class SpriteEgress {
  readonly gate: EgressGate;

  constructor(settings: EgressSettings) {
    this.gate = new EgressGate({ net: settings.net, logger: settings.logger });
  }

  /** Builds the sprite's egress from the factory's settings: undefined for `none` (or no settings). */
  static of(settings: EgressSettings | undefined): SpriteEgress | undefined {
    return settings?.mode === 'gate' ? new SpriteEgress(settings) : undefined;
  }

  /** At each boot: starts the agent's listeners and points `/etc/resolv.conf` (root-owned, 0644) at them. */
  async attach(agent: EgressAgent): Promise<void> {
    await agent.startEgress(EGRESS_PROXY_PORT, EGRESS_DNS_PORT);
    await agent.fs.writeFile('/etc/resolv.conf', new TextEncoder().encode(EGRESS_RESOLV_CONF));
    await agent.fs.chown('/etc/resolv.conf', 0, 0);
    await agent.fs.chmod('/etc/resolv.conf', 0o644);
  }

  /** The environment of a process: the proxy variables under the caller's own (the caller's win). */
  env(env: Record<string, string>): Record<string, string> {
    return { ...EGRESS_ENV, ...env };
  }

  /** Serves a connection from one of the agent's egress listeners; false when `listener` is not one of them. */
  accept(conn: Duplex, listener: string): boolean {
    if (listener === 'egress-proxy') this.gate.serveProxy(conn);
    else if (listener === 'egress-dns') this.gate.serveDns(conn);
    else return false;
    return true;
  }

  /** The sprite's network policy changed (or was restored): in force at once, open connections re-checked. */
  setPolicy(policy: NetworkPolicy): void {
    this.gate.setPolicy(policy);
  }

  /** The sprite is destroyed: every connection through the gate ends. */
  close(): void {
    this.gate.close();
  }
}
