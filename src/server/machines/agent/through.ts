/**
 * What a machine whose sprite runs the in-sprite agent (sandbox, container) builds on the agent of its current boot:
 * a `MachineFs` whose every call goes through that agent, and a process handle that can be returned at once while
 * the agent is still booting. It owns these adapters only; booting and re-booting the agent is the machine's.
 */
import type { AgentClient } from './client.ts';
import type { ExecIO, ExecProcess, MachineFs } from '../port.ts';

/** A MachineFs whose every call goes to the agent of the current boot. */
export function fsThrough(agent: () => Promise<AgentClient>): MachineFs {
  return {
    readFile: async (...a) => (await agent()).fs.readFile(...a),
    writeFile: async (...a) => (await agent()).fs.writeFile(...a),
    stat: async (...a) => (await agent()).fs.stat(...a),
    lstat: async (...a) => (await agent()).fs.lstat(...a),
    readdir: async (...a) => (await agent()).fs.readdir(...a),
    mkdir: async (...a) => (await agent()).fs.mkdir(...a),
    rm: async (...a) => (await agent()).fs.rm(...a),
    rename: async (...a) => (await agent()).fs.rename(...a),
    copy: async (...a) => (await agent()).fs.copy(...a),
    chmod: async (...a) => (await agent()).fs.chmod(...a),
    chown: async (...a) => (await agent()).fs.chown(...a),
  };
}

/**
 * A process whose start waits for the agent (a spawn during a boot or a restore): stdin, resizes and signals sent
 * before it starts are replayed in order; when the sprite cannot boot, it exits 137 with a message on stderr.
 */
export function deferredProcess(pid: number, io: ExecIO, started: Promise<ExecProcess>): ExecProcess {
  let proc: ExecProcess | undefined;
  const queue: Array<(p: ExecProcess) => void> = [];
  const exit = started.then(
    (p) => {
      proc = p;
      for (const op of queue.splice(0)) op(p);
      return p.exit;
    },
    (err: Error) => {
      io.stderr(new TextEncoder().encode(`sprite is not running: ${err.message}\n`));
      return 137;
    },
  );
  const later = (op: (p: ExecProcess) => void) => (proc ? op(proc) : queue.push(op));
  return {
    pid,
    exit,
    get osPid() {
      return proc?.osPid;
    },
    writeStdin: (d) => later((p) => p.writeStdin(d)),
    endStdin: () => later((p) => p.endStdin()),
    resize: (c, r) => later((p) => p.resize(c, r)),
    signal: (s) => later((p) => p.signal(s)),
    tap: (on) => later((p) => p.tap(on)),
  };
}
