/**
 * The process table of an in-memory sprite: every process its engine runs (an exec's command, a shell's background
 * jobs), with what `ps` shows of it, from its start until it exits. It owns listing, lookup and signalling by pid,
 * and re-parenting to pid 1 when a parent ends before its children (as Linux does); it runs nothing itself.
 */

/** What `ps` and `kill` see of a process. */
export interface ProcessInfo {
  /** Process id, unique in the sprite while it lives. */
  readonly pid: number;
  /** Parent pid; 1 once the parent has ended (orphans go to init). */
  ppid: number;
  /** Its command line as `ps -o args` prints it (the words joined by spaces). */
  readonly args: string;
  /** The program's name as `ps -o comm` prints it (its file name, at most 15 characters, as Linux's `comm`). */
  readonly comm: string;
  /** Start time, epoch ms on the machine's clock. */
  readonly startedAt: number;
  /** Controlling terminal as `ps` names it (`pts/0`), or null for none (`?`). */
  readonly tty: string | null;
}

/** A live process of the table: what it shows, how to signal it, when it ends. */
export interface TableProcess extends ProcessInfo {
  /** Delivers a signal by name without `SIG` (`TERM`, `KILL`, …). */
  signal(name: string): void;
  /** Settles when the process has exited. */
  readonly exit: Promise<unknown>;
}

/** The longest `comm` Linux keeps (TASK_COMM_LEN 16, with the NUL). */
const COMM_LENGTH = 15;

/** `comm` of a program path: its file name, cut to Linux's 15 characters. */
export function commOf(program: string): string {
  return (program.split('/').pop() || program).slice(0, COMM_LENGTH);
}

/**
 * One sprite's processes. A process leaves the table when its `exit` settles; its children then get ppid 1.
 * @see proc(5) `/proc/[pid]/stat` (ppid, comm), ps(1)
 */
export class ProcessTable {
  private readonly byPid = new Map<number, TableProcess>();

  /** Adds `proc` until its exit settles (a pid already present is replaced: pids are never reused while alive). */
  add(proc: TableProcess): void {
    this.byPid.set(proc.pid, proc);
    void proc.exit.then(
      () => this.remove(proc),
      () => this.remove(proc),
    );
  }

  /** The live processes in pid order. */
  list(): TableProcess[] {
    return [...this.byPid.values()].sort((a, b) => a.pid - b.pid);
  }

  /** The live process with `pid`, if any. */
  get(pid: number): TableProcess | undefined {
    return this.byPid.get(pid);
  }

  /** Sends `name` to the process `pid`; false when no such process lives (`kill`'s ESRCH). */
  signal(pid: number, name: string): boolean {
    const proc = this.byPid.get(pid);
    if (!proc) return false;
    proc.signal(name);
    return true;
  }

  private remove(proc: TableProcess): void {
    if (this.byPid.get(proc.pid) !== proc) return;
    this.byPid.delete(proc.pid);
    for (const child of this.byPid.values()) if (child.ppid === proc.pid) child.ppid = 1;
  }
}
