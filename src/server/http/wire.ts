/**
 * Model → wire mappers, one per resource (docs/architecture.md "Wire shapes come only from generated/"). Every JSON body
 * spritzer sends is built here, typed by the generated OpenAPI types, except the fs family's, which operations/fs.ts
 * builds for REST and the control socket alike. Times are RFC 3339 UTC strings.
 */
import type { components } from '../../../generated/openapi.d.ts';
import type { Sprite, Checkpoint } from '../model/sprites.ts';
import type { ExecSession } from '../model/sessions.ts';
import type { Service, ServiceEvent } from '../model/services.ts';
import type { Task } from '../model/tasks.ts';

import { rfc3339 } from '../core/clock.ts';

type Schemas = components['schemas'];

/** Epoch ms or null → RFC 3339 or null (never `""`, §1). */
function optionalTime(ms: number | null): string | null {
  return ms === null ? null : rfc3339(ms);
}

/** A sprite object, the superset of §3.1 (both timestamp pairs, `organization` and `org_slug`). */
export function toWireSprite(s: Sprite): Schemas['Sprite'] {
  const urlSettings: Schemas['Sprite']['url_settings'] = { auth: s.urlSettings.auth };
  if (s.urlSettings.privateAccess !== undefined) urlSettings.private_access = s.urlSettings.privateAccess;
  const wire: Schemas['Sprite'] = {
    id: s.id,
    name: s.name,
    organization: s.organization,
    org_slug: s.organization,
    status: s.status(),
    url: s.url,
    url_settings: urlSettings,
    created_at: rfc3339(s.createdAt),
    updated_at: rfc3339(s.updatedAt),
    last_started_at: optionalTime(s.lastStartedAt),
    last_active_at: optionalTime(s.lastActiveAt),
    last_running_at: optionalTime(s.lastStartedAt),
    last_warming_at: null,
    labels: [...s.labels],
  };
  if (s.config) wire.config = s.config as Schemas['Sprite']['config'];
  if (s.environment) wire.environment = s.environment;
  return wire;
}

/**
 * A checkpoint (§7.2). `history` (every ancestor id, oldest first) is rendered unless `opts.history` is false:
 * the list leaves it out, as SRV returns it from the single get only, which keeps the list linear in size.
 */
export function toWireCheckpoint(c: Checkpoint, opts: { history?: boolean } = {}): Schemas['Checkpoint'] {
  const wire: Schemas['Checkpoint'] = {
    id: c.id,
    create_time: rfc3339(c.createTime),
    comment: c.comment,
    is_auto: c.isAuto,
  };
  if (opts.history ?? true) wire.history = c.history.toArray();
  if (c.sourceId) wire.source_id = c.sourceId;
  return wire;
}

/** The `Current` pseudo checkpoint that heads the list (§7.3). */
export function currentCheckpoint(now: number): Schemas['Checkpoint'] {
  return { id: 'Current', create_time: rfc3339(now) };
}

/** An exec session for `GET …/exec` (§4.8): `id` a decimal string, times RFC 3339. */
export function toWireSession(s: ExecSession, now: number): Schemas['ExecSession'] {
  return {
    id: s.id,
    command: s.command,
    workdir: s.workdir,
    tty: s.tty,
    created: rfc3339(s.createdAt),
    bytes_per_second: s.bytesPerSecond(now),
    is_active: s.isActive,
    last_activity: rfc3339(s.lastActivityAt),
  };
}

/** A service with its state (§9.1): snake_case, `http_port` null when unset, times RFC 3339. */
export function toWireService(s: Service): Schemas['Service'] {
  const state: Schemas['Service']['state'] = {
    name: s.state.name,
    status: s.state.status,
    restart_count: s.state.restartCount,
  };
  if (s.state.pid !== undefined) state.pid = s.state.pid;
  if (s.state.startedAt !== undefined) state.started_at = rfc3339(s.state.startedAt);
  if (s.state.nextRestartAt !== undefined) state.next_restart_at = rfc3339(s.state.nextRestartAt);
  if (s.state.error !== undefined) state.error = s.state.error;
  return { name: s.name, cmd: s.cmd, args: [...s.args], needs: [...s.needs], http_port: s.httpPort, state };
}

/** One service stream line (§9.3): `timestamp` integer ms, `exit_code`, `log_files`. */
export function toWireServiceEvent(e: ServiceEvent): Schemas['ServiceStreamEvent'] {
  const wire: Record<string, unknown> = { type: e.type, timestamp: e.timestamp };
  if (e.data !== undefined) wire.data = e.data;
  if (e.exitCode !== undefined) wire.exit_code = e.exitCode;
  if (e.logFiles !== undefined) wire.log_files = { ...e.logFiles };
  return wire as Schemas['ServiceStreamEvent'];
}

/** A task (§12). */
export function toWireTask(t: Task): Schemas['Task'] {
  return { name: t.name, started_at: rfc3339(t.startedAt), expires_at: rfc3339(t.expiresAt) };
}
