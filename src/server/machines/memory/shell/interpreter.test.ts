import { describe, expect, it } from 'vitest';
import { runShell, testSprite } from '../../../../../test/support/shell-run.ts';

// The bash language as bash's manual gives it, where just-bash needed a patch (patches/just-bash/): each case is what
// real bash prints for the same script.

const tree = async () => {
  const ctx = testSprite();
  await runShell('mkdir -p w/docs w/src/lib "w/sp ace" && cd w && echo a > a.txt && echo b > src/main.py && ln -s docs dlink && ln -s a.txt flink', ctx);
  return ctx;
};

describe('pathname expansion', () => {
  it('a pattern ending in / matches directories and links to them, each with its slash', async () => {
    const ctx = await tree();
    expect(await runShell('cd w && echo */; ls -d */; for d in s*/; do echo "[$d]"; done; echo src/*/', ctx)).toEqual({
      stdout: 'dlink/ docs/ sp ace/ src/\ndlink/\ndocs/\nsp ace/\nsrc/\n[sp ace/]\n[src/]\nsrc/lib/\n',
      stderr: '',
      exit: 0,
    });
    // No directory matches: the word stays as written, as with any other pattern.
    expect((await runShell('cd w/src/lib && echo */', ctx)).stdout).toBe('*/\n');
  });
});

describe('stdout and stderr joined', () => {
  const files = async () => {
    const ctx = testSprite();
    await runShell('mkdir -p w/src && cd w && printf "hello world\\nfoo bar\\n" > a.txt && touch src/lib', ctx);
    return ctx;
  };
  const wcLines = ' 2  4 20 a.txt\nwc: nope: No such file or directory\n 2  4 20 a.txt\n 4  8 40 total\n';

  it('keep the order a program writes them in, through 2>&1, &>, >f 2>&1 and |&', async () => {
    const ctx = await files();
    // GNU wc flushes the counts printed so far before each message; ls reports every operand it cannot access first.
    expect(await runShell('cd w && wc a.txt nope a.txt 2>&1; echo "status=$?"', ctx)).toEqual({ stdout: `${wcLines}status=1\n`, stderr: '', exit: 0 });
    expect((await runShell('cd w && wc a.txt nope a.txt |& cat', ctx)).stdout).toBe(wcLines);
    expect((await runShell('cd w && wc a.txt nope a.txt &> f; cat f', ctx)).stdout).toBe(wcLines);
    expect((await runShell('cd w && ls -1 a.txt nope src >f 2>&1; cat f', ctx)).stdout).toBe("ls: cannot access 'nope': No such file or directory\na.txt\n\nsrc:\nlib\n");
    // Only stderr joined to the pipe: stdout went to /dev/null first.
    expect((await runShell('cd w && wc a.txt nope 2>&1 >/dev/null | cat', ctx)).stdout).toBe('wc: nope: No such file or directory\n');
  });

  it('a program that only buffers its output lets its messages go first', async () => {
    const ctx = await files();
    expect((await runShell("cd w && sed -n p a.txt nope.txt 2>&1 | head -2", ctx)).stdout).toBe("sed: can't read nope.txt: No such file or directory\nhello world\n");
  });
});

describe('output joined from several commands', () => {
  it('keeps bytes that are not UTF-8: process substitution, function calls, groups, subshells', async () => {
    const ctx = testSprite();
    await runShell('printf "3\\n1\\n2\\n" > n.txt', ctx);
    expect(await runShell('gunzip -c <(gzip -c n.txt); gzip -d < <(gzip -c n.txt); gzip -l <(gzip -c n.txt) >/dev/null; echo $?', ctx)).toEqual({ stdout: '3\n1\n2\n3\n1\n2\n0\n', stderr: '', exit: 0 });
    expect((await runShell('f() { printf "é"; printf "\\377"; }; f | od -An -tx1; { printf "\\376"; } | od -An -tx1; (printf "\\375") | od -An -tx1; f > o; od -An -tx1 o', ctx)).stdout).toBe(' c3 a9 ff\n fe\n fd\n c3 a9 ff\n');
    expect((await runShell('f() { gzip -c n.txt; }; f | gunzip | wc -l', ctx)).stdout).toBe('3\n');
  });

  it('and so do loops, if and case', async () => {
    expect((await runShell('for i in 1; do printf "é\\377"; done | od -An -tx1; if true; then printf "\\376"; fi | od -An -tx1; case x in x) printf "\\375";; esac > f; od -An -tx1 f')).stdout).toBe(' c3 a9 ff\n fe\n fd\n');
  });

  it('a command substitution of such output decodes each UTF-8 sequence to one character', async () => {
    expect((await runShell('x=$(f() { printf "é"; }; f; printf "\\377"); echo ${#x}; y=$(printf "é"; printf "ü"); echo ${#y} "$y"')).stdout).toBe('2\n2 éü\n');
  });
});

describe('command search and PATH', () => {
  it('a builtin runs whatever PATH holds and is never hashed', async () => {
    expect(await runShell('PATH=; echo builtin-still-works; printf "%s\\n" x; true && echo t; command -v echo; ls; echo "status=$?"')).toEqual({
      stdout: 'builtin-still-works\nx\nt\necho\nstatus=127\n',
      stderr: 'bash: ls: command not found\n',
      exit: 0,
    });
    expect((await runShell('echo hi >/dev/null; ls >/dev/null; hash')).stdout).toBe('hits\tcommand\n   1\t/usr/bin/ls\n');
  });

  it('an external command, command -v and type are found only in PATH, and assigning PATH forgets hashed ones', async () => {
    expect(await runShell('PATH=/nonexistent; ls 2>/dev/null; echo "status=$?"; command -v ls; echo $?; type ls; echo $?')).toEqual({
      stdout: 'status=127\n1\n1\n',
      stderr: 'bash: type: ls: not found\n',
      exit: 0,
    });
    expect(await runShell('ls >/dev/null; PATH=/nonexistent; ls; echo $?')).toEqual({ stdout: '127\n', stderr: 'bash: ls: command not found\n', exit: 0 });
    expect((await runShell('command -v ls; type ls')).stdout).toBe('/usr/bin/ls\nls is /usr/bin/ls\n');
  });
});

describe('assignments and $(< file)', () => {
  it('$(< FILE) reports a file it cannot open, and a directory gives an empty result silently', async () => {
    expect(await runShell('x=$(< nope.txt); echo "status=$?"; echo "[$(< nope.txt)]"; x=$(< /tmp); echo "status=$?"')).toEqual({
      stdout: 'status=1\n[]\nstatus=0\n',
      stderr: 'bash: nope.txt: No such file or directory\nbash: nope.txt: No such file or directory\n',
      exit: 0,
    });
  });

  it('an assignment-only command has its last command substitution\'s status, or 0, redirected or not', async () => {
    expect(await runShell('false; x=1; echo "s=$?"; false; x=1 >/dev/null; echo "s=$?"; x=$(false) >/dev/null; echo "s=$?"; false; x=$?; echo "s=$? x=$x"; x=$(exit 3) y=2; echo "s=$? $y"; x=$(< nope) 2>/dev/null; echo "s=$?"')).toEqual({
      stdout: 's=0\ns=0\ns=1\ns=0 x=1\ns=3 2\ns=1\n',
      stderr: 'bash: nope: No such file or directory\n',
      exit: 0,
    });
  });
});

describe('arithmetic errors', () => {
  it('an expression that does not parse fails its command with bash\'s message, not 0', async () => {
    expect(await runShell('echo line1\necho $((1 +))\necho "s=$?"\necho $(( 08 ))\necho $(( 2#12 ))\necho $(( 010 + 0x10 + 2#11 ))')).toEqual({
      stdout: 'line1\ns=1\n27\n',
      stderr: 'bash: 1 +: syntax error: operand expected (error token is "+")\nbash: 08: value too great for base (error token is "08")\nbash: 2#12: value too great for base (error token is "2#12")\n',
      exit: 0,
    });
  });

  it('text left over after a whole expression fails too', async () => {
    expect(await runShell('echo $((1 1))\necho "s=$?"')).toEqual({ stdout: 's=1\n', stderr: 'bash: 1: syntax error: invalid arithmetic operator (error token is "1")\n', exit: 0 });
  });

  it('discards the rest of its line, as bash does; the next line runs, in a $(…) too', async () => {
    expect(await runShell('echo a; echo $((1 / 0)); echo same-line\necho "next $?"; x=$(echo $((2 % 0)); echo in); echo "x=$x s=$?"')).toEqual({
      stdout: 'a\nnext 1\nx= s=1\n',
      stderr: 'bash: division by 0\nbash: division by 0\n',
      exit: 0,
    });
  });

  it('fails only its stage of a pipeline', async () => {
    expect(await runShell('echo $(( 08 )) 2>&1 | grep -c "value too great"; echo "s=$? ${PIPESTATUS[*]}"; echo a | echo $((2*)); echo "s=$? ${PIPESTATUS[*]}"')).toEqual({
      stdout: '0\ns=1 1 1\ns=1 0 1\n',
      stderr: 'bash: 08: value too great for base (error token is "08")\nbash: 2*: syntax error: operand expected (error token is "*")\n',
      exit: 0,
    });
  });
});

describe('stdout and stderr gathered from several commands', () => {
  it('keep their order through groups, functions, subshells, loops, if and case', async () => {
    const ctx = testSprite();
    await runShell('mkdir w && printf "x\\n" > w/a.txt', ctx);
    const out = async (script: string) => (await runShell(`cd w && ${script}`, ctx)).stdout;
    expect(await out('{ echo a; ls nope; echo b; } 2>&1')).toBe("a\nls: cannot access 'nope': No such file or directory\nb\n");
    expect(await out('f() { echo a; echo b >&2; echo c; }; f 2>&1 | cat; ( echo d; echo e >&2 ) |& cat')).toBe('a\nb\nc\nd\ne\n');
    expect(await out('for i in 1 2; do echo $i; echo e$i >&2; done 2>&1 | cat')).toBe('1\ne1\n2\ne2\n');
    expect(await out('if true; then echo a; echo b >&2; fi > f 2>&1; case x in x) echo c; echo d >&2;; esac 2>&1; cat f')).toBe('c\nd\na\nb\n');
    // A command's own order inside a group: wc's message comes between its counts.
    expect(await out('{ wc a.txt nope a.txt; echo end >&2; } 2>&1')).toBe('1 1 2 a.txt\nwc: nope: No such file or directory\n1 1 2 a.txt\n2 2 4 total\nend\n');
  });
});

describe('redirections that fail', () => {
  it('a target that cannot be opened fails only its command, and the script goes on', async () => {
    expect(await runShell('echo a > d/nope; echo "s=$?"; ls &> d/x; echo "s=$?"; f() { echo in; }; f > d/x; echo "s=$?"; touch ro; chmod 444 ro; echo a > ro; echo "s=$?"')).toEqual({
      stdout: 's=1\ns=1\ns=1\ns=1\n',
      stderr: 'bash: d/nope: No such file or directory\nbash: d/x: No such file or directory\nbash: d/x: No such file or directory\nbash: ro: Permission denied\n',
      exit: 0,
    });
  });
});

describe('closed descriptors', () => {
  it('output to a stdout closed with >&- is a write error; messages to a closed stderr are lost', async () => {
    expect(await runShell('echo a >&-; echo "s=$?"; printf "" >&-; echo "s=$?"; ls nope 2>&-; echo "s=$?"')).toEqual({
      stdout: 's=1\ns=0\ns=2\n',
      stderr: 'bash: echo: write error: Bad file descriptor\n',
      exit: 0,
    });
  });
});

describe('line numbers', () => {
  it('$LINENO counts the script\'s own lines: statements sharing a line, blank and comment lines', async () => {
    expect((await runShell('echo a; echo $LINENO\necho $LINENO\n\n# note\necho $LINENO; true & echo $LINENO')).stdout).toBe('a\n1\n2\n5\n5\n');
  });
});
