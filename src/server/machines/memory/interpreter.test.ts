import { describe, it, expect } from 'vitest';
import { Vfs } from './vfs.ts';
import { createInterpreterEngine } from './interpreter.ts';
import type { SpriteContext } from './engine.ts';
import type { ExecRequest } from '../port.ts';

/** A sprite with the skeleton tree plus `files` (absolute path → content). */
function sprite(files: Record<string, string> = {}): SpriteContext {
  const vfs = Vfs.skeleton(() => 0);
  for (const [path, content] of Object.entries(files)) vfs.writeFile(path, content, { mkdirParents: true });
  let pid = 100;
  return { name: 'demo', vfs, allocatePid: () => ++pid };
}

function request(argv: string[], over: Partial<ExecRequest> = {}): ExecRequest {
  return { argv, env: {}, dir: '/home/sprite', tty: false, rows: 24, cols: 80, ...over };
}

/** Runs one command to its end and returns what a client would see. */
async function run(ctx: SpriteContext, req: ExecRequest) {
  let stdout = '';
  let stderr = '';
  const io = { stdout: (d: Uint8Array) => void (stdout += Buffer.from(d).toString()), stderr: (d: Uint8Array) => void (stderr += Buffer.from(d).toString()) };
  const proc = createInterpreterEngine().start(ctx, req, io, { stdin: true });
  const exit = await proc.exit;
  return { stdout, stderr, exit, pid: proc.pid };
}

const sh = (script: string) => ['sh', '-c', script];
const H = '/home/sprite';

interface Row {
  name: string;
  startFs?: Record<string, string>;
  argv: string[];
  dir?: string;
  /** Paths and their content afterwards; `null` means the path must not exist. */
  wantFs?: Record<string, string | null>;
  stdout?: string;
  stderr?: string;
  exit: number;
}

const table: Row[] = [
  { name: 'echo from argv joined with spaces', argv: ['echo', 'hello', 'world'], stdout: 'hello world\n', exit: 0 },
  { name: 'echo strips one pair of double quotes', argv: sh('echo "hi there"'), stdout: 'hi there\n', exit: 0 },
  { name: 'echo strips one pair of single quotes', argv: sh("echo 'hi'"), stdout: 'hi\n', exit: 0 },
  { name: 'echo keeps mismatched quotes', argv: sh(`echo "hi'`), stdout: `"hi'\n`, exit: 0 },
  { name: 'echo > path writes without a newline', argv: sh('echo "v1" > key.txt'), wantFs: { [`${H}/key.txt`]: 'v1' }, stdout: '', exit: 0 },
  { name: 'echo > path replaces', startFs: { [`${H}/key.txt`]: 'old' }, argv: sh('echo new>key.txt'), wantFs: { [`${H}/key.txt`]: 'new' }, exit: 0 },
  { name: 'echo > absolute path creates parents', argv: sh('echo x > /data/deep/f'), wantFs: { '/data/deep/f': 'x' }, exit: 0 },
  { name: 'relative paths resolve against dir', argv: sh('echo x > f'), dir: '/tmp', wantFs: { '/tmp/f': 'x', [`${H}/f`]: null }, exit: 0 },
  { name: 'cat prints the content as is', startFs: { [`${H}/key.txt`]: 'v1' }, argv: ['cat', 'key.txt'], stdout: 'v1', exit: 0 },
  { name: 'cat of a missing file prints nothing', argv: ['cat', 'nope'], stdout: '', stderr: '', exit: 0 },
  { name: 'cat SRC > DEST copies', startFs: { '/a': 'A' }, argv: sh('cat /a > /b/c'), wantFs: { '/a': 'A', '/b/c': 'A' }, exit: 0 },
  { name: 'cat of a missing SRC > DEST empties DEST', startFs: { '/b': 'B' }, argv: sh('cat /nope > /b'), wantFs: { '/b': '' }, exit: 0 },
  { name: 'rm deletes', startFs: { [`${H}/k`]: 'v' }, argv: ['rm', 'k'], wantFs: { [`${H}/k`]: null }, exit: 0 },
  { name: 'rm -f deletes', startFs: { '/k': 'v' }, argv: ['rm', '-f', '/k'], wantFs: { '/k': null }, exit: 0 },
  { name: 'rm of a missing path is fine', argv: ['rm', '/nope'], stdout: '', stderr: '', exit: 0 },
  { name: 'false exits 1', argv: ['false'], exit: 1 },
  { name: 'true exits 0', argv: ['true'], exit: 0 },
  { name: 'the last segment decides the exit code', argv: sh('false; true'), exit: 0 },
  { name: 'a failing last segment fails the script', argv: sh('true; false'), exit: 1 },
  { name: 'segments run in order, empty ones skipped', argv: sh(' echo a ;; echo b > f; cat f ;'), wantFs: { [`${H}/f`]: 'b' }, stdout: 'a\nb', exit: 0 },
  {
    name: './risky.sh corrupts /work/output and fails',
    argv: ['./risky.sh'],
    wantFs: { '/work/output': 'partial-corrupt' },
    stdout: '',
    stderr: 'risky.sh: failed\n',
    exit: 1,
  },
  {
    name: './risky.sh after a write: both happen, exit 1',
    argv: sh('echo "good" > /data/key; ./risky.sh'),
    wantFs: { '/data/key': 'good', '/work/output': 'partial-corrupt' },
    stderr: 'risky.sh: failed\n',
    exit: 1,
  },
  { name: 'anything else is echoed back, never run', startFs: { '/k': 'v' }, argv: ['rm', '-rf', '/k', '/j'], wantFs: { '/k': 'v' }, stdout: 'rm -rf /k /j\n', exit: 0 },
  { name: 'an unknown command is echoed back', argv: sh('ls -la | wc -l'), stdout: 'ls -la | wc -l\n', exit: 0 },
  { name: 'bash -lc is unwrapped', argv: ['bash', '-lc', 'echo hi'], stdout: 'hi\n', exit: 0 },
  { name: 'bash -l -c is unwrapped', argv: ['bash', '-l', '-c', 'echo hi'], stdout: 'hi\n', exit: 0 },
  { name: 'a write onto a directory fails with the VFS error', argv: sh('echo x > /tmp'), stderr: "EISDIR: illegal operation on a directory, open '/tmp'\n", exit: 1 },
];

describe('interpreter engine: the seed table', () => {
  it.each(table)('$name', async (row) => {
    const ctx = sprite(row.startFs);
    const got = await run(ctx, request(row.argv, { dir: row.dir ?? H }));
    expect(got.exit).toBe(row.exit);
    if (row.stdout !== undefined) expect(got.stdout).toBe(row.stdout);
    expect(got.stderr).toBe(row.stderr ?? '');
    for (const [path, content] of Object.entries(row.wantFs ?? {})) {
      if (content === null) expect(ctx.vfs.exists(path), path).toBe(false);
      else expect(Buffer.from(ctx.vfs.readFile(path)).toString(), path).toBe(content);
    }
  });
});

describe('interpreter engine: process behaviour', () => {
  it('takes its pid from the sprite and writes nothing before start returns', async () => {
    const ctx = sprite();
    const written: string[] = [];
    const io = { stdout: (d: Uint8Array) => void written.push(Buffer.from(d).toString()), stderr: () => {} };
    const proc = createInterpreterEngine().start(ctx, request(['echo', 'x']), io, { stdin: false });
    expect(proc.pid).toBe(101);
    expect(written).toEqual([]);
    await expect(proc.exit).resolves.toBe(0);
    expect(written).toEqual(['x\n']);
  });

  it('does not wait for stdin or EOF', async () => {
    const got = await run(sprite(), request(['echo', 'done']));
    expect(got).toMatchObject({ stdout: 'done\n', exit: 0 });
  });

  it('a signal before the command ran ends it with 143 and it never runs', async () => {
    const ctx = sprite();
    const proc = createInterpreterEngine().start(ctx, request(sh('echo x > /f')), { stdout: () => {}, stderr: () => {} }, { stdin: false });
    proc.signal('TERM');
    await expect(proc.exit).resolves.toBe(143);
    await Promise.resolve();
    expect(ctx.vfs.exists('/f')).toBe(false);
  });

  it('a signal after the end changes nothing', async () => {
    const proc = createInterpreterEngine().start(sprite(), request(['false']), { stdout: () => {}, stderr: () => {} }, { stdin: false });
    await expect(proc.exit).resolves.toBe(1);
    proc.signal('KILL');
    await expect(proc.exit).resolves.toBe(1);
  });

  it('with a TTY, stderr goes to stdout and newlines become CRLF', async () => {
    const got = await run(sprite(), request(sh('echo a; ./risky.sh'), { tty: true }));
    expect(got).toMatchObject({ stdout: 'a\r\nrisky.sh: failed\r\n', stderr: '', exit: 1 });
  });
});
