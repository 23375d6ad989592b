/**
 * A service's log written inside the sprite: the agent appends the output of a process started with a `log`
 * (protocol/agent.ts `ProcessSpec.log`) as log text (protocol/service-log.ts) to its file, so a chatty service costs
 * its own sprite's CPU, memory and disk quota, not spritzer's. Writes go one batch at a time, each through
 * `openBeneath` (no link the sprite's code plants is followed, a file it removed or rotated is created again);
 * while more than HIGH_WATER_BYTES wait, the process's pipes are paused, so it waits on them as on a slow disk.
 * @see docs/security.md "Host-side writes", docs/limits.md
 */
import { ServiceLogLines } from '../protocol/service-log.ts';
import { openBeneath } from './beneath.ts';

/** Bytes of log text that may wait for the file before the process's output is paused. */
export const HIGH_WATER_BYTES = 256 * 1024;

/** Mode of a log file the agent creates. */
const LOG_FILE_MODE = 0o644;

/** The log of one process. */
export class ProcessLogFile {
  private readonly lines = new ServiceLogLines();
  private queued: string[] = [];
  private queuedBytes = 0;
  private writing: Promise<void> | undefined;
  private blocked = false;

  /**
   * @param root host directory sprite paths map under (`''` inside the sandbox)
   * @param path the log's sprite path (absolute)
   * @param owner owner of a file or directory created (the sprite user), or null to keep the agent's
   * @param onBlocked called with true when the process's output should pause, false when it may go on
   */
  constructor(
    private readonly root: string,
    private readonly path: string,
    private readonly owner: { uid: number; gid: number } | null,
    private readonly onBlocked: (blocked: boolean) => void,
  ) {
    this.queue(''); // the log exists from the first start
  }

  /** Takes a chunk of the process's `stream`; its complete lines are appended. */
  push(stream: 'stdout' | 'stderr', data: Uint8Array): void {
    const text = this.lines.push(stream, data);
    if (text !== '') this.queue(text);
  }

  /** Appends the unterminated rests and resolves once everything queued is written (or dropped). Never rejects. */
  async close(): Promise<void> {
    const rest = this.lines.flush();
    if (rest !== '') this.queue(rest);
    while (this.writing) await this.writing;
  }

  private queue(text: string): void {
    this.queued.push(text);
    this.queuedBytes += Buffer.byteLength(text);
    if (!this.blocked && this.queuedBytes > HIGH_WATER_BYTES) {
      this.blocked = true;
      this.onBlocked(true);
    }
    if (!this.writing) this.writing = this.drain();
  }

  /** Writes batches until nothing waits; a batch that cannot be written (quota, a path made unwritable) is dropped. */
  private async drain(): Promise<void> {
    while (this.queued.length > 0) {
      const batch = this.queued.join('');
      this.queued = [];
      this.queuedBytes = 0;
      await this.append(batch).catch(() => undefined);
      if (this.blocked && this.queuedBytes <= HIGH_WATER_BYTES) {
        this.blocked = false;
        this.onBlocked(false);
      }
    }
    this.writing = undefined;
  }

  private async append(text: string): Promise<void> {
    const host = this.root ? this.root + this.path : this.path;
    const { fh, created } = await openBeneath(this.root, host, { mode: LOG_FILE_MODE, append: true, mkdirParents: true, owner: this.owner });
    try {
      if (created && this.owner) await fh.chown(this.owner.uid, this.owner.gid).catch(() => undefined);
      if (text !== '') await fh.write(text);
    } finally {
      await fh.close().catch(() => undefined);
    }
  }
}
