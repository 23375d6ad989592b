/**
 * The process side of job control in the `shell` engine: starts each background job as its own just-bash
 * execution (through a `run` function engine.ts gives), with its own job table, its sleeps on the injected clock and
 * its output on the exec's sinks; runs the EXIT trap when the script ends and a signal's trap when the exec is
 * signalled, and ends the jobs when the exec is killed (a shell that ends by itself leaves them running, in the
 * sprite's process table). It does not parse scripts nor define the commands (jobs.ts),
 * and does not own the exec's exit bookkeeping (engine.ts's `ProcessExit`).
 * @see docs/fidelity.md "Deliberate differences" (Shell engine job control)
 */
import type { BashExecResult, CustomCommand, ExecResult } from 'just-bash';
import { defineCommand, stdoutKind } from 'just-bash';
import type { Clock, TimerHandle } from '../../../core/clock.ts';
import { signalNumber } from '../../../../protocol/signals.ts';
import { SINK_DIR, type OutputSinks } from './output-sink.ts';
import type { ProcessTable } from '../processes.ts';
import { JobControl, jobEnv, TRAP_END_COMMAND, type SubshellState, type Trap } from './jobs.ts';

/** What a run of a script needs beyond the script: its abort, its sleep, its shell's job table, extra commands. */
export interface RunControl {
  abort: AbortSignal;
  sleep: (ms: number) => Promise<void>;
  jobs: JobControl;
  commands?: CustomCommand[];
  /** A job's copy of its shell (jobs.ts {@link SubshellState}): the run starts from it. */
  subshell?: SubshellState;
}

/**
 * Runs `script` as one just-bash execution over the sprite (env exactly `env`, directory `cwd`, empty stdin),
 * streaming per command to the exec's sinks; resolves with what just-bash kept back (never rejects).
 */
export type RunScript = (script: string, env: Record<string, string>, cwd: string, ctl: RunControl) => Promise<ExecResult | BashExecResult>;

/** What {@link startJobControl} needs from the exec. */
export interface JobHookDeps {
  /** The sprite's process table. */
  allocatePid: () => number;
  /** The exec's own pid (`$$`). */
  selfPid: number;
  /** Schedules the sleeps of jobs and trap handlers. */
  clock: Clock;
  /** The exec's live output sinks (they drop output once the exec has ended). */
  sinks: OutputSinks;
  /** Runs a job or a trap handler. */
  run: RunScript;
  /** Delivers a signal to the exec itself (`kill $$`). */
  signalSelf: (name: string) => void;
  /**
   * The sprite's process table and what `ps` shows of this exec: every job joins it and may outlive the exec
   * (the sprite ends it on stop, destroy or restore). Absent: jobs are this exec's only.
   */
  processes?: ProcessTable;
  /** This exec's command as `ps` shows it (a job that is not one program shows as its shell). */
  shell: { args: string; comm: string; tty: string | null };
  /** The shell is interactive, with job control (jobs.ts `JobControlDeps.jobControl`). */
  jobControl?: boolean;
}

/** The exec's side of job control (see {@link startJobControl}). */
export interface JobHooks {
  /** The main script's job and trap table. */
  readonly jobs: JobControl;
  /** The exec was killed: ends its jobs (HUP; `nohup`/`setsid` ones go on, in the sprite's process table). */
  release(): void;
  /** True once a trap took over the end of the exec: the main script's own result is then ignored. */
  readonly ending: boolean;
  /**
   * The script ended with `code` and variables `vars`: runs the EXIT trap (its `exit N` replaces the code) and
   * resolves with the exit code; the background jobs go on, as a non-interactive bash leaves them.
   */
  end(code: number, vars?: Record<string, string>): Promise<number>;
  /**
   * Runs the handler of `name` without ending anything (the interactive shell's ^C: bash runs the INT trap and
   * goes on); resolves at once when there is none.
   */
  runHandler(name: string): Promise<void>;
  /**
   * Handles a fatal signal sent to the exec when the script set a trap for it or for EXIT, or ignores it (`trap ''
   * SIG`): returns true, aborts the script through `abortMain`, runs the handler, then the EXIT trap, ends the
   * jobs, and calls `finish` with the handler's `exit` status, or 128+n when it did not exit. Returns false when
   * the exec should take the signal's default action (the caller then ends the jobs too). KILL is never trapped.
   * @deviation bash resumes the script after a handler that does not `exit`; here the exec ends with 128+n.
   */
  signal(name: string, abortMain: () => void, finish: (code: number) => void): boolean;
}

const NON_FATAL = new Set([17, 18, 19, 20, 28]);

/** Creates the job control of one exec (see {@link JobHooks}). */
export function startJobControl(deps: JobHookDeps): JobHooks {
  const table = deps.processes ? { processes: deps.processes, now: () => deps.clock.now(), shell: deps.shell } : undefined;
  const newTable = (selfPid = deps.selfPid): JobControl => new JobControl({ allocatePid: deps.allocatePid, selfPid, launch, signalSelf: deps.signalSelf, table, hiddenRedirections: SINK_DIR, jobControl: deps.jobControl });
  /** A job: its own execution and job table; what just-bash kept back is delivered when it ends. */
  const launch = async (job: { script: string; env: Record<string, string>; cwd: string; pid: number; signal: AbortSignal; subshell?: SubshellState }): Promise<number> => {
    const own = newTable(job.pid);
    const result = await deps.run(job.script, job.env, job.cwd, { abort: job.signal, sleep: sleeper(deps.clock, job.signal), jobs: own, subshell: job.subshell });
    if (job.signal.aborted) own.endAll();
    else deliver(deps.sinks, result);
    return result.exitCode;
  };
  const release = (jobs: JobControl) => jobs.endAll();
  const jobs = newTable();
  let ending = false;
  let trapAbort: AbortController | null = null;

  /**
   * Runs a handler, with `$?` = `status` when given (bash's EXIT trap sees the status the shell exits with);
   * `exited` when it called `exit` (it never reached its end marker).
   */
  const runTrap = async (trap: Trap, env: Record<string, string>, cwd: string, status?: number): Promise<{ code: number; exited: boolean }> => {
    let reached = false;
    const abort = new AbortController();
    trapAbort = abort;
    const end = defineCommand(TRAP_END_COMMAND, async () => {
      reached = true;
      return { stdout: '', stderr: '', exitCode: 0 };
    });
    const setStatus = status ? `(exit ${status})\n` : '';
    const result = await deps.run(`${setStatus}${trap.action}\n${TRAP_END_COMMAND}`, env, cwd, { abort: abort.signal, sleep: sleeper(deps.clock, abort.signal), jobs, commands: [end] });
    if (!abort.signal.aborted) deliver(deps.sinks, result);
    return { code: result.exitCode, exited: !reached };
  };
  const runExitTrap = async (code: number, vars?: Record<string, string>): Promise<number> => {
    const trap = jobs.takeExitTrap();
    if (!trap || trap.action === '') return code;
    const r = await runTrap(trap, vars ? jobEnv(vars) : trap.env, trap.cwd, code);
    return r.exited ? r.code : code;
  };

  return {
    jobs,
    release: () => release(jobs),
    get ending() {
      return ending;
    },
    end(code, vars) {
      return runExitTrap(code, vars);
    },
    async runHandler(name) {
      const trap = jobs.trapFor(name);
      if (trap && trap.action !== '') await runTrap(trap, trap.env, trap.cwd);
    },
    signal(name, abortMain, finish) {
      const n = signalNumber(name);
      if (n === null || NON_FATAL.has(n)) return false;
      if (n === 9) {
        trapAbort?.abort();
        return false;
      }
      if (ending) return true;
      const trap = jobs.trapFor(name);
      if (trap?.action === '') return true;
      if (!trap && !jobs.trapFor('EXIT')) return false;
      ending = true;
      abortMain();
      void (async () => {
        let code = 128 + n;
        if (trap) {
          const r = await runTrap(trap, trap.env, trap.cwd);
          if (r.exited) code = r.code;
        }
        code = await runExitTrap(code);
        release(jobs);
        finish(code);
      })();
      return true;
    },
  };
}

/** A `sleep` on `clock` whose timer is cleared when `signal` aborts (just-bash itself gives up on the abort). */
export function sleeper(clock: Clock, signal: AbortSignal): (ms: number) => Promise<void> {
  return (ms) =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return;
      const handle: TimerHandle = clock.setTimeout(() => {
        signal.removeEventListener('abort', cancel);
        resolve();
      }, ms);
      const cancel = () => clock.clearTimeout(handle);
      signal.addEventListener('abort', cancel, { once: true });
    });
}

/**
 * Sends what just-bash kept back of a run (output it could not stream) to `sinks`, in the order it was written
 * when the result records it (`outputOrder`: alternating stdout and stderr lengths, stdout first; output-order.ts):
 * a `set -x` trace then the output of the command it traced.
 */
export function deliver(sinks: OutputSinks, result: ExecResult & { outputOrder?: number[] }): void {
  const encoding = stdoutKind(result) === 'bytes' ? 'latin1' : 'utf8';
  const out = (text: string) => text && sinks.stdout(new Uint8Array(Buffer.from(text, encoding)));
  const err = (text: string) => text && sinks.stderr(new TextEncoder().encode(text));
  let o = 0;
  let e = 0;
  (result.outputOrder ?? []).forEach((n, i) => {
    if (i % 2 === 0) out(result.stdout.slice(o, (o += n)));
    else err(result.stderr.slice(e, (e += n)));
  });
  out(result.stdout.slice(o));
  err(result.stderr.slice(e));
}
