import { describe, it, expect } from 'vitest';
import { FakeClock } from '../../../core/clock.ts';
import { Vfs } from '../vfs.ts';
import { createShellEngine } from './engine.ts';
import { parseScript, serializeScript } from './script-ast.ts';
import type { SpriteContext } from '../engine.ts';
import { runShell } from '../../../../../test/support/shell-run.ts';

/** Runs `bash -c script` on the shell engine (whose output rewrite writes the script back to text). */
async function bashC(script: string) {
  let pid = 1;
  const ctx: SpriteContext = { name: 'demo', vfs: Vfs.skeleton(() => 0), allocatePid: () => ++pid };
  let stdout = '';
  const io = { stdout: (d: Uint8Array) => void (stdout += Buffer.from(d)), stderr: () => {} };
  const proc = createShellEngine({ clock: new FakeClock() }).start(ctx, { argv: ['bash', '-c', script], env: { PATH: '/usr/bin:/bin' }, dir: '/', tty: false, rows: 24, cols: 80 }, io, { stdin: false });
  await proc.exit;
  return stdout;
}

// Each expectation is bash 5.2's output for the same script.
describe('scripts mean the same after the engine rewrites them', () => {
  it.each([
    ['[[ abc =~ ^a(b)c$ ]] && echo ${BASH_REMATCH[1]}', 'b\n'],
    ['[[ key=value =~ ^([^=]+)=(.*)$ ]] && echo "${BASH_REMATCH[1]} -> ${BASH_REMATCH[2]}"', 'key -> value\n'],
    ['[[ xy =~ ^(a|x)y$ ]]; echo $? ${#BASH_REMATCH[@]}', '0 2\n'],
    ['s=abcdef; echo "${s: -2}" "${s: -3:2}"', 'ef de\n'],
    ['a=(a b c d e); echo "${a[@]: -2}" "${a[*]: -3:2}"', 'd e c d\n'],
    ['set -- a b c d; echo "${@: -1}"', 'd\n'],
    ["x=$'a\\nb'; set -- $x; echo $#", '2\n'],
    ["declare -a a=(1 'two words'); declare -p a", 'declare -a a=([0]="1" [1]="two words")\n'],
    ["declare -A m=([k]=$'a\\nb'); printf '<%s>' \"${m[k]}\"", '<a\nb>'],
    ['echo $( (echo nested-sub) )', 'nested-sub\n'],
    ['case x in [!a-c]) echo not-abc;; esac; [[ x == [!a-c]* ]] && echo not-either', 'not-abc\nnot-either\n'],
    ['exec echo replaced; echo never', 'replaced\n'],
    ['set -- a b; shift 5 2>&1; echo $? $#', '1 2\n'],
    ['cd /tmp; cd /; echo ~+ ~- ~+/x "~+"', '/ /tmp //x ~+\n'],
    ['f() { exec echo in-f; }; f; echo never', 'in-f\n'],
    ['(exec echo sub); echo after', 'sub\nafter\n'],
    // The command exec ran replaced the shell, EXIT trap and all; an exec that found nothing ends it with the trap.
    ["trap 'echo bye' EXIT; exec echo replaced; echo never", 'replaced\n'],
    ["trap 'echo bye' EXIT; (exec echo sub); exec nope_cmd 2>&1; echo never", 'sub\nbash: line 1: exec: nope_cmd: not found\nbye\n'],
    ["(exec nope_cmd) 2>&1; echo $?; (exec /nope/x) 2>&1", 'bash: line 1: exec: nope_cmd: not found\n127\nbash: line 1: /nope/x: No such file or directory\n'],
    ["bash -c 'set -x; exec echo traced' 2>&1", '+ exec echo traced\ntraced\n'],
    ['printf \'echo in\\nexec "$@"\\n\' > /tmp/e.sh; bash /tmp/e.sh nope_cmd 2>&1', 'in\n/tmp/e.sh: line 2: exec: nope_cmd: not found\n'],
  ])('%s', async (script, stdout) => {
    expect(await bashC(script)).toBe(stdout);
  });
});

describe('serializeScript', () => {
  it('writes what just-bash reads back as the same tree', () => {
    for (const script of ['[[ a =~ (b|c)+ ]]', 'echo "${s: -2}"', "x=$'a\\nb'", "local -a v=(1 'b c')", 'echo $( (true) )']) {
      const again = serializeScript(parseScript(script));
      expect(serializeScript(parseScript(again))).toBe(again);
    }
    expect(serializeScript(parseScript('echo "${s: -2}"'))).toBe('echo "${s:(-2)}"');
  });
});

// What real bash prints for ANSI-C quoted words holding a newline, wherever the shell engine rewrites the script.
describe('$\'…\' words with \\n', () => {
  it('keep their newlines as arguments, assignments, here-strings and case patterns', async () => {
    const r = await runShell("echo $'a\\nb'; x=$'c\\nd'; echo \"$x\"; sort <<< $'z\\ny'; case $'p\\nq' in $'p\\nq') echo m;; esac");
    expect(r).toEqual({ stdout: 'a\nb\nc\nd\ny\nz\nm\n', stderr: '', exit: 0 });
  });
});

describe('backquoted command substitutions', () => {
  it('one nested in another keeps its meaning when the script is written back (bash: `back` and tick not found)', async () => {
    expect((await runShell('echo `echo back\\`tick\\``; echo `echo a\\`echo b\\``')).stdout).toBe('back\nab\n');
  });
});

describe('scripts written back keep their lines', () => {
  // A background job makes the engine write the script back: here-documents stay after their line, and every
  // command keeps the line it had (bash 5.2's output for the same scripts).
  it.each([
    ['true &\ncat <<EOF | wc -l\nx\ny\nEOF\nwait\necho $LINENO', '2\n7\n'],
    ['true &\nf() {\n  cat <<-EOF >&2\n\tin f $LINENO\n\tEOF\n  echo $LINENO\n}\nf 2>&1\nwait', 'in f 3\n6\n'],
    ['true &\nx=$(cat <<EOF\na\nb\nEOF\n)\necho "$x" $LINENO', 'a\nb 7\n'],
    ['true &\nif true\nthen\n  echo $LINENO\nfi; case a in\n  a) echo $LINENO;;\nesac\nwait', '4\n6\n'],
  ])('%s', async (script, stdout) => {
    expect(await bashC(script)).toBe(stdout);
  });
});
