import { describe, expect, it } from 'vitest';
import { runShell, runShellJoined, testSprite } from '../../../../../test/support/shell-run.ts';
import { engineBash, hostBash } from '../../../../../test/support/host-bash.ts';

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
  it('[[ =~ ]] matches leftmost-longest: BASH_REMATCH holds the longest match starting leftmost', async () => {
    expect((await runShell('[[ xabcd =~ ab|abcd ]] && echo "${BASH_REMATCH[0]}"; [[ 1.22.3 =~ [0-9]+|[0-9]+(\\.[0-9]+)+ ]] && echo "${BASH_REMATCH[@]}"')).stdout).toBe('abcd\n1.22.3 .3\n');
  });
  it('letter classes hold letters of any script (C.UTF-8): globs, case, [[ == ]], [[ =~ ]], ${v//pat/}', async () => {
    const r = await runShell(
      'mkdir u && cd u && touch é.txt Ö.txt b.txt && echo [[:alpha:]].txt && echo [[:upper:]].txt; ' +
        'case école in [[:alpha:]]*) echo case;; esac; [[ é == [[:lower:]] ]] && echo eq; [[ Ö =~ ^[[:upper:]]$ ]] && echo re; ' +
        'v=ÉtéX; echo ${v//[[:upper:]]/U} ${v%%[[:lower:]]*}',
    );
    expect(r.stdout).toBe('b.txt Ö.txt é.txt\nÖ.txt\ncase\neq\nre\nUtéU É\n');
  });

  it('a word that matches nothing is left as it was: its quoted parts are not split again nor unescaped', async () => {
    const ctx = await tree();
    // rm with the word split at its blanks would remove the directory `sp`.
    const script = `cd w && mkdir sp && d='sp ace'; rm -rf "$d"/*.none; ls -d sp; a=("$d"/*.none); echo \${#a[@]}; v='  two   words  '; echo ["$v"]; IFS=:; v='a:b'; echo "$v"*; v='a\\*b'; echo "$v"? [\\*]`;
    expect(await runShell(script, ctx)).toEqual({ stdout: 'sp\n1\n[  two   words  ]\na:b*\na\\*b? [*]\n', stderr: '', exit: 0 });
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
    // In a UTF-8 locale ${#x} counts characters (in the C locale, bytes).
    expect((await runShell('LANG=C.UTF-8; x=$(f() { printf "é"; }; f; printf "\\377"); echo ${#x}; y=$(printf "é"; printf "ü"); echo ${#y} "$y"; LANG=C; echo ${#y}')).stdout).toBe('2\n2 éü\n4\n');
  });
});

describe('command search and PATH', () => {
  it('a script run by name has as $0 the path it was named by (PATH\'s path when found there), and counts its #! line', async () => {
    const script =
      'mkdir -p /home/sprite/b/sub && cd /home/sprite/b && printf "echo \\"0=\\$0\\"; nope\\n" > s1 && printf "#!/bin/bash\\necho \\"0=\\$0\\"\\nnope\\necho \\$LINENO\\n" > s2 && chmod +x s1 s2; ' +
      './s1; ./sub/../s2; PATH=$PWD:$PATH; s2';
    expect(await runShell(script)).toEqual({
      stdout: '0=./s1\n0=./sub/../s2\n4\n0=/home/sprite/b/s2\n4\n',
      stderr: './s1: line 1: nope: command not found\n./sub/../s2: line 3: nope: command not found\n/home/sprite/b/s2: line 3: nope: command not found\n',
      exit: 0,
    });
  });
  it('a program whose one argument or environment string is 128 KiB, or whose strings pass 2 MiB, fails as execve does: 126', async () => {
    const script =
      'x=$(printf "%*s" 131071 "" | tr " " a); /bin/true "$x"; echo "s=$?"; x="${x}a"; cat "$x"; echo "s=$?"; echo "$x" | wc -c; ' +
      'y=${x:0:100000}; set --; for i in $(seq 21); do set -- "$@" "$y"; done; true "$@"; echo "s=$?"; /bin/true "$@"; echo "s=$?"; ' +
      'export BIG=$x; echo builtin; bash -c :; echo "s=$?"';
    expect(await runShell(script)).toEqual({
      stdout: 's=0\ns=126\n131073\ns=0\ns=126\nbuiltin\ns=126\n',
      stderr: 'bash: line 1: /usr/bin/cat: Argument list too long\nbash: line 1: /bin/true: Argument list too long\nbash: line 1: /usr/bin/bash: Argument list too long\n',
      exit: 0,
    });
  });

  it('a builtin runs whatever PATH holds and is never hashed', async () => {
    expect(await runShell('PATH=; echo builtin-still-works; printf "%s\\n" x; true && echo t; command -v echo; ls; echo "status=$?"')).toEqual({
      stdout: 'builtin-still-works\nx\nt\necho\nstatus=127\n',
      // An empty PATH looks nowhere: execve of the bare name fails (bash 5.2).
      stderr: 'bash: line 1: ls: No such file or directory\n',
      exit: 0,
    });
    expect((await runShell('echo hi >/dev/null; ls >/dev/null; hash')).stdout).toBe('hits\tcommand\n   1\t/usr/bin/ls\n');
  });

  it('an external command, command -v and type are found only in PATH, and assigning PATH forgets hashed ones', async () => {
    expect(await runShell('PATH=/nonexistent; ls 2>/dev/null; echo "status=$?"; command -v ls; echo $?; type ls; echo $?')).toEqual({
      stdout: 'status=127\n1\n1\n',
      stderr: 'bash: line 1: type: ls: not found\n',
      exit: 0,
    });
    expect(await runShell('ls >/dev/null; PATH=/nonexistent; ls; echo $?')).toEqual({ stdout: '127\n', stderr: 'bash: line 1: ls: command not found\n', exit: 0 });
    expect((await runShell('command -v ls; type ls')).stdout).toBe('/usr/bin/ls\nls is /usr/bin/ls\n');
  });
});

describe('assignments and $(< file)', () => {
  it('$(< FILE) reports a file it cannot open, and a directory gives an empty result silently', async () => {
    expect(await runShell('x=$(< nope.txt); echo "status=$?"; echo "[$(< nope.txt)]"; x=$(< /tmp); echo "status=$?"')).toEqual({
      stdout: 'status=1\n[]\nstatus=0\n',
      stderr: 'bash: line 1: nope.txt: No such file or directory\nbash: line 1: nope.txt: No such file or directory\n',
      exit: 0,
    });
  });

  it('an assignment-only command has its last command substitution\'s status, or 0, redirected or not', async () => {
    expect(await runShell('false; x=1; echo "s=$?"; false; x=1 >/dev/null; echo "s=$?"; x=$(false) >/dev/null; echo "s=$?"; false; x=$?; echo "s=$? x=$x"; x=$(exit 3) y=2; echo "s=$? $y"; x=$(< nope) 2>/dev/null; echo "s=$?"')).toEqual({
      stdout: 's=0\ns=0\ns=1\ns=0 x=1\ns=3 2\ns=1\n',
      stderr: 'bash: line 1: nope: No such file or directory\n',
      exit: 0,
    });
  });
});

describe('arithmetic errors', () => {
  it('an expression that does not parse fails its command with bash\'s message, not 0', async () => {
    expect(await runShell('echo line1\necho $((1 +))\necho "s=$?"\necho $(( 08 ))\necho $(( 2#12 ))\necho $(( 010 + 0x10 + 2#11 ))')).toEqual({
      stdout: 'line1\ns=1\n27\n',
      stderr: 'bash: line 2: 1 +: syntax error: operand expected (error token is "+")\nbash: line 4: 08: value too great for base (error token is "08")\nbash: line 5: 2#12: value too great for base (error token is "2#12")\n',
      exit: 0,
    });
  });

  it('a number too great for its base anywhere in the expression fails it, named with the text up to it', async () => {
    expect(await runShell('echo $(( 1 + 08 + 3 )); echo no\necho "s=$?"; echo $(( 0x1f + 16#ff + 2#12 ))')).toEqual({
      stdout: 's=1\n',
      stderr: 'bash: line 1: 1 + 08: value too great for base (error token is "08")\nbash: line 2: 0x1f + 16#ff + 2#12: value too great for base (error token is "2#12")\n',
      exit: 1,
    });
  });

  it('text left over after a whole expression fails too', async () => {
    expect(await runShell('echo $((1 1))\necho "s=$?"')).toEqual({ stdout: 's=1\n', stderr: 'bash: line 1: 1 1: syntax error in expression (error token is "1")\n', exit: 0 });
  });

  it('discards the rest of its line, as bash does; the next line runs, in a $(…) too', async () => {
    expect(await runShell('echo a; echo $((1 / 0)); echo same-line\necho "next $?"')).toEqual({
      stdout: 'a\nnext 1\n',
      stderr: 'bash: line 1: 1 / 0: division by 0 (error token is "0")\n',
      exit: 0,
    });
    expect(await runShell('x=$(echo $((2 % 0)); echo in); echo "x=$x s=$?"')).toEqual({
      stdout: 'x= s=1\n',
      stderr: 'bash: line 1: 2 % 0: division by 0 (error token is "0")\n',
      exit: 0,
    });
  });

  it('fails only its stage of a pipeline', async () => {
    expect(await runShell('echo $(( 08 )) 2>&1 | grep -c "value too great"; echo "s=$? ${PIPESTATUS[*]}"; echo a | echo $((2*)); echo "s=$? ${PIPESTATUS[*]}"')).toEqual({
      stdout: '0\ns=1 1 1\ns=1 0 1\n',
      stderr: 'bash: line 1: 08: value too great for base (error token is "08")\nbash: line 1: 2*: syntax error: operand expected (error token is "*")\n',
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
  it('a target that cannot be opened fails only its command, and the script goes on (a service: the 0444 file stops it)', async () => {
    expect(await runShell('echo a > d/nope; echo "s=$?"; ls &> d/x; echo "s=$?"; f() { echo in; }; f > d/x; echo "s=$?"; touch ro; chmod 444 ro; echo a > ro; echo "s=$?"', undefined, { service: true })).toEqual({
      stdout: 's=1\ns=1\ns=1\ns=1\n',
      stderr: 'bash: line 1: d/nope: No such file or directory\nbash: line 1: d/x: No such file or directory\nbash: line 1: d/x: No such file or directory\nbash: line 1: ro: Permission denied\n',
      exit: 0,
    });
  });
});

describe('closed descriptors', () => {
  it('output to a stdout closed with >&- is a write error; messages to a closed stderr are lost', async () => {
    expect(await runShell('echo a >&-; echo "s=$?"; printf "" >&-; echo "s=$?"; ls nope 2>&-; echo "s=$?"')).toEqual({
      stdout: 's=1\ns=0\ns=2\n',
      stderr: 'bash: line 1: echo: write error: Bad file descriptor\n',
      exit: 0,
    });
  });
});

describe('redirections to /dev/fd/N', () => {
  it('a program reads /dev/fd/N of a descriptor a redirection opened for reading, as Linux opens what N is open on', async () => {
    const script = 'printf "a\\nb\\n" > f; cat /dev/fd/3 3<f; wc -l /dev/fd/4 4<f; exec 5<f; head -1 /proc/self/fd/5; cat /dev/fd/7; echo "rc=$?"';
    expect(await runShell(script)).toEqual({ stdout: 'a\nb\n2 /dev/fd/4\na\nrc=1\n', stderr: 'cat: /dev/fd/7: No such file or directory\n', exit: 0 });
  });

  it('reach what descriptor N points at, as a duplication does', async () => {
    const script = '{ echo x > /dev/fd/2; } 2>&1 | tr a-z A-Z; ls nope 2>/dev/fd/1 | wc -l; { exec 3>/dev/fd/2; echo c >&3; } 2>&1 | cat; echo e | cat < /dev/fd/0; exec 4>o; echo hi > /dev/fd/4; exec 4>&-; cat o';
    expect(await runShell(script)).toEqual({ stdout: 'X\n1\nc\ne\nhi\n', stderr: '', exit: 0 });
  });

  it('open a regular file the shell holds anew, as Linux does: `>` truncates it, `>>` appends', async () => {
    const r = await runShell('exec 3>f; echo a >&3; echo b > /dev/fd/3; cat f; exec 5>>h; echo one >&5; echo two > /dev/fd/5; echo three >&5; cat h; exec 2>e; echo x >&2; echo y > /dev/stderr; echo z >> /dev/stderr; cat e');
    expect(r).toEqual({ stdout: 'b\ntwo\nthree\ny\nz\n', stderr: '', exit: 0 });
  });

  it('name a missing file when descriptor N is not open', async () => {
    expect(await runShell('echo x > /dev/fd/7; echo "s=$?"')).toEqual({ stdout: 's=1\n', stderr: 'bash: line 1: /dev/fd/7: No such file or directory\n', exit: 0 });
  });
});

describe('line numbers', () => {
  it('$LINENO counts the script\'s own lines: statements sharing a line, blank and comment lines', async () => {
    expect((await runShell('echo a; echo $LINENO\necho $LINENO\n\n# note\necho $LINENO; true & echo $LINENO')).stdout).toBe('a\n1\n2\n5\n5\n');
  });
});

describe('set -e', () => {
  it('is ignored inside a function run before && / || or after !, and in a command substitution', async () => {
    expect(await runShell('set -e; f() { false; echo inner; }; f || echo failed; f && echo and; ! f; echo bang')).toEqual({
      stdout: 'inner\ninner\nand\ninner\nbang\n',
      stderr: '',
      exit: 0,
    });
    expect(await runShell('set -e; x=$(false; echo inner); echo "x=$x"; false; echo never')).toEqual({ stdout: 'x=inner\n', stderr: '', exit: 1 });
  });

  it('a command substitution keeps it under shopt -s inherit_errexit', async () => {
    expect(await runShell('set -e; shopt -s inherit_errexit; x=$(false; echo inner); echo "x=$x"')).toEqual({ stdout: '', stderr: '', exit: 1 });
  });

  it('does not end the script at an assignment after a failed test (an assignment returns 0 without a failing substitution)', async () => {
    expect(await runShell('set -e; i=0; until [ $i -ge 2 ]; do i=$((i+1)); done; echo $i; false || x=1; echo "s=$?"; x=$(false) || echo "failed $?"')).toEqual({
      stdout: '2\ns=0\nfailed 1\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('set -u', () => {
  it('lets "${1:-default}" and friends through for an unset parameter, local or element', async () => {
    expect(await runShell('set -u; echo "${1:-none}"; f() { local x; echo "${x:-unset-local}"; }; f; a=(1); echo "${a[3]:-d}" "${a[3]+set}"; echo "${nope:=assigned}" $nope')).toEqual({
      stdout: 'none\nunset-local\nd \nassigned assigned\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('arithmetic expansion errors', () => {
  // bash 5.2 names the line (`bash: line 2: …`) where 5.1 does not, and counts lines inside a function from its
  // definition: the messages are compared without that place.
  const run = async (script: string) => {
    const r = await runShell(script);
    return { ...r, stderr: r.stderr.replace(/^(bash|environment): (line \d+: )?/gm, '') };
  };

  it('print bash\'s message and drop the rest of their line, at the top level and from a function or loop', async () => {
    expect(await run('echo $((1 / 0)); echo $?')).toEqual({ stdout: '', stderr: '1 / 0: division by 0 (error token is "0")\n', exit: 1 });
    expect(await run('echo a\necho $(( 10 % 0 )); echo no\necho "s=$?"')).toEqual({ stdout: 'a\ns=1\n', stderr: '10 % 0 : division by 0 (error token is "0 ")\n', exit: 0 });
    expect(await run('f() { echo $((1 +)); echo in-f; }\nf; echo same-line\nfor i in 1; do echo $(( 08 )); done; echo same\necho next')).toEqual({
      stdout: 'next\n',
      stderr: '1 +: syntax error: operand expected (error token is "+")\n08: value too great for base (error token is "08")\n',
      exit: 0,
    });
  });

  it('name a number with letters (1e3) as a number too great for its base, with the number as the token', async () => {
    expect(await run('echo $(( 1e3 ))')).toEqual({ stdout: '', stderr: '1e3: value too great for base (error token is "1e3")\n', exit: 1 });
    expect(await run('((1e3+1)); x=12ab; echo $(( x + 1 ))')).toEqual({
      stdout: '',
      stderr: '((: 1e3: value too great for base (error token is "1e3")\n12ab: value too great for base (error token is "12ab")\n',
      exit: 1,
    });
  });

  it('in let read as in (( )): the expression up to the error, then the token; a function names its place', async () => {
    expect(await runShell('let "y = 08 + 1" "z = 1 / 0"; echo rc=$?\nf(){ (( 2/0 )); }; f')).toEqual({
      stdout: 'rc=1\n',
      stderr: 'bash: line 1: let: y = 08: value too great for base (error token is "08")\nenvironment: line 2: ((: 2/0 : division by 0 (error token is "0 ")\n',
      exit: 1,
    });
  });

  it('end only the subshell, command substitution or pipeline stage they are in', async () => {
    expect(await run('(echo $((1/0)); echo in); echo "sub $?"; x=$(echo $((1/0)); echo in); echo "x=[$x]"; echo $((1/0)) | cat; echo "pipe $?"')).toEqual({
      stdout: 'sub 1\nx=[]\npipe 0\n',
      stderr: '1/0: division by 0 (error token is "0")\n'.repeat(3),
      exit: 0,
    });
  });
});

describe('fatal expansion errors', () => {
  const run = async (script: string) => {
    const r = await runShell(script);
    return { ...r, stderr: r.stderr.replace(/^(bash|environment): (line \d+: )?/gm, '') };
  };

  it('set -u ends the shell from inside a function, group or if body (127), and only the subshell or pipeline stage it is in', async () => {
    expect(await run('set -u; f() { echo "$1"; }; f 2>/dev/null; echo "status=$?"')).toEqual({ stdout: '', stderr: '', exit: 127 });
    expect(await run('set -u; (echo $nope); echo "sub=$?"; echo $nope | cat; echo "pipe=$?"; if true; then { echo $nope; }; fi; echo after')).toEqual({
      stdout: 'sub=1\npipe=0\n',
      stderr: 'nope: unbound variable\n'.repeat(3),
      exit: 127,
    });
  });

  it('${v:?word} names the variable and ends the shell (1 under set -e, or from a command substitution)', async () => {
    expect(await run('unset v; echo "${v:?custom message}"; echo after')).toEqual({ stdout: '', stderr: 'v: custom message\n', exit: 127 });
    expect(await run('x=$(echo ${v?}); echo "s=$?"; v=; echo ${v:?} | cat; echo "pipe=$?"; set -e; echo ${v:?}')).toEqual({
      stdout: 's=1\npipe=0\n',
      stderr: 'v: parameter not set\nv: parameter null or not set\nv: parameter null or not set\n',
      exit: 1,
    });
  });
});

describe('arithmetic commands', () => {
  it('take the assignment operators -= and <<=, and the comma operator', async () => {
    expect(await runShell('x=10; (( x -= 4, x *= 2 )); echo $x; y=1; (( y <<= 3 )); echo $y; (( x - 12 )); echo $?')).toEqual({ stdout: '12\n8\n1\n', stderr: '', exit: 0 });
  });

  it('take an operator written against its right operand (x>=1, i<=3, n>>=2), in (( )) and let', async () => {
    expect(await runShell('x=5; ((x>=1)) && echo a; (( x<=9 )) && echo b; n=64; ((n>>=2)); ((n<<=1)); echo $n; a=6; ((a&=3)); ((a|=8)); echo $a; let "k=2<=5" "j=7>=9"; echo $k$j')).toEqual({
      stdout: 'a\nb\n32\n10\n10\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('test and [', () => {
  it('-O and -G are true only for a file of the effective user and group (the sprite user; root under sudo)', async () => {
    const script = 'touch mine; test -O mine; echo $?; test -G mine; echo $?; test -O /etc/passwd; echo $?; [[ -G /etc/passwd ]]; echo $?; test -O nope; echo $?; sudo test -O /etc/passwd; echo $?';
    expect((await runShell(script)).stdout).toBe('0\n0\n1\n1\n1\n0\n');
  });

  it('report an operand of -eq/-lt/… that is not an integer (an empty one too), status 2', async () => {
    const r = await runShell('[ 1 -eq x ]; echo $?; test "" -lt 1; echo $?; [ -5 -lt " 3 " ]; echo $?');
    expect({ ...r, stderr: r.stderr.replace(/^(bash|environment): (line \d+: )?/gm, '') }).toEqual({
      stdout: '2\n2\n0\n',
      stderr: '[: x: integer expression expected\ntest: : integer expression expected\n',
      exit: 0,
    });
  });
});

describe('trap', () => {
  it('runs ERR where set -e would exit (not under || or in a test; in functions only with set -E)', async () => {
    expect(await runShell('trap "echo E \\$?" ERR; false; echo a; false || true; if false; then :; fi; { false; }; f() { false; return 3; }; f; set -E; f; echo b')).toEqual({
      stdout: 'E 1\na\nE 1\nE 3\nE 1\nE 3\nb\n',
      stderr: '',
      exit: 0,
    });
  });

  it('runs RETURN for the function that set it, and for every function under set -T', async () => {
    expect(await runShell('f() { trap "echo ret \\$FUNCNAME" RETURN; echo in; }; f; g() { echo g; }; g; set -T; g; trap -p RETURN')).toEqual({
      stdout: "in\nret f\ng\ng\nret g\ntrap -- 'echo ret $FUNCNAME' RETURN\n",
      stderr: '',
      exit: 0,
    });
  });

  it('runs EXIT when a subshell or the script ends, with the script\'s functions and status', async () => {
    expect(await runShell('(trap "echo sub-trap" EXIT; echo body); echo out; cleanup() { echo "cleaned $?"; }; trap cleanup EXIT; (echo sub2); false')).toEqual({
      stdout: 'body\nsub-trap\nout\nsub2\ncleaned 1\n',
      stderr: '',
      exit: 1,
    });
    expect(await runShell('trap "echo bye; exit 7" EXIT; exit 3')).toEqual({ stdout: 'bye\n', stderr: '', exit: 7 });
  });

  it('runs RETURN when a sourced script ends, ERR with $LINENO of the failed command, and lists EXIT while it runs', async () => {
    expect(await runShell("echo 'echo sourced' > s.sh; trap 'echo R' RETURN; . ./s.sh; trap - RETURN\ntrap 'echo \"line $LINENO\"' ERR\nfalse\ntrap 'trap -p EXIT' EXIT")).toEqual({
      stdout: "sourced\nR\nline 3\ntrap -- 'trap -p EXIT' EXIT\n",
      stderr: '',
      exit: 0,
    });
  });

  it('prints a trap\'s output where bash does: inside loops, functions and subshells, before the next command\'s', async () => {
    expect(await runShell('trap "echo ERR" ERR; for f in a b; do cat $f 2>/dev/null; echo done-$f; done; set -E; ( false; echo in ); trap "echo T" USR1; { kill -USR1 $$; echo x; }')).toEqual({
      stdout: 'ERR\ndone-a\nERR\ndone-b\nERR\nin\nT\nx\n',
      stderr: '',
      exit: 0,
    });
  });

  it("keeps a trap's stderr before the next command's stdout where they meet (bash -c, a group under 2>&1)", async () => {
    const script = "bash -c $'trap \\'echo \"ERR $LINENO\" >&2\\' ERR\\necho \"a $LINENO\"\\nfalse\\nf() {\\n  false\\n}\\nf\\necho \"end $LINENO\"' 2>&1; { trap 'echo t >&2; echo o' ERR; false; echo next; } 2>&1";
    expect(await runShell(script)).toEqual({ stdout: 'a 2\nERR 3\nERR 7\nend 8\nt\no\nnext\n', stderr: '', exit: 0 });
  });

  it('names the command that fired it in $BASH_COMMAND, and shows the parent\'s traps in a subshell that set none', async () => {
    expect(await runShell("trap 'echo \"failed: $BASH_COMMAND\"' ERR; ls /nonexistent 2>/dev/null; saved=$(trap -p ERR); echo \"$saved\"")).toEqual({
      stdout: "failed: ls /nonexistent 2> /dev/null\ntrap -- 'echo \"failed: $BASH_COMMAND\"' ERR\n",
      stderr: '',
      exit: 0,
    });
  });

  it('shows the traps of the nearest shell up the chain that set one, in a subshell of a subshell', async () => {
    expect((await runShell("trap 'echo outer' EXIT; ( echo \"[$(trap -p EXIT)]\" ); ( trap 'echo n' INT; echo \"[$(trap -p)]\"; trap - INT )")).stdout).toBe(
      "[trap -- 'echo outer' EXIT]\n[trap -- 'echo n' SIGINT]\nouter\n",
    );
  });

  it('lists every signal as bash does', async () => {
    const r = await runShell('trap -l | head -2; kill -l | tail -1');
    expect(r.stdout).toBe(' 1) SIGHUP\t 2) SIGINT\t 3) SIGQUIT\t 4) SIGILL\t 5) SIGTRAP\n 6) SIGABRT\t 7) SIGBUS\t 8) SIGFPE\t 9) SIGKILL\t10) SIGUSR1\n63) SIGRTMAX-1\t64) SIGRTMAX\t\n');
  });

  it('runs the trap of a signal the script sends itself, and the script goes on', async () => {
    expect(await runShell('trap "echo got-usr1" USR1; kill -USR1 $$; echo after; trap "" TERM; kill $$; echo still')).toEqual({ stdout: 'got-usr1\nafter\nstill\n', stderr: '', exit: 0 });
    // Sent from a subshell: the shell runs the trap once that subshell is done.
    expect(await runShell('trap "echo outer" USR1; (kill -USR1 $$; echo sub); echo after')).toEqual({ stdout: 'sub\nouter\nafter\n', stderr: '', exit: 0 });
  });
});

describe('select', () => {
  it('prints the menu and PS3 on stderr, reads REPLY, sets the name, until break or end of input', async () => {
    expect(await runShell("select x in apple banana cherry; do echo \"x=$x REPLY=$REPLY\"; done <<< $'2\\n\\nfoo' 2>&1; echo \"end $?\"")).toEqual({
      stdout: '1) apple\n2) banana\n3) cherry\n#? x=banana REPLY=2\n#? 1) apple\n2) banana\n3) cherry\n#? x= REPLY=foo\n#? \nend 1\n',
      stderr: '',
      exit: 0,
    });
    expect(await runShell("PS3='pick: '; set -- p q; select x; do echo \"$x\"; break; done <<< 2")).toEqual({ stdout: 'q\n', stderr: '1) p\n2) q\npick: ', exit: 0 });
  });

  it('lays a long menu out in columns, as bash does for 80 columns', async () => {
    const r = await runShell('select x in $(seq 1 12); do break; done <<< 1');
    expect(r.stderr).toBe('1) 1\t 3) 3\t 5) 5\t 7) 7\t 9) 9\t11) 11\n2) 2\t 4) 4\t 6) 6\t 8) 8\t10) 10\t12) 12\n#? ');
  });
});

describe('caller', () => {
  it('names the calling frame inside a function and returns 1 outside one', async () => {
    expect(await runShell('caller; echo "s=$?"; f() { caller 0 | cut -d" " -f2-; caller 1; echo "s=$?"; }; g() { f; }; g')).toEqual({
      stdout: 's=1\ng environment\ns=1\n',
      stderr: '',
      exit: 0,
    });
  });
  it('in a script run as bash FILE the bottom frame is main; a bash -c string has none', async () => {
    const ctx = testSprite();
    await runShell(`printf 'f() { caller 0; caller; }\\nf\\ncaller\\n' > /tmp/cl.sh; printf 'g() { caller 0; }\\nh() { g; }\\nh\\n' > /tmp/cl2.sh`, ctx);
    expect((await runShell('cd /tmp && bash cl.sh && bash cl2.sh', ctx)).stdout).toBe('2 main cl.sh\n2 cl.sh\n0 NULL\n2 h cl2.sh\n');
    expect(await runShell('f() { caller 0; echo "s=$?"; caller; }; f', ctx)).toEqual({ stdout: 's=1\n1 NULL\n', stderr: '', exit: 0 });
  });
});

describe('a closed stdout', () => {
  it('is a write error in the writer\'s words: the shell\'s for a builtin, with its line; the program\'s own', async () => {
    const script = 'printf "a\\n" > f; echo x >&-; echo "rc=$?"; cat f >&-; echo "rc=$?"; grep a f >&-; echo "rc=$?"; printf "echo x >&-\\n" > t.sh; bash t.sh; shopt -s failglob; echo *.none';
    expect(await runShell(script)).toEqual({
      stdout: 'rc=1\nrc=1\nrc=2\n',
      stderr: 'bash: line 1: echo: write error: Bad file descriptor\ncat: standard output: Bad file descriptor\ngrep: write error: Bad file descriptor\nt.sh: line 1: echo: write error: Bad file descriptor\nbash: line 1: no match: *.none\n',
      exit: 1,
    });
    expect(await runShell('mkdir d; bash d; echo "rc=$?"; sh d; echo "rc=$?"')).toEqual({ stdout: 'rc=126\nrc=0\n', stderr: 'd: d: Is a directory\n', exit: 0 });
  });
});

describe('shell startup', () => {
  it('bash -i reads ~/.bashrc (--rcfile FILE instead, none with --norc) and has i in $-; BASH_ENV is read by bash -c', async () => {
    const script = 'cd; printf "echo rc-read\\nFROM_RC=1\\n" > .bashrc; bash -ic \'echo "$- $FROM_RC"\' 2>/dev/null; bash --norc -i -c \'echo "${FROM_RC:-none}"\' 2>/dev/null; printf "be=set\\n" > be; BASH_ENV=$PWD/be bash -c \'echo "$- $be"\'; BASH_ENV=/nope bash -c \'echo quiet\'';
    expect(await runShell(script)).toEqual({ stdout: 'rc-read\nhiBHc 1\nnone\nhBc set\nquiet\n', stderr: '', exit: 0 });
    expect((await runShell('bash -ic true')).stderr).toMatch(/^bash: cannot set terminal process group \(\d+\): Inappropriate ioctl for device\nbash: no job control in this shell\n$/);
  });

  it('an empty PATH entry is the current directory', async () => {
    const script = 'mkdir -p /tmp/p && cd /tmp/p && printf "#!/bin/sh\\necho run\\n" > prog && chmod +x prog; PATH="$PATH:"; prog; command -v prog; PATH=/usr/bin::/bin prog';
    expect(await runShell(script)).toEqual({ stdout: 'run\n./prog\nrun\n', stderr: '', exit: 0 });
  });
});

describe('login_shell', () => {
  it('is on in bash -l and off otherwise', async () => {
    expect(await runShell("bash -lc 'shopt -q login_shell && echo login'; bash -c 'shopt -q login_shell || echo not'; bash -l -c 'shopt -p login_shell'")).toEqual({
      stdout: 'login\nnot\nshopt -s login_shell\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('a nested shell', () => {
  it('has its own $$: kill $$ in it ends it alone (128+n, the signal named), and its traps are its own', async () => {
    expect(await runShell("bash -c 'kill -TERM $$; echo no'; echo \"s=$?\"; echo $$ > p; bash -c 'echo $$' > q; cmp -s p q || echo differ; trap 'echo outer' EXIT; bash -c 'trap \"echo inner\" EXIT; echo hi'")).toEqual({
      stdout: 's=143\ndiffer\nhi\ninner\nouter\n',
      stderr: 'Terminated\n',
      exit: 0,
    });
  });
});

describe('a nested shell killed by a signal (patches/just-bash/with-uncaught-signal-death.mjs)', () => {
  it('runs its EXIT trap first (not for KILL) and still dies of the signal, whatever the trap exits with', async () => {
    const r = await runShell("bash -c 'trap \"echo bye; exit 7\" EXIT; kill $$'; echo \"s=$?\"; bash -c 'trap \"echo no\" EXIT; kill -9 $$'; echo \"s=$?\"");
    expect(r.stdout).toBe('bye\ns=143\ns=137\n');
    expect(r.stderr).toMatch(/^Terminated\nbash: line 1: +\d+ Killed {18}bash -c 'trap "echo no" EXIT; kill -9 \$\$'\n$/);
  });
  it('is reported by its parent as bash reports it: the place, pid, signal and command; nothing for INT, in a pipe or a substitution', async () => {
    const r = await runShell("f() { sh -c 'kill -HUP $$'; }; f; x=$(sh -c 'kill -9 $$'); sh -c 'kill -9 $$' | cat; sh -c 'kill -INT $$'; echo \"s=$?\"");
    expect(r.stdout).toBe('s=130\n');
    expect(r.stderr).toMatch(/^environment: line 1: +\d+ Hangup {18}sh -c 'kill -HUP \$\$'\n$/);
  });
  it('run as the last command of a bash -c script is that shell dying, which its own parent reports', async () => {
    const r = await runShell("bash -c 'sh -c \"kill -9 \\$\\$\"'; echo \"s=$?\"; bash -c 'sh -c \"kill -9 \\$\\$\"; echo after'");
    expect(r.stdout).toBe('s=137\nafter\n');
    expect(r.stderr).toMatch(/^bash: line 1: +\d+ Killed {18}bash -c .*\nbash: line 1: +\d+ Killed {18}sh -c .*\n$/);
  });
});

describe('a subshell that signals its own $BASHPID (patches/just-bash/with-uncaught-subshell-kill.mjs)', () => {
  it('dies of the signal, reported by its shell; a trap it set runs instead, an ignored signal is ignored', async () => {
    const r = await runShell('(kill $BASHPID; echo no); echo "s=$?"; ( kill -KILL $BASHPID ); echo "s=$?"; (trap "echo t" TERM; kill $BASHPID; echo after); (trap "" TERM; kill $BASHPID; echo ign); x=$(kill -HUP $BASHPID; echo no); echo "[$x] $?"');
    expect(r.stdout).toBe('s=143\ns=137\nt\nafter\nign\n[] 129\n');
    expect(r.stderr).toMatch(/^Terminated\nbash: line 1: +\d+ Killed {18}\( kill -KILL \$BASHPID \)\n$/);
  });
});

describe('an option a declaring builtin does not take (patches/just-bash/with-usage-on-invalid-option.mjs)', () => {
  it('names declare as declare in its other messages', async () => {
    expect((await runShell('declare -- -Z; declare -p nope; typeset -- -Z')).stderr).toBe("bash: line 1: declare: `-Z': not a valid identifier\nbash: line 1: declare: nope: not found\nbash: line 1: typeset: `-Z': not a valid identifier\n");
  });
  it('is refused with the builtin\'s name and usage line, status 2', async () => {
    const r = await runShell('declare -Z x; echo "s=$?"; f() { local -aZ x; }; f; export -Z x; readonly -Z x; echo "s=$?"');
    expect(r.stdout).toBe('s=2\ns=2\n');
    expect(r.stderr).toBe(
      'bash: line 1: declare: -Z: invalid option\ndeclare: usage: declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]\n' +
        'environment: line 1: local: -Z: invalid option\nlocal: usage: local [option] name[=value] ...\n' +
        'bash: line 1: export: -Z: invalid option\nexport: usage: export [-fn] [name[=value] ...] or export -p\n' +
        'bash: line 1: readonly: -Z: invalid option\nreadonly: usage: readonly [-aAf] [name[=value] ...] or readonly -p\n',
    );
  });
});

describe('syntax errors', () => {
  it('name the token found where a command is missing, as bash does, and exit 2', async () => {
    const cases: Array<[string, string]> = [
      ['if then fi', 'then'],
      ['while do :; done', 'do'],
      ['( )', ')'],
      ['{ }', '}'],
      ['echo a; ; echo b', ';'],
      ['echo a | | cat', '|'],
      ['echo a && && b', '&&'],
      ['echo a )', ')'],
    ];
    for (const [script, token] of cases) {
      expect(await runShell(script), script).toEqual({
        stdout: '',
        stderr: `bash: -c: line 1: syntax error near unexpected token \`${token}'\nbash: -c: line 1: \`${script}'\n`,
        exit: 2,
      });
    }
  });

  it('in eval: the lines before it run, then bash\'s message and status 2', async () => {
    const r = await runShell('eval "echo a\nif then fi"; echo "s=$?"; eval "if true"; echo "s=$?"');
    // Lines count from the line the eval's statement ends on (the text's own newline is a line of the script).
    expect(r).toEqual({
      stdout: 'a\ns=2\ns=2\n',
      stderr: "bash: eval: line 3: syntax error near unexpected token `then'\nbash: eval: line 3: `if then fi'\nbash: eval: line 3: syntax error: unexpected end of file\n",
      exit: 0,
    });
  });

  it('in eval: `NAME (` wants `)` and meets the end of the text; under set -e only the first line, and the shell leaves', async () => {
    expect(await runShellJoined("exec 2>&1; eval $'echo a\\necho b\\nbad ('; echo \"s=$?\"; set -e; eval 'fi'; echo not-here")).toMatchObject({
      joined: "a\nb\nbash: eval: line 3: syntax error near unexpected token `newline'\nbash: eval: line 3: `bad ('\ns=2\nbash: eval: line 1: syntax error near unexpected token `fi'\n",
      exit: 2,
    });
  });

  it('in a sourced file: the complete commands before it run, FILE: line N: …, and source returns 2 (patches/just-bash/when-sourced-syntax-error.mjs)', async () => {
    const script = "exec 2>&1; printf 'X=1\\nf() { echo in-f; }\\necho one\\nif then\\necho after\\n' > bad.sh; source ./bad.sh; echo \"s=$? X=$X\"; f; if . ./bad.sh; then :; else echo \"failed $?\"; fi";
    expect(await runShellJoined(script)).toMatchObject({
      joined: "one\n./bad.sh: line 4: syntax error near unexpected token `then'\n./bad.sh: line 4: `if then'\ns=2 X=1\nin-f\none\n./bad.sh: line 4: syntax error near unexpected token `then'\n./bad.sh: line 4: `if then'\nfailed 2\n",
      exit: 0,
    });
    // An open construct at the end of the file; under set -e the first line only, and the shell leaves with 2.
    expect(await runShellJoined("exec 2>&1; printf 'echo one\\ncase x in\\n' > b.sh; . ./b.sh; echo \"s=$?\"; set -e; printf 'echo two\\nfi\\n' > c.sh; . ./c.sh; echo no")).toMatchObject({
      joined: "one\n./b.sh: line 3: syntax error: unexpected end of file\ns=2\ntwo\n./c.sh: line 2: syntax error near unexpected token `fi'\n",
      exit: 2,
    });
  });

  it('inside backquotes: met when the substitution runs, status 2, the script goes on (patches/just-bash/when-backquote-syntax-error.mjs)', async () => {
    const script = 'exec 2>&1; echo before; x=`echo a; fi`; echo "x=[$x] s=$?"; for i in 1; do y=`echo $i\nfi`; echo "y=[$y] s=$?"; done; f() { echo "`done`"; }; f; declare -f f';
    expect(await runShellJoined(script)).toMatchObject({
      joined:
        "before\nbash: command substitution: line 1: syntax error near unexpected token `fi'\nbash: command substitution: line 1: `echo a; fi'\nx=[] s=2\n" +
        "bash: command substitution: line 3: syntax error near unexpected token `fi'\nbash: command substitution: line 3: `fi'\ny=[1] s=2\n" +
        "environment: command substitution: line 2: syntax error near unexpected token `done'\nenvironment: command substitution: line 2: `done'\n\n" +
        'f () \n{ \n    echo "`done`"\n}\n',
      exit: 0,
    });
  });

  it('inside $(…): the script\'s own error, naming `)` for a text cut short; in eval or a sourced file the shell leaves (patches/just-bash/when-substitution-syntax-error.mjs)', async () => {
    expect(await runShell('echo before\nx=$(echo a; if)\necho after')).toEqual({
      stdout: 'before\n',
      stderr: "bash: -c: line 2: syntax error near unexpected token `)'\nbash: -c: line 2: `x=$(echo a; if)'\n",
      exit: 127,
    });
    expect(await runShell("eval 'x=$(fi)'; echo no")).toEqual({ stdout: '', stderr: "bash: eval: line 1: syntax error near unexpected token `fi'\nbash: eval: line 1: `x=$(fi)'\n", exit: 127 });
    expect(await runShell("printf 'echo one\\nx=$(echo a; if)\\necho three\\n' > c1.sh; bash c1.sh; echo \"s=$?\"")).toEqual({
      stdout: 'one\ns=2\n',
      stderr: "c1.sh: line 2: syntax error near unexpected token `)'\nc1.sh: line 2: `x=$(echo a; if)'\n",
      exit: 0,
    });
  });

  it('an arithmetic command reports a broken or failing expression and returns 1', async () => {
    const r = await runShell('(( 1 + )); echo "s=$?"; (( 1/0 )); echo "s=$?"');
    expect({ ...r, stderr: r.stderr.replace(/^(bash|environment): (line \d+: )?/gm, '') }).toEqual({
      stdout: 's=1\ns=1\n',
      stderr: '((: 1 + : syntax error: operand expected (error token is "+ ")\n((: 1/0 : division by 0 (error token is "0 ")\n',
      exit: 0,
    });
  });
});

describe("bash's own variables in the listings (patches/just-bash/when-listing-shell-variables.mjs)", () => {
  // Real bash 5.2's output for each script (bash -c), the values that differ per machine cut off.
  it('set and declare -p list them, the dynamic ones by name only; set ends with the functions', async () => {
    const names = 'BASHPID|BASH_ALIASES|BASH_ARGC|BASH_ARGV|BASH_CMDS|BASH_LINENO|BASH_SOURCE|DIRSTACK|EUID|FUNCNAME|LINENO|OPTERR|PPID|RANDOM|UID';
    const r = await runShell(`alias ll='ls -l'; f() { echo hi; }; true; declare -p | grep -E '^declare -[-a-zA-Z]+ (${names})\\b' | cut -d= -f1; set | grep -E '^(${names})=' | cut -d= -f1; set | tail -4`);
    expect(r).toEqual({
      stdout:
        'declare -i BASHPID\ndeclare -A BASH_ALIASES\ndeclare -a BASH_ARGC\ndeclare -a BASH_ARGV\ndeclare -A BASH_CMDS\ndeclare -a BASH_LINENO\ndeclare -a BASH_SOURCE\n' +
        'declare -a DIRSTACK\ndeclare -ir EUID\ndeclare -a FUNCNAME\ndeclare -- LINENO\ndeclare -- OPTERR\ndeclare -ir PPID\ndeclare -i RANDOM\ndeclare -ir UID\n' +
        'BASH_ALIASES\nBASH_ARGC\nBASH_ARGV\nBASH_CMDS\nBASH_LINENO\nBASH_SOURCE\nDIRSTACK\nEUID\nOPTERR\nPPID\nUID\n' +
        'f () \n{ \n    echo hi\n}\n',
      stderr: '',
      exit: 0,
    });
  });

  it('an attribute with no names lists the variables that have it; readonly -p shows EUID, PPID, UID', async () => {
    const r = await runShell("declare -i n=3; declare -l low=AbC; declare -i | cut -d= -f1; declare -l; declare -a | cut -d= -f1; declare -A | cut -d= -f1; readonly -p | cut -d= -f1; declare -x | grep -c OLDPWD");
    expect(r).toEqual({
      stdout:
        'declare -i BASHPID\ndeclare -ir EUID\ndeclare -i HISTCMD\ndeclare -i OPTIND\ndeclare -ir PPID\ndeclare -i RANDOM\ndeclare -i SRANDOM\ndeclare -ir UID\ndeclare -i n\n' +
        'declare -l low="abc"\n' +
        'declare -a BASH_ARGC\ndeclare -a BASH_ARGV\ndeclare -a BASH_LINENO\ndeclare -a BASH_SOURCE\ndeclare -ar BASH_VERSINFO\ndeclare -a DIRSTACK\ndeclare -a FUNCNAME\ndeclare -a GROUPS\ndeclare -a PIPESTATUS\n' +
        'declare -A BASH_ALIASES\ndeclare -A BASH_CMDS\n' +
        'declare -r BASHOPTS\ndeclare -ar BASH_VERSINFO\ndeclare -ir EUID\ndeclare -ir PPID\ndeclare -r SHELLOPTS\ndeclare -ir UID\n1\n',
      stderr: '',
      exit: 0,
    });
  });

  it('by name: FUNCNAME in a function, BASH_ARGC at the top, a dynamic one with its value; posix export/readonly forms', async () => {
    const r = await runShell('f() { declare -p FUNCNAME; }; f; declare -p BASH_ARGC BASH_ARGV DIRSTACK; declare -p SECONDS | cut -d= -f1; set -o posix; export XQ=1; readonly -a RA=(x); export -p | grep XQ; readonly -p | grep RA');
    expect(r).toEqual({
      stdout: 'declare -a FUNCNAME=([0]="f")\ndeclare -a BASH_ARGC=([0]="0")\ndeclare -a BASH_ARGV=()\ndeclare -a DIRSTACK=([0]="/home/sprite")\ndeclare -i SECONDS\nexport XQ="1"\nreadonly -a RA=([0]="x")\n',
      stderr: '',
      exit: 0,
    });
  });

  it('$_ in a stage of a pipeline is what it was before the pipeline', async () => {
    expect((await runShell('true; echo "[$_]" | cat; echo x | echo "[$_]"; echo a b; declare -p | grep "^declare -- _="')).stdout).toBe('[true]\n[true]\na b\ndeclare -- _="b"\n');
  });
});

describe('bytes that are not UTF-8 in shell strings (patches/just-bash/when-bytes-not-utf8.mjs)', () => {
  // Real bash 5.2's output for each script.
  it('$\'\\xff\' and read keep the byte: one character, written back as itself, one byte under LC_ALL=C', async () => {
    const r = await runShell("x=$'a\\xffb'; echo -n \"$x\" | od -An -tx1; echo ${#x}; (LC_ALL=C; echo ${#x}); printf 'c\\xe9\\n' | { read -r v; printf %s \"$v\" | od -An -tx1; }; printf %s \"${x//$'\\xff'/-}\" \"${x:1:1}\" | od -An -tx1");
    expect(r).toEqual({ stdout: ' 61 ff 62\n3\n3\n 63 e9\n 61 2d 62 ff\n', stderr: '', exit: 0 });
  });

  it('a command substitution of such bytes keeps them; declare -p and printf %q quote them in octal', async () => {
    const r = await runShell("v=$(printf 'x\\xfe\\xff'); echo ${#v}; printf %s \"$v\" > f; od -An -tx1 f; declare -p v; printf '%q\\n' \"$v\"; set | grep '^v='");
    expect(r).toEqual({ stdout: "3\n 78 fe ff\ndeclare -- v=$'x\\376\\377'\n$'x\\376\\377'\nv=$'x\\376\\377'\n", stderr: '', exit: 0 });
  });
});

describe('set -o and $-', () => {
  it('list the options as bash does, errtrace and functrace included', async () => {
    const r = await runShell("set -E; set -o | grep -E '^(braceexpand|errexit|errtrace|functrace) '; set +o | grep -E ' (hashall|errtrace|xtrace)$'; shopt -o errtrace");
    expect(r).toEqual({
      stdout: 'braceexpand    \ton\nerrexit        \toff\nerrtrace       \ton\nfunctrace      \toff\nset -o errtrace\nset -o hashall\nset +o xtrace\nerrtrace       \ton\n',
      stderr: '',
      exit: 0,
    });
  });

  it('$- has bash\'s letters in bash\'s order', async () => {
    expect((await runShell('echo $-; set -eu; echo $-; set -E -C; echo $-')).stdout).toBe('hBc\nehuBc\nehuBCEc\n');
  });
});

describe('64-bit arithmetic', () => {
  it('shifts, bitwise operators and ** work on 64 bits and wrap, as bash\'s intmax_t', async () => {
    expect(await runShell('echo $(( 1 << 40 )) $(( 1 << 63 )) $(( 2 ** 64 )) $(( 0xffffffffffffffff )) $(( (1<<40) | 1 )) $(( ~0 << 4 )); x=1; (( x <<= 35, x /= 2 )); echo $x')).toEqual({
      stdout: '1099511627776 -9223372036854775808 0 -1 1099511627777 -16\n17179869184\n',
      stderr: '',
      exit: 0,
    });
  });

  it('a fraction is an evaluation error of its line, not a parse failure of the script', async () => {
    const r = await runShell('echo a; echo $(( 3.5 )); echo no\necho next');
    expect({ ...r, stderr: r.stderr.replace(/^(bash|environment): (line \d+: )?/gm, '') }).toEqual({ stdout: 'a\nnext\n', stderr: '3.5 : syntax error: invalid arithmetic operator (error token is ".5 ")\n', exit: 0 });
  });
});

describe('arithmetic variables', () => {
  it('reads a value with a leading 0 as octal, and refuses to assign a readonly variable', async () => {
    const r = await runShell('x=010; echo $(( x + 0 )) $(( 10#$x )); readonly ro=1; (( ro = 2 )); echo "s=$? ro=$ro"; echo $(( ro += 1 )); echo dropped\necho next');
    expect({ ...r, stderr: r.stderr.replace(/^(bash|environment): (line \d+: )?/gm, '') }).toEqual({
      stdout: '8 10\ns=1 ro=1\nnext\n',
      stderr: 'ro: readonly variable\nro: readonly variable\n',
      exit: 0,
    });
  });
});

describe('BASH_SUBSHELL', () => {
  it('counts ( ) subshells and command substitutions, not pipeline stages', async () => {
    expect((await runShell('echo $BASH_SUBSHELL; (echo $BASH_SUBSHELL; (echo $BASH_SUBSHELL)); echo $(echo $BASH_SUBSHELL); echo $BASH_SUBSHELL | cat')).stdout).toBe('0\n1\n2\n1\n0\n');
  });
});

describe('traps in a nested shell', () => {
  it('print in bash\'s order there too', async () => {
    expect(await runShell("bash -c 'trap \"echo T\" TERM; kill $$; echo after; trap \"echo E\" ERR; false; echo end'; echo \"st $?\"")).toEqual({
      stdout: 'T\nafter\nE\nend\nst 0\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('globstar', () => {
  it('** matches zero or more directories, and everything below as the last component', async () => {
    const ctx = await tree();
    await runShell('echo x > w/src/lib/util.ts', ctx);
    const script = 'cd w && shopt -s globstar; echo src/**; echo **/; echo src/**/; echo **/lib **/*.py; echo */**; echo flink/** a**; echo .*/**';
    expect(await runShell(script, ctx)).toEqual({
      stdout:
        'src/ src/lib src/lib/util.ts src/main.py\ndlink/ docs/ sp ace/ src/ src/lib/\nsrc/ src/lib/\nsrc/lib src/main.py\n' +
        'dlink docs sp ace src src/lib src/lib/util.ts src/main.py\nflink/** a.txt\n.*/**\n',
      stderr: '',
      exit: 0,
    });
    // Without the option, ** is *.
    expect((await runShell('cd w && echo src/**', ctx)).stdout).toBe('src/lib src/main.py\n');
  });
});

describe('globskipdots', () => {
  it('a dot pattern never matches . and .., but a written .. stays', async () => {
    const ctx = await tree();
    expect((await runShell('cd w && echo .* .*/; echo */.. | wc -w; mkdir .cfg; echo .*/; echo .*; shopt -u globskipdots; echo .*', ctx)).stdout).toBe(
      '.* .*/\n5\n.cfg/\n.cfg\n. .. .cfg\n',
    );
  });
});

describe('nocaseglob', () => {
  it('pathname expansion ignores case while the option is set', async () => {
    const ctx = await tree();
    expect((await runShell('cd w && shopt -s nocaseglob; echo *.TXT S*/*.PY [a]*; shopt -u nocaseglob; echo *.TXT', ctx)).stdout).toBe('a.txt src/main.py a.txt\n*.TXT\n');
  });
});

describe('pathname expansion through links', () => {
  it('later components of a pattern go on through a link to a directory', async () => {
    const ctx = await tree();
    expect((await runShell('cd w && echo x > docs/README.md && echo */*.md; echo dlink/* flink/*', ctx)).stdout).toBe('dlink/README.md docs/README.md\ndlink/README.md flink/*\n');
  });
});

describe('case modification', () => {
  it('applies to each element of an array or the positional parameters, and ^pattern to the first character only', async () => {
    const script = 'a=(apple "big cherry"); printf "[%s]" "${a[@]^}" "${a[*]^^}" ${a[@]^}; echo; set -- ab cd; printf "[%s]" "${@^}" "${*^^}"; echo; x=hello; echo ${x^l} ${x^^l} ${x^h}';
    expect(await runShell(script)).toEqual({ stdout: '[Apple][Big cherry][APPLE BIG CHERRY][Apple][Big][cherry]\n[Ab][Cd][AB CD]\nhello heLLo Hello\n', stderr: '', exit: 0 });
  });
});

describe('parameter transformations', () => {
  it('@P expands the prompt string, @Q quotes as bash does, @A @K @k write attributes and arrays', async () => {
    const script = [
      'x=hello; p="\\$x \\$(echo c) \\$((1+2)) \\# \\!"; echo "${p@P}"',
      `s="it's"; t=$'a\\tb'; echo "\${s@Q}" "\${t@Q}"`,
      'declare -i n=3; echo "${n@A}"',
      'a=(x "y z"); echo "${a[@]@A}"; echo "${a[@]@K}"; printf "[%s]" "${a[@]@k}"; echo',
      'set -- "a b" c; printf "[%s]" "${@@Q}" "${*@U}"; echo',
    ].join('\n');
    expect(await runShell(script)).toEqual({
      stdout: `hello c 3 0 1\n'it'\\''s' $'a\\tb'\ndeclare -i n='3'\ndeclare -a a=([0]="x" [1]="y z")\n0 "x" 1 "y z"\n[0][x][1][y z]\n['a b']['c'][A B C]\n`,
      stderr: '',
      exit: 0,
    });
  });
});

describe('shopt', () => {
  it('knows every bash option with its default, prints them as bash does, and BASHOPTS names the ones set', async () => {
    expect(await runShell('shopt | wc -l; shopt extglob patsub_replacement; echo $?; shopt -s globstar; echo $BASHOPTS')).toEqual({
      stdout:
        '57\nextglob        \toff\npatsub_replacement\ton\n1\n' +
        'checkwinsize:cmdhist:complete_fullquote:extquote:force_fignore:globasciiranges:globskipdots:globstar:hostcomplete:interactive_comments:patsub_replacement:progcomp:promptvars:sourcepath\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('patsub_replacement', () => {
  it('an unquoted & in the replacement is the matched text; a quoted one, or the option off, is &', async () => {
    const script = 's=abcb; printf "[%s]" "${s/b/[&]}" "${s//b/\\&}" "${s/b/"&"}" "${s/b/\\\\&}" "${s/%b/_&}"; a=(ab cb); printf "[%s]" "${a[@]/b/<&>}" "${a[@]/b/\\$&}"; shopt -u patsub_replacement; printf "[%s]" "${s/b/[&]}"; echo';
    expect((await runShell(script)).stdout).toBe('[a[b]cb][a&c&][a&cb][a\\bcb][abc_b][a<b>][c<b>][a$b][c$b][a[&]cb]\n');
  });
});

describe("bash's own variables", () => {
  it('BASH_SUBSHELL counts subshells and substitutions, $- lists the flags in order and ends in c, BASH_VERSINFO is set', async () => {
    const script = 'echo $BASH_SUBSHELL; (echo $BASH_SUBSHELL; (echo $BASH_SUBSHELL)); echo $(echo $BASH_SUBSHELL) $( (echo $BASH_SUBSHELL) ); { echo $BASH_SUBSHELL; }; echo $-; set -eu; echo $-; echo ${#BASH_VERSINFO[@]} ${BASH_VERSINFO[4]} ${BASH_VERSINFO[5]}';
    expect(await runShell(script)).toEqual({ stdout: '0\n1\n2\n1 2\n0\nhBc\nehuBc\n6 release x86_64-pc-linux-gnu\n', stderr: '', exit: 0 });
  });

  it('${#@} counts the positional parameters; EPOCHSECONDS, EPOCHREALTIME, SRANDOM and GROUPS are set', async () => {
    const script = 'set -- a b c d; echo ${#@} ${#*}; [ -n "$EPOCHSECONDS" ] && echo epoch; [[ $EPOCHREALTIME == [0-9]*.[0-9][0-9][0-9][0-9][0-9][0-9] ]] && echo real; [[ $SRANDOM == [0-9]* ]] && echo srandom; echo ${#GROUPS[@]} $GROUPS';
    expect((await runShell(script)).stdout).toBe('4 4\nepoch\nreal\nsrandom\n3 1001\n');
  });

  it('BASH_EXECUTION_STRING is the -c script, in a child shell too', async () => {
    const script = `echo $BASH_EXECUTION_STRING; bash -c 'echo "[$BASH_EXECUTION_STRING]" $-'`;
    expect((await runShell(script)).stdout).toBe(`${script}\n[echo "[$BASH_EXECUTION_STRING]" $-] hBc\n`);
  });

  it('RANDOM=n seeds the sequence bash gives', async () => {
    expect((await runShell('RANDOM=42; echo $RANDOM $RANDOM $RANDOM; RANDOM=7; a=$RANDOM; RANDOM=7; [ $a = $RANDOM ] && echo same')).stdout).toBe('17772 26794 1435\nsame\n');
  });
});

describe('compgen, type and child shells', () => {
  it('compgen -b lists the builtins; type knows an alias only while aliases expand', async () => {
    expect((await runShell('compgen -b | wc -l; compgen -b | grep -cx cd; alias ll="ls -l"; type -t ll; echo $?; shopt -s expand_aliases; alias l2=ls; type -t l2')).stdout).toBe('61\n1\n1\nalias\n');
  });

  it("a child shell's shopt changes stay in it", async () => {
    expect((await runShell('bash -c "shopt -s nullglob"; echo *.zz')).stdout).toBe('*.zz\n');
  });
});

describe('extended patterns', () => {
  it('!(…) is a pattern word as an argument or a case pattern, matched as anything but the patterns', async () => {
    const ctx = await tree();
    const script = 'cd w\nshopt -s extglob\nfor s in file.txt file.md; do case $s in !(*.txt)) echo "$s other";; *) echo "$s txt";; esac; done; echo !(*.*) src/!(*.py); [[ ab == a!(c) ]] && echo y';
    expect(await runShell(script, ctx)).toEqual({ stdout: 'file.txt txt\nfile.md other\ndlink docs flink sp ace src src/lib\ny\n', stderr: '', exit: 0 });
    // At the start of a command it is still `!` before a subshell.
    expect((await runShell('!(false) && echo neg')).stdout).toBe('neg\n');
  });

  it('are a syntax error on the line that enables extglob, as bash reads a line before running it', async () => {
    expect(await runShell('echo start\nshopt -s extglob; echo @(a|b)')).toEqual({
      stdout: 'start\n',
      stderr: "bash: -c: line 2: syntax error near unexpected token `('\nbash: -c: line 2: `shopt -s extglob; echo @(a|b)'\n",
      exit: 2,
    });
    expect((await runShell('shopt -s extglob\necho +(a).txt; bash -O extglob -c "echo @(x|y)"', await tree())).stdout).toBe('+(a).txt\n@(x|y)\n');
  });
});

describe('arrays joined as one string', () => {
  it('${a[*]} joins with the first character of IFS in an assignment or a here-string; ${a[@]} with a space', async () => {
    const script = `arr=(3 1 2); IFS=$'\\n' sorted=($(sort <<<"\${arr[*]}")); echo "\${sorted[@]}"; IFS=,; x="\${arr[*]}"; y="\${arr[@]}"; echo "$x" "$y"`;
    expect((await runShell(script)).stdout).toBe('1 2 3\n3,1,2 3 1 2\n');
  });
});

describe('expansion errors', () => {
  it('a failglob or arithmetic error abandons the rest of its line (a subshell only itself), and the script goes on', async () => {
    const script = 'shopt -s failglob\necho *.nomatch; echo "status=$?"\nf(){ echo *.q3; echo infunc; }; f; echo fn=$?\n(echo *.q2); echo sub2=$?\necho $((1/0)); echo after\necho end $?';
    const result = await runShell(script);
    expect({ stdout: result.stdout, exit: result.exit }).toEqual({ stdout: 'sub2=1\nend 1\n', exit: 0 });
    expect(result.stderr).toContain('no match: *.nomatch');
    // On the last line, the script's status is the error's.
    expect((await runShell('shopt -s failglob; echo *.nomatch; echo "status=$?"')).exit).toBe(1);
  });
});

describe('unset parameters bash refuses', () => {
  it('${name:?word} names the parameter and ends the shell with 127; a subshell ends with 1', async () => {
    expect(await runShell('unset v; echo "${v:?custom message}"; echo after')).toEqual({ stdout: '', stderr: 'bash: line 1: v: custom message\n', exit: 127 });
    expect((await runShell('(echo ${u:?x}) 2>/dev/null; echo sub=$?')).stdout).toBe('sub=1\n');
  });

  it('set -u ends the shell from inside a function or group (127; 1 under set -e); a subshell ends with 1', async () => {
    expect(await runShell('set -u; f() { echo "$1"; }; f; echo "status=$?"')).toEqual({ stdout: '', stderr: 'environment: line 1: $1: unbound variable\n', exit: 127 });
    expect((await runShell('set -u; { echo $nope; } 2>/dev/null; echo "status=$?"')).exit).toBe(127);
    expect((await runShell('set -eu; f(){ echo $1; }; f; echo x')).exit).toBe(1);
    expect((await runShell('set -u; (echo $nope) 2>/dev/null; echo "sub=$?"')).stdout).toBe('sub=1\n');
  });

  it('set -u names a short positional parameter with its $ and a braced one without, as written', async () => {
    expect((await runShell('set -u; echo $1')).stderr).toBe('bash: line 1: $1: unbound variable\n');
    expect((await runShell('set -u; echo ${1}')).stderr).toBe('bash: line 1: 1: unbound variable\n');
    expect((await runShell('set -u; echo "a${2:1}b"')).stderr).toBe('bash: line 1: 2: unbound variable\n');
    expect((await runShell('set -u; f() { echo "$1$2"; }; f x')).stderr).toBe('environment: line 1: $2: unbound variable\n');
  });
});

describe('$(< file)', () => {
  it('on a missing file says so, with status 1 and no text', async () => {
    expect(await runShell('x=$(< nope.txt); echo "status=$? [$x]"')).toEqual({ stdout: 'status=1 []\n', stderr: 'bash: line 1: nope.txt: No such file or directory\n', exit: 0 });
  });
});

describe('words with [', () => {
  it('a[ x is split at its blanks; only an assignment subscript may hold blanks', async () => {
    const script = 'printf "<%s>" c[x y] a[ x; echo; echo a[ x; echo [b]; a[1 + 1]=x; echo ${a[2]}';
    expect((await runShell(script)).stdout).toBe('<c[x><y]><a[><x>\na[ x\n[b]\nx\n');
  });
});

describe('scripts written back to text', () => {
  it('keep ${name} braced, so the text after it stays text', async () => {
    expect((await runShell('x=1; s="a b"; echo ${x}0 "${x}y" ${x}_; for w in ${s}x; do echo "[$w]"; done; set -- p; echo ${1}2')).stdout).toBe('10 1y 1_\n[a]\n[bx]\np2\n');
  });
});

describe('brace expansion', () => {
  it('a quoted or escaped comma is text, not a separator', async () => {
    expect((await runShell(`echo {a\\,b,c} {a\\,b} {"a,b",c} {'x,y',z} x{a,b}y`)).stdout).toBe('a,b c {a,b} a,b c x,y z xay xby\n');
  });
});

describe('arithmetic expansions written back', () => {
  it('keep their text: a base written before a variable stays', async () => {
    expect((await runShell('n=010; echo $((10#$n)) "$((2#1$n))"')).stdout).toBe('10 10\n');
  });
});

describe('arithmetic that does not parse', () => {
  it('fails as bash does after the engine writes the script back: message, the line abandoned', async () => {
    const result = await runShell('echo line1\necho $((1 +)); echo same-line\necho line3');
    expect({ stdout: result.stdout, exit: result.exit }).toEqual({ stdout: 'line1\nline3\n', exit: 0 });
    expect(result.stderr).toContain('syntax error: operand expected');
  });
});

describe('substrings', () => {
  it('a negative length ending before the offset abandons the line; a negative offset past the start gives nothing', async () => {
    const result = await runShell('x=abc; echo ${x:2:-2}; echo same-line\necho "[${x:1:-2}]" "[${x: -5}]" "[${x: -4:2}]" "[${x: -2:1}]"');
    expect({ stdout: result.stdout, stderr: result.stderr }).toEqual({ stdout: '[] [] [] [b]\n', stderr: 'bash: line 1: -2: substring expression < 0\n' });
  });
});

describe('${u:-word} words', () => {
  it('an escaped blank keeps the word together, as quotes do', async () => {
    expect((await runShell('printf "[%s]" ${u:-a\\ b} ${u:-"c d"} ${u:-x y} x${u:-a\\ b}y ${u:-a\\ b c}; echo')).stdout).toBe('[a b][c d][x][y][xa by][a b][c]\n');
  });
});

describe('tilde expansion', () => {
  it('after = only in a name= word', async () => {
    expect((await runShell('echo --opt=~/d x=~/e a:~/f; z=~/q; echo $z')).stdout).toBe('--opt=~/d x=/home/sprite/e a:~/f\n/home/sprite/q\n');
  });
});

describe('redirections that cannot be opened', () => {
  it('fail their command with bash\'s message and status 1, and the script goes on (a service: the 0444 file stops it)', async () => {
    const r = await runShell('echo hi > a.txt; chmod 444 a.txt; echo more >> a.txt; echo "st=$?"; cat a.txt; echo x > nodir/f; echo "st=$?"; mkdir d; echo x > d; echo "st=$?"; echo y &> nodir/g; echo "st=$?"', undefined, { service: true });
    expect(r).toEqual({
      stdout: 'st=1\nhi\nst=1\nst=1\nst=1\n',
      stderr: 'bash: line 1: a.txt: Permission denied\nbash: line 1: nodir/f: No such file or directory\nbash: line 1: d: Is a directory\nbash: line 1: nodir/g: No such file or directory\n',
      exit: 0,
    });
  });

  it('into a missing directory or through a file fail that command only (not run, status 1), also a function call', async () => {
    expect(await runShell('echo x > nodir/f; echo "s=$?"; f() { echo in-f; }; f > nodir/g || echo failed; touch file; echo y > file/z; echo "s=$?"; ls')).toEqual({
      stdout: 's=1\nfailed\ns=1\nfile\n',
      stderr: 'bash: line 1: nodir/f: No such file or directory\nbash: line 1: nodir/g: No such file or directory\nbash: line 1: file/z: Not a directory\n',
      exit: 0,
    });
  });
});

describe("the user a command or a shell acts as", () => {
  it('test -r/-w/-x answer as faccessat(AT_EACCESS) does: for a service root\'s / is not writable, /tmp and its own home are', async () => {
    const script = 'test -w / && echo w || echo not-w; [[ -w /tmp ]] && echo tmp; test -w ~ && echo home; test -x /usr && echo x; test -x /etc/passwd || echo not-x; sudo test -w / && echo root-w';
    expect(await runShell(script, undefined, { service: true })).toEqual({ stdout: 'not-w\ntmp\nhome\nx\nnot-x\nroot-w\n', stderr: '', exit: 0 });
    // An exec session holds CAP_DAC_OVERRIDE: everything is writable, a file without an x bit still not executable.
    expect(await runShell(script)).toEqual({ stdout: 'w\ntmp\nhome\nx\nnot-x\nroot-w\n', stderr: '', exit: 0 });
  });

  it('a file test on the empty string is false: `[ -x "$(command -v nope)" ]` says no', async () => {
    expect(await runShell('for op in -e -f -d -r -w -x -s; do test $op "" && echo "$op true"; done; [[ -x "" ]] || echo dbl; [ -x "$(command -v nope_cmd)" ] || echo missing')).toEqual({
      stdout: 'dbl\nmissing\n',
      stderr: '',
      exit: 0,
    });
  });

  it("a command and a shell under sudo act as root: sudo touch, and sudo bash -c's own redirection, write in /etc", async () => {
    const script = "sudo touch /etc/a; sudo bash -c 'echo x > /etc/b'; cat /etc/b; stat -c %U /etc/a /etc/b; touch /etc/c";
    expect(await runShell(script, undefined, { service: true })).toEqual({
      stdout: 'x\nroot\nroot\n',
      stderr: "touch: cannot touch '/etc/c': Permission denied\n",
      exit: 1,
    });
    // An exec session's sprite user writes there too, and what it makes is its own.
    expect(await runShell(`${script}; stat -c %U /etc/c`)).toEqual({ stdout: 'x\nroot\nroot\nsprite\n', stderr: '', exit: 0 });
  });
});

describe('/proc/self of a command', () => {
  it('names the command reading it (comm, cmdline, status, exe), and the shell for a builtin', async () => {
    expect(await runShell('cat /proc/self/comm; readlink /proc/self/exe; head -1 /proc/self/status; cat /proc/self/cmdline | tr "\\0" " "; echo; read -r x < /proc/self/comm; echo "$x"; ls -l /proc/self/exe | cut -c1-10; stat -L -c %F /proc/self/exe')).toEqual({
      stdout: 'cat\n/usr/bin/readlink\nName:\thead\ncat /proc/self/cmdline \nbash\nlrwxrwxrwx\nregular file\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('sed regular expressions and flags', () => {
  it('s///w FILE writes only the substituted lines, w /dev/stdout is sed\'s own output, ADDR,~N ends at a multiple of N', async () => {
    expect(await runShell("printf 'b,2\\na,1\\n' > d; sed 's/a/b/w out' d > /dev/null; cat out; sed -n 'w /dev/stdout' d; seq 1 12 > n; sed -n '2,~4p' n | tr '\\n' ' '; sed -n '4,~4p' n | tr '\\n' ' '; sed -n '3,~0p' n")).toEqual({
      stdout: 'b,1\nb,2\na,1\n2 3 4 4 5 6 7 8 3\n',
      stderr: '',
      exit: 0,
    });
  });
  it('\\< and \\> are word boundaries, and s///Ng replaces the Nth match and all after it', async () => {
    expect(await runShell("printf 'hello world\\nfoo bar\\n' > a; sed -n '/\\<foo\\>/p' a; sed 's/\\<./X/g' a; sed 's/.\\>/Y/g' a; sed 's/o/0/2g' a; sed 's/l/L/2' a")).toEqual({
      stdout: 'foo bar\nXello Xorld\nXoo Xar\nhellY worlY\nfoY baY\nhello w0rld\nfo0 bar\nhelLo world\nfoo bar\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('sed e and -z', () => {
  it('e COMMAND writes its output there, e and s///e replace the pattern space with its output (its stderr first: unbuffered)', async () => {
    expect(await runShell("printf '3\\n1\\n' > n; sed '1e echo a; echo b' n; sed -n 'p;e printf q' n; echo; printf 'echo hi\\necho x >&2\\n' | sed e 2>&1; sed 's/.*/echo x&/e' n")).toEqual({
      stdout: 'a\nb\n3\n1\n3\nq1\nq\nx\nhi\n\nx3\nx1\n',
      stderr: '',
      exit: 0,
    });
  });
  it('-z reads and writes NUL-ended lines; a newline in the data is an ordinary character', async () => {
    expect(await runShell("printf '3\\n1\\n' > n; sed -z 's/\\n/,/g' n; echo; printf 'a\\nb\\0c\\0' | sed -z 'N;s/\\n/+/;=' | od -An -c")).toEqual({
      stdout: '3,1,\n   2  \\0   a   +   b  \\0   c  \\0\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('sed hold space', () => {
  it('H appends a newline first, even to an empty hold space', async () => {
    expect((await runShell("printf 'a\\nb\\n' | sed -n 'H;${x;p}' | od -An -c")).stdout).toBe('  \\n   a  \\n   b  \\n\n');
  });
  it('a written line ends in a newline when its text was read with one: G, g and x carry the hold space\'s', async () => {
    expect((await runShell("for s in G 'h;G' x g '$!d;x;G'; do printf 'x\\ny' | sed \"$s\" | od -An -c; done")).stdout).toBe(
      '   x  \\n  \\n   y  \\n  \\n\n   x  \\n   x  \\n   y  \\n   y\n  \\n   x  \\n\n  \\n  \\n\n  \\n   y\n',
    );
  });
});

describe('umask', () => {
  it('sets the mask from an octal or a symbolic mode, and prints it as bash does', async () => {
    expect(await runShell('umask u=rwx,g=rx,o=; umask; umask g-w,o-rwx,a+r; umask; umask a=rx; umask -S; umask -S 077; umask 7777; umask')).toEqual({
      stdout: '0027\n0023\nu=rx,g=rx,o=rx\nu=rwx,g=,o=\n0777\n',
      stderr: '',
      exit: 0,
    });
  });

  it('refuses a bad mode with bash\'s words and keeps the mask', async () => {
    expect((await runShell('exec 2>&1; umask 8; echo $?; umask u=rwz; echo $?; umask 1234567; echo $?; umask u^r; echo $?; umask -x; echo $?; umask')).stdout).toBe(
      "bash: line 1: umask: 8: octal number out of range\n1\nbash: line 1: umask: `z': invalid symbolic mode character\n1\n" +
        "bash: line 1: umask: 1234567: octal number out of range\n1\nbash: line 1: umask: `^': invalid symbolic mode operator\n1\n" +
        'bash: line 1: umask: -x: invalid option\numask: usage: umask [-p] [-S] [mode]\n2\n0022\n',
    );
  });

  it('gives new files 0666 and new directories 0777 less the mask; cp keeps the source mode less the mask, cp -p all of it', async () => {
    expect((await runShell('mkdir w && cd w && umask 027; touch f; mkdir d; echo x > g; cat f > h; mkdir -p p/q; cp f c; cp -p f k; chmod 644 k; cp -p k k2; stat -c "%a %n" f d g h p p/q c k2')).stdout).toBe(
      '640 f\n750 d\n640 g\n640 h\n750 p\n750 p/q\n640 c\n644 k2\n',
    );
  });

  it('a subshell, a command substitution and a pipeline stage keep their change; a child shell starts with the mask', async () => {
    expect((await runShell('mkdir w && cd w && umask 077; (umask 022; touch sub); umask 066 | cat; x=$(umask 000); touch top; stat -c "%a %n" sub top; umask; bash -c "umask; touch inner"; stat -c %a inner')).stdout).toBe(
      '644 sub\n600 top\n0077\n0077\n600\n',
    );
  });

  it('python3 runs under the mask: open() and os.mkdir() modes, os.umask()', async () => {
    const py = 'import os; open("p", "w").close(); os.close(os.open("q", os.O_CREAT | os.O_WRONLY, 0o600)); os.mkdir("pd"); print(oct(os.umask(0)))';
    expect((await runShell(`mkdir w && cd w && umask 027; python3 -c '${py}'; stat -c '%a %n' p q pd`)).stdout).toBe('0o27\n640 p\n600 q\n750 pd\n');
  });
});

describe('where an error message says it happened', () => {
  it('NAME: line N: for builtins, command lookups and expansions; the file for a function of `bash FILE` or a sourced file; getopts with $0 alone', async () => {
    const script = [
      'mkdir w && cd w; nope_q; cd nope_dir; shift x',
      'printf "cd /x\\n" > lib.sh; . ./lib.sh; printf "nope_r\\ngetopts a o -z\\n" > t.sh; bash t.sh',
      'set -u; g() { echo "$2"; }; g one',
    ].join('\n');
    expect(await runShell(script)).toEqual({
      stdout: '',
      stderr:
        'bash: line 1: nope_q: command not found\nbash: line 1: cd: nope_dir: No such file or directory\nbash: line 1: shift: x: numeric argument required\n' +
        './lib.sh: line 1: cd: /x: No such file or directory\nt.sh: line 1: nope_r: command not found\nt.sh: illegal option -- z\n' +
        'environment: line 3: $2: unbound variable\n',
      exit: 127,
    });
  });

  it('a function a `bash -c` string defined is `environment`; an assignment error has its line', async () => {
    expect((await runShell('f() { cd /nope; }; f; readonly r=1\nr=2')).stderr).toBe(
      'environment: line 1: cd: /nope: No such file or directory\nbash: line 2: r: readonly variable\n',
    );
  });
});

describe('line numbers inside compound commands and substitutions', () => {
  it('$LINENO, BASH_LINENO, caller and `line N:` count the script lines in functions, case, groups, loops', async () => {
    const script = [
      'f() {',
      '  echo "f $LINENO"',
      '  nope_q',
      '}',
      'case x in',
      '  x) echo "case $LINENO" ;;',
      'esac',
      '{',
      '  {',
      '    echo "group $LINENO"',
      '  }',
      '}',
      'for i in 1',
      'do',
      '  echo "for $LINENO"',
      'done',
      'echo a \\',
      '  "cont $LINENO"',
      'g() { caller; echo "${BASH_LINENO[*]}"; }',
      'h() {',
      '  g',
      '}',
      'f; h',
      'echo "end $LINENO"',
    ].join('\n');
    expect(await runShell(script)).toEqual({
      stdout: 'case 6\ngroup 10\nfor 15\na cont 17\nf 2\n21 environment\n21 23\nend 24\n',
      stderr: 'environment: line 3: nope_q: command not found\n',
      exit: 0,
    });
  });

  it('a command substitution counts from its closing parenthesis; one in a here-document from the command line', async () => {
    const script = ['echo', 'x=$(echo $LINENO)', 'y=$(', '  echo $LINENO', '  echo $LINENO', ')', 'echo $x $y $LINENO'].join('\n');
    expect(await runShell(script)).toEqual({ stdout: '\n2 6 7 7\n', stderr: '', exit: 0 });
    // (bash prints these `line N:` prefixes when its stderr is its stdout, as through `2>&1`)
    expect((await runShell('echo\nz=$(nope_q)\necho end')).stderr).toBe('bash: line 2: nope_q: command not found\n');
    expect((await runShell('echo\ncat <<EOF\none\n$(nope_r)\nEOF\necho end')).stderr).toBe('bash: line 2: nope_r: command not found\n');
  });
});

describe('set -x', () => {
  it('writes each trace line to the shell\'s stderr before the command\'s output, past the command\'s own redirections', async () => {
    expect(await runShell("exec 2>&1; PS4='+$LINENO: '; set -x; echo a; (echo sub); f() { echo in; }; f x; set +x; echo quiet")).toEqual({
      stdout: '+1: echo a\na\n+1: echo sub\nsub\n+1: f x\n+1: echo in\nin\n+1: set +x\nquiet\n',
      stderr: '',
      exit: 0,
    });
    expect(await runShell('set -x; echo hi 2>&1 | cat; echo b 2>/dev/null')).toEqual({ stdout: 'hi\nb\n', stderr: '+ echo hi\n+ cat\n+ echo b\n', exit: 0 });
  });

  it('delivers a trace line before the command it traces runs: a function\'s call comes before its body, in a nested script too', async () => {
    const ctx = testSprite();
    await runShell(`printf 'set -x\\nname=world\\ngreet() { echo "hello $1"; }\\ngreet "$name"\\n' > /tmp/sx.sh`, ctx);
    const trace = "+ name=world\n+ greet world\n+ echo 'hello world'\nhello world\n";
    expect((await runShellJoined('bash /tmp/sx.sh', ctx)).joined).toBe(trace);
    expect((await runShellJoined('bash -x /tmp/sx.sh', ctx)).joined).toBe(trace.replace('+ name', '+ set -x\n+ name'));
    expect((await runShellJoined('f() { echo in-f; }; set -x; f; x=$(echo sub); for i in 1; do echo $i; done; [[ -n $i ]] && echo c', ctx)).joined).toBe('+ f\n+ echo in-f\nin-f\n++ echo sub\n+ x=sub\n+ for i in 1\n+ echo 1\n1\n+ [[ -n 1 ]]\n+ echo c\nc\n');
  });

  it('expands PS4 as a prompt string: expansions after `+(` are kept, quotes and backslashes stay', async () => {
    expect((await runShell("x=5; PS4='+(${LINENO}) ${x:+y} \"q\" \\x *(a) '; set -x; true")).stderr).toBe('+(1) y "q" \\x *(a) true\n');
    // A script with a here-doc runs whole (output-sink.ts): its traces still come before the output they trace.
    expect((await runShellJoined("cat <<'X' > /dev/null\nX\nPS4='+($LINENO) '; set -x; echo a")).joined).toBe('+(3) echo a\na\n');
  });

  it('quotes traced words and values as bash does', async () => {
    expect((await runShell("set -x; : 'a b' \"c'd\" '' plain $'a\\tb' 'x$y' '~' 'x~' '#' a# $'\\x01' $'\\e' a=b '^x'; y='a b'")).stderr).toBe(
      "+ : 'a b' 'c'\\''d' '' plain 'a\tb' 'x$y' '~' x~ '#' a# $'\\001' $'\\E' a=b '^x'\n+ y='a b'\n",
    );
  });
});

describe('the shell\'s stderr after exec 2>&1', () => {
  it('is the stdout the shell had, not the pipe of a pipeline stage', async () => {
    expect(await runShell('exec 2>&1; ls nope | wc -l; { echo a; cd nope; } | wc -l')).toEqual({
      stdout: "ls: cannot access 'nope': No such file or directory\n0\nbash: line 1: cd: nope: No such file or directory\n1\n",
      stderr: '',
      exit: 0,
    });
  });
});

describe('declare -p', () => {
  it('lists an associative array\'s keys in bash\'s hash-table order, everywhere', async () => {
    // bash 5.2: FNV-1 buckets of 1024, the newest key first within a bucket (k116 and k8 share one).
    expect(await runShell('declare -A m; for k in a b c zz k1 "x y" 10 k8 k116; do m[$k]=1; done; echo "${!m[@]}"; unset "m[k8]"; m[k8]=2; echo "${!m[@]}"')).toEqual({
      stdout: 'c b a zz k116 k8 k1 x y 10\nc b a zz k8 k116 k1 x y 10\n',
      stderr: '',
      exit: 0,
    });
  });

  it('prints attributes, associative arrays and declared-but-unset variables as bash does', async () => {
    const script =
      "declare -A m=(['k k']='v \"w\"' [b]=\"x y\" [*]=1 [a]=2); declare -p m; declare -A e; declare -a f; declare g; declare -il h; declare -p e f g h; " +
      'e[x]=1; unset "e[x]"; f=(); declare -p e f; declare -lx v=A; declare -iurx w=3; declare -p v w; readonly -a ra=(1 2); declare -p ra; readonly ro; readonly | tail -2';
    expect(await runShell(script)).toEqual({
      stdout:
        'declare -A m=(["*"]="1" [b]="x y" [a]="2" ["k k"]="v \\"w\\"" )\ndeclare -A e\ndeclare -a f\ndeclare -- g\ndeclare -il h\n' +
        'declare -A e=()\ndeclare -a f=()\ndeclare -xl v="a"\ndeclare -irxu w="3"\ndeclare -ar ra=([0]="1" [1]="2")\ndeclare -r ro\ndeclare -irxu w="3"\n',
      stderr: '',
      exit: 0,
    });
  });

  it('keeps a [key]=value element whole when its value holds blanks or quotes', async () => {
    expect((await runShell("declare -a b=([3]='v \"w\"' [5]=\"x y\"); echo \"${b[3]}|${b[5]}\"")).stdout).toBe('v "w"|x y\n');
  });
});

describe('export', () => {
  it('of a name without a value leaves it unset, exported', async () => {
    expect(await runShell('export xx; echo "${xx-unset}"; declare -p xx; export -p | grep xx; env | grep -c xx; xx=1; env | grep xx')).toEqual({
      stdout: 'unset\ndeclare -x xx\ndeclare -x xx\n0\nxx=1\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('a readonly variable', () => {
  it('assigned abandons the rest of its line with status 1; a builtin on it only fails; messages follow exec 2>&1', async () => {
    const script =
      'exec 2>&1\nreadonly r=1\necho before\nr=2; echo same-line\necho "status=$?"\nr+=x 2>/dev/null\n' +
      'f() { local r=2; echo "in $r $?"; declare r=3; echo "$?"; }; f\nreadonly r=2; read r <<< x; echo "s=$?"';
    expect(await runShell(script)).toEqual({
      stdout:
        'before\nbash: line 4: r: readonly variable\nstatus=1\nbash: line 6: r: readonly variable\nenvironment: line 7: local: r: readonly variable\nin 1 1\n' +
        'environment: line 7: declare: r: readonly variable\n1\nbash: line 8: r: readonly variable\nbash: line 8: r: readonly variable\ns=1\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('descriptors exec copied', () => {
  it('exec 2>&1 copies stdout: a $(…) or a pipeline stage does not capture the shell\'s stderr, nor does a redirected group\'s body escape it', async () => {
    expect(await runShell('exec 2>&1; x=$(echo a; ls nope); echo "[$x]"; echo err >&2 | tr a-z A-Z; { echo "$(ls nope)"; ls nope; } 2>/dev/null; f() { ls nope; }; f 2>/dev/null; echo end')).toEqual({
      stdout: "ls: cannot access 'nope': No such file or directory\n[a]\nerr\n\nend\n",
      stderr: '',
      exit: 0,
    });
  });

  it('exec >file leaves $(…) and a pipeline stage their own stdout', async () => {
    expect(await runShell('exec >o; x=$(echo hi); echo a | tr a-z A-Z; exec >&2; echo "[$x]"; cat o')).toEqual({ stdout: '', stderr: '[hi]\nA\n', exit: 0 });
  });
});

describe('a word expansion\'s messages', () => {
  it('go to the shell\'s stderr before the command\'s output, a here-document\'s too', async () => {
    expect(await runShell('exec 2>&1\ncat <<EOF\none\n$(ls nope)\nEOF')).toEqual({ stdout: "ls: cannot access 'nope': No such file or directory\none\n\n", stderr: '', exit: 0 });
  });
});

describe('set -x on assignments and nested commands', () => {
  it('traces an assignment-only command where the shell\'s stderr goes, each assignment after its own expansion', async () => {
    expect(await runShell('exec 2>&1; set -x; x=1 y=$(echo b); z=3 2>/dev/null; echo "$x$y$z"')).toEqual({
      stdout: '+ x=1\n++ echo b\n+ y=b\n+ z=3\n+ echo 1b3\n1b3\n',
      stderr: '',
      exit: 0,
    });
  });

  it('repeats PS4\'s first character once per substitution and eval level', async () => {
    expect(await runShell('exec 2>&1; set -x; x=$(echo "$(echo deep)"); eval "echo \\$x"')).toEqual({
      stdout: "+++ echo deep\n++ echo deep\n+ x=deep\n+ eval 'echo $x'\n++ echo deep\ndeep\n",
      stderr: '',
      exit: 0,
    });
    expect((await runShell("PS4='ab '; set -x; x=$(echo a)")).stderr).toBe('aab echo a\nab x=a\n');
  });

  it('traces a for loop\'s head before each pass, a case\'s head and an array assignment, as written', async () => {
    expect(await runShell('exec 2>&1; set -x; for i in 1 "a b"; do :; done; case $i in a*) echo m;; esac; a=(1 \'b c\'); x+=( $(echo q) ); echo "${#a[@]} ${x[@]}"')).toEqual({
      stdout: '+ for i in 1 "a b"\n+ :\n+ for i in 1 "a b"\n+ :\n+ case $i in\n+ echo m\nm\n+ a=(1 \'b c\')\n+ x+=($(echo q))\n++ echo q\n+ echo \'2 q\'\n2 q\n',
      stderr: '',
      exit: 0,
    });
    expect((await runShell("set -- p; set -x; for v; do :; done; for i in $'c\\td'; do :; done")).stderr).toBe('+ for v in "$@"\n+ :\n+ for i in \'c\td\'\n+ :\n');
  });

  it('writes the messages of a for loop\'s words before its first pass', async () => {
    expect(await runShell('exec 2>&1; for w in $(ls nope) z; do echo $w; done')).toEqual({ stdout: "ls: cannot access 'nope': No such file or directory\nz\n", stderr: '', exit: 0 });
  });
});

describe('getopts', () => {
  it('unsets OPTARG for an option without argument, is silent with OPTERR=0, and rejects a name that is not one', async () => {
    const script = 'exec 2>&1; show() { echo "r=$1 o=$o OPTIND=$OPTIND OPTARG=${OPTARG-unset}"; }; OPTARG=pre; getopts a o -a; show $?; OPTIND=1; getopts a o -x; show $?; OPTIND=1; getopts :a: o -a; show $?; OPTIND=1; OPTERR=0; getopts a: o -x; show $?; getopts a: o -a; show $?; getopts a 1x; echo "r=$?"';
    expect((await runShell(script)).stdout).toBe(
      'r=0 o=a OPTIND=2 OPTARG=unset\nbash: illegal option -- x\nr=0 o=? OPTIND=2 OPTARG=unset\nr=0 o=: OPTIND=2 OPTARG=a\nr=0 o=? OPTIND=2 OPTARG=unset\nr=1 o=? OPTIND=2 OPTARG=unset\n' +
        "bash: line 1: getopts: `1x': not a valid identifier\nr=1\n",
    );
  });
  it('words its messages with $0, inside a function too (where other errors name the function\'s file)', async () => {
    const script = 'exec 2>&1; f() { local OPTIND o; getopts ab: o "$@"; cd /nope; }; f -x; f -b';
    expect((await runShell(script)).stdout).toBe(
      'bash: illegal option -- x\nenvironment: line 1: cd: /nope: No such file or directory\n' +
        'bash: option requires an argument -- b\nenvironment: line 1: cd: /nope: No such file or directory\n',
    );
  });
});

describe('mapfile', () => {
  it('reads -u FD, consuming only the lines it stores', async () => {
    expect(await runShell('printf "1\\n2\\n3\\n" > n.txt; exec 4< n.txt; mapfile -n 2 -u 4 first; read -u 4 next; echo "${first[*]} $next"; mapfile -u 5 a; echo $?')).toEqual({
      stdout: '1\n 2\n 3\n1\n',
      stderr: 'bash: line 1: mapfile: 5: invalid file descriptor: Bad file descriptor\n',
      exit: 0,
    });
  });

  it('evaluates the -C callback every -c lines with the next index and the line, before assigning it', async () => {
    const script = 'printf "1\\n2\\n3\\n10\\n20\\n" > n.txt; f(){ echo "f $*"; }; mapfile -t -C f -O 5 -c 2 -s 1 d < n.txt; declare -p d; mapfile -C "printf [%s]" -c 3 b < n.txt; echo; mapfile -c 0 z < n.txt 2>&1; echo $?';
    expect((await runShell(script)).stdout).toBe('f 6 3\nf 8 20\ndeclare -a d=([5]="2" [6]="3" [7]="10" [8]="20")\n[2][3\n]\nbash: line 1: mapfile: 0: invalid callback quantum\n1\n');
  });
});

describe('declare with an attribute and no names', () => {
  it('lists the variables with that attribute as declare -p does', async () => {
    expect(await runShell('export ZZ_A=1; readonly ZZ_R=2; declare -x | grep ZZ_; declare -r | grep ZZ_; declare -x | grep -c ZZ_R')).toEqual({
      stdout: 'declare -x ZZ_A="1"\ndeclare -r ZZ_R="2"\n0\n',
      stderr: '',
      exit: 1,
    });
  });
});

describe('declare -p of the shell\'s own variables', () => {
  it('shows PPID, UID and EUID as readonly integers and BASHPID as an integer', async () => {
    expect(await runShell('declare -p PPID UID EUID BASHPID | cut -d= -f1')).toEqual({ stdout: 'declare -ir PPID\ndeclare -ir UID\ndeclare -ir EUID\ndeclare -i BASHPID\n', stderr: '', exit: 0 });
  });
});

describe('set -x and export/readonly', () => {
  it('traces each assignment among the words again after the command', async () => {
    expect((await runShell("exec 2>&1; set -x; readonly R=1; export A='a b' C+=1 B; declare -x D=1")).stdout).toBe("+ readonly R=1\n+ R=1\n+ export 'A=a b' C+=1 B\n+ A='a b'\n+ C+=1\n+ declare -x D=1\n");
  });
});

describe('a compound assignment through a nameref', () => {
  it('assigns the array the reference names', async () => {
    expect((await runShell('f() { local -n out=$1; out=(p q); }; f arr; declare -p arr; declare -n r=a; r=(x y); r+=(z); declare -p a r')).stdout).toBe(
      'declare -a arr=([0]="p" [1]="q")\ndeclare -a a=([0]="x" [1]="y" [2]="z")\ndeclare -n r="a"\n',
    );
  });
});

describe('declare -f and type print a function as bash regenerates it', () => {
  it('one command a line, bash\'s indentation, separators and redirection spelling', async () => {
    const script = 'f() { if a; then b; elif c; then d; fi; while true; do break; done >o; case "$1" in x|y) echo "a b" 2>&1;; esac; { g; } > /dev/null; }; declare -f f; h() ( cd / ); type h; declare -f nope h >/dev/null; echo $?';
    expect((await runShell(script)).stdout).toBe(
      'f () \n{ \n    if a; then\n        b;\n    else\n        if c; then\n            d;\n        fi;\n    fi;\n    while true; do\n        break;\n    done > o;\n' +
        '    case "$1" in \n        x | y)\n            echo "a b" 2>&1\n        ;;\n    esac;\n    { \n        g\n    } > /dev/null\n}\n' +
        'h is a function\nh () \n{ \n    ( cd / )\n}\n1\n',
    );
  });
  it('a bare word in [[ ]] as the -n test it is', async () => {
    expect((await runShell("f() { [[ $x ]]; [[ a && ! $y ]]; }; declare -f f")).stdout).toBe('f () \n{ \n    [[ -n $x ]];\n    [[ -n a && ! -n $y ]]\n}\n');
  });
});

describe('export -f', () => {
  it('exports a function: listed with declare -fx, passed in the environment, refused for a name that is none', async () => {
    const script = 'f() { echo hi; if true; then echo x; fi; }; export -f f; env | grep -A4 "^BASH_FUNC"; export -f; declare -F; export -f nope; echo $?; export -nf f; declare -F';
    expect(await runShell(script)).toEqual({
      stdout: 'BASH_FUNC_f%%=() {  echo hi;\n if true; then\n echo x;\n fi\n}\nf () \n{ \n    echo hi;\n    if true; then\n        echo x;\n    fi\n}\ndeclare -fx f\ndeclare -fx f\n1\ndeclare -f f\n',
      stderr: 'bash: line 1: export: nope: not a function\n',
      exit: 0,
    });
  });
});

describe('set -x and [[ ]] / (( ))', () => {
  it('traces each [[ term evaluated, operands expanded and quoted pattern characters escaped', async () => {
    expect((await runShell('exec 2>&1; set -x; x=a; [[ $x == b* ]]; [[ -n $x && ( $x != "q r" || -z "" ) ]]; [[ ! -f /x ]]; [[ $x ]]')).stdout).toBe(
      '+ x=a\n+ [[ a == b* ]]\n+ [[ -n a ]]\n+ [[ a != \\q\\ \\r ]]\n+ [[ ! -f /x ]]\n+ [[ -n a ]]\n',
    );
  });

  it('traces (( )) with its text as written, expanded; its errors quote that text', async () => {
    expect((await runShell('exec 2>&1; set -x; y=3; (( y + 1 )); (( $y * 2 )); ((y++)); set +x; (( 1 + )); ((  2 /  0  ))')).stdout).toBe(
      '+ y=3\n+ ((  y + 1  ))\n+ ((  3 * 2  ))\n+ (( y++ ))\n+ set +x\nbash: line 1: ((: 1 + : syntax error: operand expected (error token is "+ ")\nbash: line 1: ((: 2 /  0  : division by 0 (error token is "0  ")\n',
    );
  });
});

describe('FUNCNAME, BASH_SOURCE and BASH_LINENO', () => {
  it('are one call stack: functions, sourced files and the script\'s main frame', async () => {
    const ctx = testSprite();
    await runShell(`printf 'echo "top:\${BASH_SOURCE[*]}|\${FUNCNAME[*]}|\${#BASH_SOURCE[@]}"\\nf() { echo "f:\${BASH_SOURCE[*]}|\${FUNCNAME[*]}|\${BASH_LINENO[*]}"; g; }\\n. ./lib.sh\\nf\\n' > t.sh; printf 'echo "lib:\${BASH_SOURCE[*]}|\${FUNCNAME[*]}"\\ng() { echo "g:\${BASH_SOURCE[*]}|\${FUNCNAME[*]}|\${BASH_LINENO[*]}"; }\\n' > lib.sh`, ctx);
    expect((await runShell('bash t.sh', ctx)).stdout).toBe('top:t.sh||1\nlib:./lib.sh t.sh|\nf:t.sh t.sh|f main|4 0\ng:./lib.sh t.sh t.sh|g f main|2 4 0\n');
    expect((await runShell("bash -c '. ./t.sh'", ctx)).stdout).toBe('top:./t.sh||1\nlib:./lib.sh ./t.sh|\nf:./t.sh ./t.sh|f source|4 1\ng:./lib.sh ./t.sh ./t.sh|g f source|2 4 1\n');
    expect((await runShell('f() { echo "${BASH_SOURCE[0]} ${FUNCNAME[0]} ${#FUNCNAME[@]}"; }; f; echo "[${FUNCNAME[*]}]"', ctx)).stdout).toBe('environment f 1\n[]\n');
  });
});

describe('set -v', () => {
  it('prints each line as read, comments included, through the shell\'s fd 2, before what it read runs', async () => {
    const script = 'exec 2>&1\nset -v\n# a comment\nf() {\n  echo in-f\n}\nf\nx=1; y=2 # two\nset +v\necho quiet';
    expect(await runShell(script)).toEqual({ stdout: '# a comment\nf() {\n  echo in-f\n}\nf\nin-f\nx=1; y=2 # two\nset +v\nquiet\n', stderr: '', exit: 0 });
  });
});

describe('set -x and for (( ; ; ))', () => {
  it('traces each part as evaluated, as written; an empty part as (( 1 )); break and continue are traced', async () => {
    expect((await runShell('exec 2>&1; set -x; n=2; for (( i = 0 ; i < n ; i += 1 )); do echo $i; done; for ((;;)); do break; done; for x in 1; do continue; done')).stdout).toBe(
      '+ n=2\n+ (( i = 0  ))\n+ (( i < n  ))\n+ echo 0\n0\n+ (( i += 1  ))\n+ (( i < n  ))\n+ echo 1\n1\n+ (( i += 1  ))\n+ (( i < n  ))\n+ (( 1 ))\n+ (( 1 ))\n+ break\n+ for x in 1\n+ continue\n',
    );
    expect((await runShell('f() { for (( i = 1; i <= 2; i++ )); do echo $i; done; }; declare -f f')).stdout).toBe('f () \n{ \n    for ((i = 1; i <= 2; i++ ))\n    do\n        echo $i;\n    done\n}\n');
  });
});

describe('set -x and return', () => {
  it('traces return before it runs, through the function call\'s redirections, not the command\'s own', async () => {
    expect((await runShell('exec 2>&1; set -x; f() { echo a; return 2; echo b; }; f; echo $?; g() { return 3 2>/dev/null; }; g || :')).stdout).toBe(
      '+ f\n+ echo a\na\n+ return 2\n+ echo 2\n2\n+ g\n+ return 3\n+ :\n',
    );
    expect(await runShell('set -x; f() { return; }; f 2>/dev/null; echo $?')).toEqual({ stdout: '0\n', stderr: '+ f\n+ echo 0\n', exit: 0 });
  });
});

describe('declare -f with attributes', () => {
  it('-fx exports the functions (a child shell defines them), +x takes the mark off, -fr makes them read-only; silently', async () => {
    expect(await runShell("f() { :; }; g() { :; }; declare -fx f g nosuch; echo \"rc=$?\"; bash -c 'type -t f g'; declare -fx; declare -f +x g; bash -c 'type -t g'; echo $?")).toEqual({
      stdout: 'rc=1\nfunction\nfunction\nf () \n{ \n    :\n}\ndeclare -fx f\ng () \n{ \n    :\n}\ndeclare -fx g\n1\n',
      stderr: '',
      exit: 0,
    });
    expect(await runShell('f() { :; }; typeset -fr f; declare -F; unset -f f; echo "rc=$?"')).toEqual({
      stdout: 'declare -fr f\nrc=1\n',
      stderr: 'bash: line 1: unset: f: cannot unset: readonly function\n',
      exit: 0,
    });
  });
});

describe('${N:=word} on a positional or special parameter', () => {
  it('is a fatal error when the default would be assigned, the parameter\'s value otherwise', async () => {
    expect(await runShell('f() { : "${1:=x}"; echo after; }; f; echo "rc=$?"')).toEqual({ stdout: '', stderr: 'environment: line 1: $1: cannot assign in this way\n', exit: 1 });
    expect(await runShell('x=$(: "${@=x}"; echo in); echo "rc=$? [$x]"')).toEqual({ stdout: 'rc=1 []\n', stderr: 'bash: line 1: $@: cannot assign in this way\n', exit: 0 });
    expect((await runShell('set -- a ""; : "${1:=x}" "${2=y}" "${#:=3}"; a=(); : "${a[1]:=z}"; echo "$1 [$2] ${a[1]}"')).stdout).toBe('a [] z\n');
  });
});

describe('$LINENO in traps', () => {
  it('counts an EXIT or signal trap\'s own lines from 1; an ERR trap keeps the failing command\'s line', async () => {
    expect((await runShell("true\ntrap 'echo \"exit $LINENO\"' EXIT\ntrap 'echo a\necho \"usr $LINENO\"' USR1\ntrap 'echo \"err $LINENO\"' ERR\ntrue\nkill -USR1 $$\nfalse\ntrue")).stdout).toBe(
      'a\nusr 2\nerr 8\nexit 1\n',
    );
  });
});

describe('shopt -s localvar_inherit', () => {
  it('makes local NAME keep the calling scope\'s value and export; a nameref inherits nothing', async () => {
    expect((await runShell('export x=5; f() { local x; echo "[${x-unset}]"; x=6; }; f; shopt -s localvar_inherit; g() { local x; echo "[$x]"; env | grep -c "^x="; x=6; }; g; echo $x')).stdout).toBe('[unset]\n[5]\n1\n5\n');
    expect((await runShell('shopt -s localvar_inherit; f() { local x=1; g; }; g() { local -i x; x+=1; echo $x; }; f')).stdout).toBe('2\n');
  });
});

describe('set -x and streamed scripts', () => {
  it('traces ./script, bash FILE and sh -c \'…\' as written, whose output goes straight to the client', async () => {
    expect(await runShell("printf 'echo in\\n' > r.sh; chmod +x r.sh; set -x; bash r.sh; ./r.sh; bash -c 'echo a; x=1; if true; then echo b; fi | cat'")).toEqual({
      stdout: 'in\nin\na\nb\n',
      stderr: "+ bash r.sh\n+ ./r.sh\n+ bash -c 'echo a; x=1; if true; then echo b; fi | cat'\n",
      exit: 0,
    });
  });
});

describe('local', () => {
  it('takes declare\'s attribute options and lists the locals as declare -p does', async () => {
    expect((await runShell('f() { local -i li=2+2; local -u lu=ab; local a; local -p; echo "$li $lu"; li+=1; echo $li; }; f')).stdout).toBe(
      'declare -- a\ndeclare -i li="4"\ndeclare -u lu="AB"\n4 AB\n5\n',
    );
  });
  it('-A makes a local associative array, assigned by key, gone after the function', async () => {
    const r = await runShell('declare -A m=([z]=1); f() { local -a arr=(1 2); local -A m=([a]=b [c]=d); local -A n; n[x]=1; echo "${arr[1]} ${m[a]} ${m[c]} ${!n[@]}"; }; f; echo "${!m[*]} [${!n[*]}]"');
    expect(r).toEqual({ stdout: '2 b d x\nz []\n', stderr: '', exit: 0 });
  });
});

describe('declare -i, -l, -u with an array assignment', () => {
  it('keeps the attribute on the array and applies it to each element', async () => {
    expect((await runShell('declare -ai x=(1 2+3); declare -p x; declare -Ai m=([a]=1+1 [b]=3); declare -p m; declare -au u=(ab cd); declare -p u')).stdout).toBe(
      'declare -ai x=([0]="1" [1]="5")\ndeclare -Ai m=([b]="3" [a]="2" )\ndeclare -au u=([0]="AB" [1]="CD")\n',
    );
  });
});

describe('the shell\'s own error messages', () => {
  it('the message that ends the shell goes where exec sent fd 2', async () => {
    expect(await runShell('exec 2>&1; set -u; echo "$nope"; echo after')).toEqual({ stdout: 'bash: line 1: nope: unbound variable\n', stderr: '', exit: 127 });
    expect(await runShell('exec 2>&1\nx=$((1/0)); echo same-line\necho after')).toEqual({ stdout: 'bash: line 2: 1/0: division by 0 (error token is "0")\nafter\n', stderr: '', exit: 0 });
    expect(await runShell('exec 2>/dev/null; exit abc')).toEqual({ stdout: '', stderr: '', exit: 2 });
  });

  it('set -u ends a script file with status 1, a -c string with 127', async () => {
    const ctx = testSprite();
    await runShell("printf 'set -u\\nf() { echo \"$nope\"; }\\nf\\necho after\\n' > t.sh", ctx);
    expect(await runShell('bash t.sh; echo "s=$?"; bash -c \'set -u; echo $nope\'; echo "s=$?"', ctx)).toEqual({
      stdout: 's=1\ns=127\n',
      stderr: 't.sh: line 2: nope: unbound variable\nbash: line 1: nope: unbound variable\n',
      exit: 0,
    });
  });

  it('a redirection word that expands to no word, or to several, is ambiguous; an empty file name names no file', async () => {
    expect(await runShell('f=; echo x > $f; echo "s=$?"; cat < $(true); echo "s=$?"; echo x > "$f"; echo "s=$?"; f="a b"; echo x >> $f; echo "s=$?"')).toEqual({
      stdout: 's=1\ns=1\ns=1\ns=1\n',
      stderr: 'bash: line 1: $f: ambiguous redirect\nbash: line 1: $(true): ambiguous redirect\nbash: line 1: : No such file or directory\nbash: line 1: $f: ambiguous redirect\n',
      exit: 0,
    });
  });

  it('source and . name themselves, give their usage, and tell a directory from a missing file', async () => {
    const ctx = testSprite();
    await runShell('mkdir src', ctx);
    expect(await runShell('source; echo "s=$?"\n. src; echo "s=$?"\nsource nope.sh; echo "s=$?"', ctx)).toEqual({
      stdout: 's=2\ns=1\ns=1\n',
      stderr: 'bash: line 1: source: filename argument required\nsource: usage: source filename [arguments]\nbash: line 2: .: src: is a directory\nbash: line 3: nope.sh: No such file or directory\n',
      exit: 0,
    });
  });
});

describe('builtins refusing their arguments', () => {
  it('shift: a count beyond $# fails quietly unless shift_verbose, a negative one always speaks, a second argument ends the shell', async () => {
    expect(await runShell('set -- a b; shift 5; echo "s=$? $#"; shift -1; echo "s=$?"; shopt -s shift_verbose; shift 3; echo "s=$?"; shift " 1"; echo "s=$? $#"; shift 1x; echo "s=$?"; shift 1 2; echo not-here')).toEqual({
      stdout: 's=1 2\ns=1\ns=1\ns=0 1\ns=1\n',
      stderr: 'bash: line 1: shift: -1: shift count out of range\nbash: line 1: shift: 3: shift count out of range\nbash: line 1: shift: 1x: numeric argument required\nbash: line 1: shift: too many arguments\n',
      exit: 1,
    });
  });

  it('break/continue/return/exit: a count out of range, outside a loop or function, a bad status, too many arguments', async () => {
    expect(await runShell('for i in 1 2; do for j in 1 2; do break 0; done; echo no; done; echo "s=$?"; break; echo "s=$?"; f() { return x; echo in; }; f; echo "s=$?"; return; echo "s=$?"; exit 3 4')).toEqual({
      stdout: 's=1\ns=0\ns=2\ns=2\n',
      stderr: "bash: line 1: break: 0: loop count out of range\nbash: line 1: break: only meaningful in a `for', `while', or `until' loop\nenvironment: line 1: return: x: numeric argument required\nbash: line 1: return: can only `return' from a function or sourced script\nbash: line 1: exit: too many arguments\n",
      exit: 1,
    });
  });

  it('cd: too many arguments, an invalid option with the usage, OLDPWD and HOME not set, joined options', async () => {
    const ctx = testSprite();
    await runShell('mkdir -p w/src w/docs', ctx);
    expect(await runShell('cd w; cd src docs; echo "s=$?"; cd -Q; echo "s=$?"; unset OLDPWD; cd -; echo "s=$?"; unset HOME; cd; echo "s=$?"; cd -LP src && echo "${PWD##*/}"', ctx)).toEqual({
      stdout: 's=1\ns=2\ns=1\ns=1\nsrc\n',
      stderr: 'bash: line 1: cd: too many arguments\nbash: line 1: cd: -Q: invalid option\ncd: usage: cd [-L|[-P [-e]] [-@]] [dir]\nbash: line 1: cd: OLDPWD not set\nbash: line 1: cd: HOME not set\n',
      exit: 0,
    });
    // An empty OLDPWD: cd - prints an empty line and stays.
    expect(await runShell('cd w; OLDPWD=; cd -; echo "s=$? ${PWD##*/}"', ctx)).toEqual({ stdout: '\ns=0 w\n', stderr: '', exit: 0 });
  });

  it('cd -P takes a `..` after a symlink from the link target, as chdir(2) does; a plain cd stays logical', async () => {
    const ctx = testSprite();
    await runShell('mkdir -p real/sub && touch real/top && ln -s real/sub s', ctx);
    expect(await runShell('cd -P s/.. && pwd && ls; cd /home/sprite; cd s/.. && pwd; cd -P s/../sub && pwd', ctx)).toEqual({
      stdout: '/home/sprite/real\nsub\ntop\n/home/sprite\n/home/sprite/real/sub\n',
      stderr: '',
      exit: 0,
    });
  });

  it('read: bad counts, timeouts and descriptors, unknown options, an associative array; joined options work', async () => {
    expect(await runShell('read -n x v <<< abc; echo "s=$?"; read -t abc v < /dev/null; echo "s=$?"; read -u x v; echo "s=$?"; read -Q v; echo "s=$?"; declare -A m; read -a m <<< "a b"; echo "s=$?"; read -rn2 v <<< abcd; echo "[$v]"')).toEqual({
      stdout: 's=1\ns=1\ns=1\ns=2\ns=1\n[ab]\n',
      stderr: 'bash: line 1: read: x: invalid number\nbash: line 1: read: abc: invalid timeout specification\nbash: line 1: read: x: invalid file descriptor specification\nbash: line 1: read: -Q: invalid option\nread: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]\nbash: line 1: read: m: not an indexed array\n',
      exit: 0,
    });
  });

  it('mapfile/readarray: bad counts, a bad name, an associative array, named as called; -u reads the descriptor', async () => {
    const ctx = testSprite();
    await runShell("printf '3\\n1\\n2\\n' > nums.txt", ctx);
    expect(await runShell('mapfile -n x a < nums.txt; echo "s=$?"; declare -A m; readarray m < nums.txt; echo "s=$?"; mapfile -c 0 a < nums.txt; echo "s=$?"; mapfile 1a < nums.txt; echo "s=$?"; exec 3< nums.txt; mapfile -tu3 a; echo "${a[*]}"', ctx)).toEqual({
      stdout: 's=1\ns=1\ns=1\ns=1\n3 1 2\n',
      stderr: "bash: line 1: mapfile: x: invalid line count\nbash: line 1: readarray: m: not an indexed array\nbash: line 1: mapfile: 0: invalid callback quantum\nbash: line 1: mapfile: `1a': not a valid identifier\n",
      exit: 0,
    });
  });
});

describe('a bad substitution', () => {
  it('fails when expanded, abandons its command line with status 1, and the shell goes on; an unknown @ transformation ends it', async () => {
    const script = 'x=abc; echo "${x:}"; echo same-line\necho "${x!}" "${1x}"\nfor i in 1 2; do echo "${x[1][2]}"; done; echo no\nf() { echo "${x:}"; echo in-f; }; f\ny=$(echo "${x!}"; echo in); echo "s=$? [$y]"\necho "${x::}[${x:1:}]"\necho "${x@}"\necho not-here';
    expect(await runShell(script)).toEqual({
      stdout: 's=1 []\n[]\n',
      stderr: 'bash: line 1: ${x:}: bad substitution\nbash: line 2: ${x!}: bad substitution\nbash: line 3: ${x[1][2]}: bad substitution\nenvironment: line 4: ${x:}: bad substitution\nbash: line 5: ${x!}: bad substitution\nbash: line 7: ${x@}: bad substitution\n',
      exit: 127,
    });
  });
});

describe('an output redirection to name/', () => {
  it('opens the path as written: Is a directory, whatever is there, and no file is made', async () => {
    expect(await runShell('mkdir d; touch f; echo x > new/; echo "s=$?"; echo x >> d/; echo "s=$?"; echo x > f/; echo "s=$?"; ls; cat f')).toEqual({
      stdout: 's=1\ns=1\ns=1\nd\nf\n',
      stderr: 'bash: line 1: new/: Is a directory\nbash: line 1: d/: Is a directory\nbash: line 1: f/: Is a directory\n',
      exit: 0,
    });
  });
});

describe('running a directory', () => {
  it('is "Is a directory", status 126', async () => {
    expect(await runShell('mkdir -p src; ./src; echo "s=$?"; /; echo "s=$?"')).toEqual({ stdout: 's=126\ns=126\n', stderr: 'bash: line 1: ./src: Is a directory\nbash: line 1: /: Is a directory\n', exit: 0 });
    // A lookup that meets a file where a directory must be: execve's ENOTDIR, status 126; a missing file stays 127.
    expect(await runShell('echo x > f; chmod +x f; ./f/; echo "s=$?"; ./f/x; echo "s=$?"; ./nope; echo "s=$?"')).toEqual({
      stdout: 's=126\ns=126\ns=127\n',
      stderr: 'bash: line 1: ./f/: Not a directory\nbash: line 1: ./f/x: Not a directory\nbash: line 1: ./nope: No such file or directory\n',
      exit: 0,
    });
  });
});

describe('a bad subscript in an assignment statement', () => {
  it('abandons its command line with status 1; the next line runs; a subshell ends with 1', async () => {
    expect(await runShell('exec 2>&1; a=(1 2); a[-5]=x; echo "s=$?"\necho "after $? ${#a[@]}"\nf() { a[-3]=y; echo in; }; f; echo no\n(a[-9]=z; echo in); echo "s=$?"')).toEqual({
      stdout: 'bash: line 1: a[-5]: bad array subscript\nafter 1 2\nenvironment: line 3: a[-3]: bad array subscript\nbash: line 4: a[-9]: bad array subscript\ns=1\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('set refusing an option', () => {
  it('is status 2: an unknown -o name alone, an unknown letter with bash\'s usage line', async () => {
    expect(await runShell('set -o nosuch; echo "s=$?"; set -Q; echo "s=$?"')).toEqual({
      stdout: 's=2\ns=2\n',
      stderr: 'bash: line 1: set: nosuch: invalid option name\nbash: line 1: set: -Q: invalid option\nset: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]\n',
      exit: 0,
    });
  });
});

describe('the job builtins\' messages', () => {
  it('carry their place like any builtin\'s', async () => {
    expect(await runShell('wait 99999; echo "s=$?"; f() { wait %1; }; f; echo "s=$?"')).toEqual({
      stdout: 's=127\ns=127\n',
      stderr: 'bash: line 1: wait: pid 99999 is not a child of this shell\nenvironment: line 1: wait: %1: no such job\n',
      exit: 0,
    });
  });
});

describe('jq, tar, gzip, mv and cp as their manuals print', () => {
  it('jq assignments make the objects and arrays their path needs, and refuse a path through a scalar', async () => {
    const script = `jq -nc '{} | .a.b = 1'; jq -c '.a[0].b = 2' <<< '{}'; jq -c '.a.b |= . + 1' <<< '{}'; jq -c '.a = 1' <<< null; jq -c '.a.b = 1' <<< '{"a":5}'; echo "s=$?"`;
    expect(await runShell(script)).toEqual({ stdout: '{"a":{"b":1}}\n{"a":[{"b":2}]}\n{"a":{"b":1}}\n{"a":1}\ns=5\n', stderr: 'jq: error (at <stdin>:1): Cannot index number with string "b"\n', exit: 0 });
  });
  it('jq .[] over a scalar is an error naming the value, cut to 14 characters; .[]? keeps quiet', async () => {
    const script = `jq '.a[]' <<< '{"a":5}'; echo "s=$?"; jq '.[]' <<< '"a very long string"'; jq '.[]?' <<< 5; echo "s=$?"`;
    expect(await runShell(script)).toEqual({ stdout: 's=5\ns=0\n', stderr: 'jq: error (at <stdin>:1): Cannot iterate over number (5)\njq: error (at <stdin>:1): Cannot iterate over string ("a very lon...)\n', exit: 0 });
  });
  it('jq arithmetic without a rule for its operands is an error naming both, status 5; string * number repeats', async () => {
    const script = `jq -c '.a + 1' <<< '{"a":[1]}'; echo "s=$?"; jq -c '.s - "x"' <<< '{"s":"abcdefghijklmnop"}'; jq -nc '3 * "ab"'; jq -nc '{} / 1'; jq -nc 'null * 2'; jq -nc '5 % "a"'`;
    expect(await runShell(script)).toEqual({
      stdout: 's=5\n"ababab"\n',
      stderr:
        'jq: error (at <stdin>:1): array ([1]) and number (1) cannot be added\n' +
        'jq: error (at <stdin>:1): string ("abcdefghij...) and string ("x") cannot be subtracted\n' +
        'jq: error (at <unknown>): object ({}) and number (1) cannot be divided\n' +
        'jq: error (at <unknown>): null (null) and number (2) cannot be multiplied\n' +
        'jq: error (at <unknown>): number (5) and string ("a") cannot be divided (remainder)\n',
      exit: 5,
    });
  });
  it('jq names where its reader stood: the input and the lines read of it when the value was parsed', async () => {
    const script = `printf '{"a":1}\\n\\n{"a":\\n[1]}\\n' > j.json; printf '[1]' > k.json; jq '.a + 1' j.json k.json 2>&1; printf 'a\\nb' | jq -R '. + 1' 2>&1; printf '1 "x"' | jq '. + 1' 2>&1`;
    expect((await runShell(script)).stdout).toBe(
      'jq: error (at j.json:4): array ([1]) and number (1) cannot be added\njq: error (at k.json:0): Cannot index array with string "a"\n2\n' +
        'jq: error (at <stdin>:1): string ("a") and number (1) cannot be added\njq: error (at <stdin>:1): string ("b") and number (1) cannot be added\n' +
        'jq: error (at <stdin>:0): string ("x") and number (1) cannot be added\n2\n',
    );
  });
  it('jq prints the outputs a filter made before an error in the same run, and try yields them', async () => {
    const script = `jq '.[] | .a + 1' <<< '[{"a":1},{"a":[1]}]'; echo '[1,[2],3]' | jq -c '.[] | (., .+1)'; jq -nc '(1,2) as $x | if $x==2 then error("e") else $x end, 9'; jq -nc '[try (1, error("x"), 3)]'; echo '[1,[2]]' | jq -c '[.[] | .+1]'`;
    expect(await runShell(script)).toEqual({
      stdout: '2\n1\n2\n[2]\n1\n9\n[1]\n',
      stderr:
        'jq: error (at <stdin>:1): array ([1]) and number (1) cannot be added\n' +
        'jq: error (at <stdin>:1): array ([2]) and number (1) cannot be added\n' +
        'jq: error (at <unknown>): e\n' +
        'jq: error (at <stdin>:1): array ([2]) and number (1) cannot be added\n',
      exit: 5,
    });
  });
  it('jq orders values as jq does: types, then strings by code point; comparisons use the same order; string repetition', async () => {
    const script = `jq -nc '["b","B","a",1,null,[1],{"a":1},true] | sort'; jq -nc '["a" > 0, [1,2] < [1,3], {"b":1} > {"a":5}, "B" < "a"]'; jq -nc '["ab" * 0, "ab" * 0.5, "ab" * 2.7]'`;
    expect((await runShell(script)).stdout).toBe('[null,true,1,"B","a","b",[1],{"a":1}]\n[true,true,true,true]\n[null,"ab","abab"]\n');
  });
  it('jq group_by and unique give their results sorted in jq\'s order', async () => {
    const script = `jq -c 'group_by(.k) | map(length)' <<< '[{"k":"b"},{"k":"a"},{"k":"b"}]'; jq -c 'unique' <<< '["b","a","B","a",[1],null,2]'`;
    expect((await runShell(script)).stdout).toBe('[1,2]\n[null,2,"B","a","b",[1]]\n');
  });
  it('jq reports a file it cannot open as jq does, runs the others, and exits 2', async () => {
    const script = `echo '{"a":1}' > j.json; jq -c . nope j.json 2>&1; echo "s=$?"`;
    expect(await runShell(script)).toEqual({ stdout: 'jq: error: Could not open file nope: No such file or directory\n{"a":1}\ns=2\n', stderr: '', exit: 0 });
  });
  it('jq @csv quotes every string and leaves numbers, booleans and null bare', async () => {
    expect(await runShell(`jq -r '.[] | @csv' <<< '[["a",1,true,null,"x\\"y"],["b",2]]'`)).toEqual({ stdout: '"a",1,true,,"x""y"\n"b",2\n', stderr: '', exit: 0 });
  });

  it('jq walk applies its filter to every value, scalars included, bottom-up', async () => {
    const script = `jq -c 'walk(if type == "number" then . + 1 else . end)' <<< '[1,[2],{"a":3,"b":"x"}]'; jq -c 'walk(if type == "object" then del(.b) else . end)' <<< '{"a":{"b":1,"c":2},"b":3}'`;
    expect(await runShell(script)).toEqual({ stdout: '[2,[3],{"a":4,"b":"x"}]\n{"a":{"c":2}}\n', stderr: '', exit: 0 });
  });

  it('jq -j prints each result raw, without newlines', async () => {
    expect(await runShell(`jq -j '.[]' <<< '["a","b",1]'; echo`)).toEqual({ stdout: 'ab1\n', stderr: '', exit: 0 });
  });

  it('jq input and inputs take the values still waiting on the input', async () => {
    const script = `jq -c 'input' -n <<< '1 2'; jq -c '[inputs]' -n <<< '1 2 3'; jq -c '[., input]' <<< '1 2 3 4'; jq -ncR '[inputs]' <<< $'a\nb'; jq -n 'reduce inputs as $x (0; . + $x)' <<< '1 2 3'; jq -n 'input, input' <<< '1' >/dev/null 2>&1; echo $?`;
    expect(await runShell(script)).toEqual({ stdout: '1\n[1,2,3]\n[1,2]\n[3,4]\n["a","b"]\n6\n5\n', stderr: '', exit: 0 });
  });

  it('jq reports an error in one input\'s run and goes on with the next; the status is the last run\'s', async () => {
    expect(await runShell(`jq -c input <<< '1 2 3'; echo $?; jq .a <<< '1 {"a":2}'; echo $?`)).toEqual({
      stdout: '2\n5\n2\n0\n',
      stderr: 'jq: error (at <stdin>:1): break\njq: error (at <stdin>:1): Cannot index number with string "a"\n',
      exit: 0,
    });
  });

  it('jq @sh quotes each element of an array, and prints other scalars as they are', async () => {
    expect(await runShell(`jq -r '@sh' <<< '["a b",1,null,true,"it'\\''s"]'; jq -r '.[] | @sh' <<< '["x",2]'`)).toEqual({ stdout: "'a b' 1 null true 'it'\\''s'\n'x'\n2\n", stderr: '', exit: 0 });
  });

  it('jq del deletes every path its filter yields, and delpaths deletes the last first', async () => {
    const script = [
      `jq -c 'del(.[] | select(. == 2))' <<< '[1,2,3]'`,
      `jq -c 'del(.a, .b)' <<< '{"a":1,"b":2,"c":3}'`,
      `jq -c 'del(.[1,2])' <<< '[1,2,3]'`,
      `jq -c 'del(.. | nulls)' <<< '{"a":null,"b":[1,null,{"c":null}]}'`,
      `jq -c 'delpaths([[1],[2]])' <<< '[1,2,3]'`,
      `jq -c 'del(.items[] | select(.x > 1))' <<< '{"items":[{"x":1},{"x":2},{"x":3}]}'`,
      `jq -c 'del(.[].a)' <<< '[{"a":1,"b":2},{"a":3}]'`,
      `jq -c 'del(.[1:3])' <<< '[1,2,3,4]'`,
      `jq -c 'del(first(.[] | select(. > 1)))' <<< '[1,2,3]'`,
    ].join('; ');
    expect(await runShell(script)).toEqual({ stdout: '[1,3]\n{"c":3}\n[1]\n{"b":[1,{}]}\n[1]\n{"items":[{"x":1}]}\n[{"b":2},{}]\n[1,4]\n[1,3]\n', stderr: '', exit: 0 });
  });

  it('jq --indent N sets the indentation (0 is compact; the last of -c, --tab, --indent wins)', async () => {
    const script = `jq --indent 4 . <<< '{"a":[1]}'; jq --indent 0 . <<< '{"a":1}'; jq -c --indent 1 . <<< '{"a":1}'; jq --indent 1 --tab . <<< '{"a":1}'; jq --indent 8 . <<< 1; echo $?`;
    expect(await runShell(script)).toEqual({
      stdout: '{\n    "a": [\n        1\n    ]\n}\n{"a":1}\n{\n "a": 1\n}\n{\n\t"a": 1\n}\n2\n',
      stderr: 'jq: --indent takes a number between -1 and 7\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq\n',
      exit: 0,
    });
  });

  it('jq -C writes jq 1.6 colour escapes around values, brackets and keys', async () => {
    const e = '\x1b[';
    expect((await runShell(`jq -C . <<< '1'`)).stdout).toBe(`${e}0;39m1${e}0m\n`);
    expect((await runShell(`jq -Cc . <<< '{"a":[null,"s"],"b":{}}'`)).stdout).toBe(
      `${e}1;39m{${e}0m${e}34;1m"a"${e}0m${e}1;39m:${e}0m${e}1;39m[${e}1;30mnull${e}0m${e}1;39m,${e}0;32m"s"${e}0m${e}1;39m${e}1;39m]${e}0m${e}1;39m,${e}0m${e}34;1m"b"${e}0m${e}1;39m:${e}0m${e}1;39m{}${e}0m${e}1;39m${e}1;39m}${e}0m\n`,
    );
    expect((await runShell(`jq -C . <<< '[true]'`)).stdout).toBe(`${e}1;39m[\n  ${e}0;39mtrue${e}0m${e}1;39m\n${e}1;39m]${e}0m\n`);
  });

  it('column fills columns with whole lines, tab-padded to tab stops, down first (-x across)', async () => {
    const script = `printf '3\\n1\\n2\\n10\\n1\\n' | column -c 20; printf 'a b\\nc\\n\\nd\\n' | column; seq 1 12 | column -x -c 30`;
    expect(await runShell(script)).toEqual({ stdout: '3\t10\n1\t1\n2\na b\tc\td\n1\t2\t3\n4\t5\t6\n7\t8\t9\n10\t11\t12\n', stderr: '', exit: 0 });
  });

  it('a tar member operand ending in / lists and extracts the directory and everything below it', async () => {
    const script = 'mkdir -p src/lib && echo a > src/lib/u.ts && tar -cf a.tar src && tar -tf a.tar src/lib/ && mkdir o && tar -xf a.tar -C o src/lib/ && find o -type f';
    expect(await runShell(script)).toEqual({ stdout: 'src/lib/\nsrc/lib/u.ts\no/src/lib/u.ts\n', stderr: '', exit: 0 });
  });

  it('a directory operand with a trailing slash stores its members under a single slash', async () => {
    const script = 'mkdir -p src/lib && echo a > src/lib/u.ts && tar -czf a.tgz src/ && tar -tzf a.tgz; cd src && tar -cf ../c.tar ./ && tar -tf ../c.tar';
    expect(await runShell(script)).toEqual({ stdout: 'src/\nsrc/lib/\nsrc/lib/u.ts\n./\n./lib/\n./lib/u.ts\n', stderr: '', exit: 0 });
  });

  it('mv renames a symbolic link itself, dangling or not', async () => {
    const script = 'echo a > a.txt && ln -s a.txt link.txt && mv a.txt a.bak && mv link.txt link.bak && ls -l link.bak | cut -c1 && ln -s nope d1 && mv -v d1 d2 && readlink d2';
    expect(await runShell(script)).toEqual({ stdout: "l\nrenamed 'd1' -> 'd2'\nnope\n", stderr: '', exit: 0 });
  });

  it('cp onto an existing file keeps its mode; a new file, or -p, takes the source\'s', async () => {
    const script = "printf 'x\\n' > r.sh && chmod 755 r.sh && echo y > t.txt && chmod 644 t.txt && cp -f r.sh t.txt && stat -c %a t.txt && cat t.txt && cp r.sh t2.txt && stat -c %a t2.txt && cp -p r.sh t.txt && stat -c %a t.txt";
    expect(await runShell(script)).toEqual({ stdout: '644\nx\n755\n755\n', stderr: '', exit: 0 });
  });

  it('gzip -v prints the deflated data ratio with a sign column, truncated to a tenth', async () => {
    const script = "printf 'hello world\\nfoo bar\\nHello again\\n' > a.txt && : > e.txt && printf x > x.txt && gzip -v a.txt e.txt x.txt 2>&1 && gzip -dv a.txt.gz 2>&1";
    expect(await runShell(script)).toEqual({
      stdout: 'a.txt:\t  3.1% -- replaced with a.txt.gz\ne.txt:\t  0.0% -- replaced with e.txt.gz\nx.txt:\t-200.0% -- replaced with x.txt.gz\na.txt.gz:\t  3.1% -- replaced with a.txt\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('a ${...} inside arithmetic', () => {
  it('expands as any parameter expansion: subscripts, defaults, lengths, alternatives', async () => {
    const script = 'x=(5); declare -A c; for w in a b a; do c[$w]=$(( ${c[$w]:-0} + 1 )); done; echo $(( ${x[0]:-0} + 1 )) $(( ${#x[0]} + 1 )) $(( ${x[0]:+7} + 1 )) ${c[a]} ${c[b]}';
    expect(await runShell(script)).toEqual({ stdout: '6 2 8 2 1\n', stderr: '', exit: 0 });
  });
});

describe('a loop left by break or continue', () => {
  it('returns 0, the status of break and continue, whatever ran before them', async () => {
    const script = 'for i in 1 2; do [ $i -eq 1 ] && break; done; echo "s=$?"; for i in 1 2; do [ $i = 2 ] && continue; done; echo "c=$?"; for ((i=0;i<2;i++)); do false; continue; done; echo "cf=$?"; until false; do false; break; done; echo "u=$?"; while true; do false; break; done; echo "w=$?"';
    expect(await runShell(script)).toEqual({ stdout: 's=0\nc=0\ncf=0\nu=0\nw=0\n', stderr: '', exit: 0 });
  });
});

describe('declare and local with an array of words', () => {
  it('make one element per field of each word: "$@", "${a[@]}", nothing for no arguments', async () => {
    const script = 'set -- a "b c" d; declare -a d=("$@"); f() { local -a it=("$@" end); echo "${#it[@]} [${it[1]}]"; }; f 1 "2 3"; g=(x "y z"); declare h=("${g[@]}"); echo "${#d[@]} ${#h[@]}"; set --; declare z=("$@"); echo "${#z[@]}"';
    expect(await runShell(script)).toEqual({ stdout: '3 [2 3]\n3 2\n0\n', stderr: '', exit: 0 });
  });

  it('keep command substitutions, arithmetic and parameter operators in those words', async () => {
    expect(await runShell('x=; declare -a w=($(echo x y) "$(echo p q)" $((1+2)) "${x:-d}"); declare -p w')).toEqual({
      stdout: 'declare -a w=([0]="x" [1]="y" [2]="p q" [3]="3" [4]="d")\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('a command name from an unquoted expansion', () => {
  it('is split into words, the first being the command; an empty one leaves the next word as the command', async () => {
    expect(await runShell('c="ls -d src"; mkdir src; $c; cmd="echo hi"; $cmd there; e=; $e echo empty; $(echo echo sub) ok')).toEqual({
      stdout: 'src\nhi there\nempty\nsub ok\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('a command name from a quoted expansion', () => {
  it('"$@" and "${a[@]}" give one field per element, "$x" one field, and "$@" with no arguments runs nothing', async () => {
    expect(await runShell(`run() { "$@"; echo "rc=$?"; }; run sh -c 'exit 42'; run echo a b; run; a=(printf '%s|' x 'y z'); "\${a[@]}"; echo; c="echo hi"; "$c"; echo "rc=$?"`)).toEqual({
      stdout: 'rc=42\na b\nrc=0\nrc=0\nx|y z|\nrc=127\n',
      stderr: 'bash: line 1: echo hi: command not found\n',
      exit: 0,
    });
  });
});

describe('for without in', () => {
  it('loops over the positional parameters as they are', async () => {
    expect(await runShell('f() { for a; do echo "[$a]"; done; }; f "a b" "" c')).toEqual({ stdout: '[a b]\n[]\n[c]\n', stderr: '', exit: 0 });
  });
});

describe('set -e and a function call', () => {
  it('ends the shell when the call returns non-zero, even from an && list inside the function', async () => {
    expect(await runShell('set -e; f() { [ -f nope ] && echo yes; }; f || echo caught; if f; then :; fi; ! f; echo ok; f; echo not-here')).toEqual({
      stdout: 'caught\nok\n',
      stderr: '',
      exit: 1,
    });
    // A `{ …; }` group whose status came from such a list does not.
    expect((await runShell('set -e; { false && true; }; echo group')).stdout).toBe('group\n');
  });
});

describe('command -v and -V', () => {
  it('find executable files in PATH, or else a file of that name; 0 when any name was found; -V words not found as bash', async () => {
    const script = 'mkdir -p bin; printf "#!/bin/sh\\necho t\\n" > bin/mytool; chmod +x bin/mytool; printf x > bin/noexec; PATH="$PWD/bin:$PATH"; command -v mytool; command -V mytool; command -v ls nope_q noexec; echo "s=$?"; command -v nope_a nope_b; echo "s=$?"; command -V nope_z; echo "s=$?"';
    expect(await runShell(script)).toEqual({
      stdout: '/home/sprite/bin/mytool\nmytool is /home/sprite/bin/mytool\n/usr/bin/ls\n/home/sprite/bin/noexec\ns=0\ns=1\ns=1\n',
      stderr: 'bash: line 1: command: nope_z: not found\n',
      exit: 0,
    });
  });
});

describe('a command found in PATH only as a file without execute permission', () => {
  it('is that file, and running it is Permission denied, status 126', async () => {
    expect(await runShell('mkdir -p bin; printf "echo x\\n" > bin/tool2; PATH="$PWD/bin:$PATH"; tool2; echo "s=$?"; f() { tool2; }; f')).toEqual({
      stdout: 's=126\n',
      stderr: 'bash: line 1: /home/sprite/bin/tool2: Permission denied\nenvironment: line 1: /home/sprite/bin/tool2: Permission denied\n',
      exit: 126,
    });
  });
});

describe('the call-stack arrays under a default', () => {
  it('are set where they hold a frame: ${BASH_SOURCE[0]:-x}, ${FUNCNAME[0]:-x}, ${BASH_SOURCE:-x}', async () => {
    expect(await runShell('f() { echo "[${BASH_SOURCE[0]:-none}] [${FUNCNAME[0]:-none}] [${BASH_LINENO[0]:-x}] [${BASH_SOURCE:-d}] [${FUNCNAME[1]:-no1}]"; }; f; echo "[${FUNCNAME[0]:-main}] [${BASH_SOURCE:-top}]"')).toEqual({
      stdout: '[environment] [f] [1] [environment] [no1]\n[main] [top]\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('a $(…) inside arithmetic', () => {
  it('runs as any command substitution, seeing the functions, and its output is evaluated', async () => {
    const script = 'fib() { local n=$1; ((n < 2)) && { echo $n; return; }; echo $(( $(fib $((n-1))) + $(fib $((n-2))) )); }; fib 10; f() { echo 4; }; echo $(( $(f) * 2 )) $(( $(echo 2*3) + 1 )) $(( $(echo) + 1 ))';
    expect(await runShell(script)).toEqual({ stdout: '55\n8 7 1\n', stderr: '', exit: 0 });
  });
});

describe('an output process substitution held open by a persistent redirection', () => {
  it('collects what the shell writes until its descriptor closes or the shell exits, then runs the command on it', async () => {
    const script = 'exec 3>&1 > >(tr a-z A-Z); echo upper; exec 1>&3 3>&-; echo plain; exec 4> >(sed "s/^/4:/"); echo x >&4; exec 4>&-; exec > >(tee log.txt); echo last; exit 3';
    expect(await runShell(script)).toEqual({ stdout: 'UPPER\nplain\n4:x\nlast\n', stderr: '', exit: 3 });
  });
});

describe('case toggling', () => {
  it('${v~} toggles the first character, ${v~~} every one, with a pattern and on each element of an array', async () => {
    const script = 'v="Hello World"; echo "${v~~}" "${v~}"; a=(ab Cd); echo "${a[@]~}" "${a[@]~~}"; echo "${v~~[lo]}"';
    expect(await runShell(script)).toEqual({ stdout: 'hELLO wORLD hello World\nAb cd AB cD\nHeLLO WOrLd\n', stderr: '', exit: 0 });
  });
});

describe('${!prefix@} and ${!prefix*}', () => {
  it('list the shell\'s dynamic variables with the others', async () => {
    expect(await runShell('printf "%s\\n" "${!BASH@}" | grep -c -x -e BASH_VERSION -e BASHPID -e BASH_SUBSHELL; echo ${!RAN*} ${!SECO*} ${!EPOCH*}')).toEqual({
      stdout: '3\nRANDOM SECONDS EPOCHREALTIME EPOCHSECONDS\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('command substitution joined to the text of $(( ))', () => {
  it('expands into the expression before it is parsed', async () => {
    const script = 'printf "5\\n7\\n5\\n" > nums.txt; echo "sum: $(( $(printf "%s+" $(cat nums.txt))0 ))"; x=3; echo $(( x * $(echo 4)2 )) $(( $(echo 1)$(echo 0) + 1 )); (( y = $(echo 2)0 )); echo $y';
    expect(await runShell(script)).toEqual({ stdout: 'sum: 17\n126 11\n20\n', stderr: '', exit: 0 });
  });
});

describe('hash -d before anything was hashed', () => {
  it('succeeds silently (bash has no table yet); once a command was hashed, an unknown name is not found', async () => {
    expect(await runShell('hash -d nosuch_a; echo "s=$?"; ls >/dev/null; hash -d nosuch_b; echo "s=$?"')).toEqual({
      stdout: 's=0\ns=1\n',
      stderr: 'bash: line 1: hash: nosuch_b: not found\n',
      exit: 0,
    });
  });
});

describe('hash -p', () => {
  it('makes a name run the given pathname until hash -d forgets it', async () => {
    expect(await runShell('hash -p /bin/echo myecho; myecho via-hash; hash -t myecho; hash -d myecho; myecho 2>&1; echo "s=$?"')).toEqual({
      stdout: 'via-hash\n/bin/echo\nbash: line 1: myecho: command not found\ns=127\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('enable', () => {
  it('disables a builtin (found in PATH instead, or not at all), lists the disabled, and enables it again', async () => {
    const script = 'enable -n echo cd; type -t echo; enable -n; cd /tmp; echo "s=$?"; builtin echo x; enable echo; type -t echo; enable nosuch; echo "s=$?"; enable | wc -l; enable -s | head -2';
    expect(await runShell(script)).toEqual({
      stdout: 'file\nenable -n cd\nenable -n echo\ns=127\nbuiltin\ns=1\n60\nenable .\nenable :\n',
      stderr: 'bash: line 1: cd: command not found\nbash: line 1: builtin: echo: not a shell builtin\nbash: line 1: enable: nosuch: not a shell builtin\n',
      exit: 0,
    });
  });
});

describe('name[ where a command name may stand', () => {
  it('reads up to the matching ], and with none before the end is a syntax error that runs nothing', async () => {
    expect(await runShell('x[a b]; echo "s=$?"; echo a[ x')).toEqual({ stdout: 's=127\na[ x\n', stderr: 'bash: line 1: x[a b]: command not found\n', exit: 0 });
    expect(await runShell('echo first; x=1; x[; echo "status=$?"')).toEqual({ stdout: '', stderr: "bash: -c: line 1: unexpected EOF while looking for matching `]'\n", exit: 2 });
  });
});

describe('type on a hashed command', () => {
  it('says it is hashed, with the hashed path, once it ran or hash -p named it', async () => {
    expect(await runShell('ls >/dev/null; type ls; type -t ls; hash -p /usr/bin/printf pf; type pf; type -p pf')).toEqual({
      stdout: 'ls is hashed (/usr/bin/ls)\nfile\npf is hashed (/usr/bin/printf)\n/usr/bin/printf\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('coproc', () => {
  it('a coprocess whose first command is read waits for its input; wait on its pid gives its status, as after disown', async () => {
    const script = 'coproc C { read l; echo "got:$l"; }; echo hello >&"${C[1]}"; read r <&"${C[0]}"; echo "$r"; wait $C_PID; echo "w=$?"; coproc X { read l; exit 5; }; echo hi >&${X[1]}; wait $X_PID; echo "x=$?"; sleep 1 & p=$!; disown; wait $p; echo "d=$?"';
    expect(await runShell(script)).toEqual({ stdout: 'got:hello\nw=0\nx=5\nd=0\n', stderr: '', exit: 0 });
  });

  it('runs a coprocess: what is written to NAME[1] it reads, what it prints NAME[0] gives back', async () => {
    const script = 'coproc cat; echo hello >&"${COPROC[1]}"; exec {COPROC[1]}>&-; read -r line <&"${COPROC[0]}"; echo "$line"; wait; coproc BC { bc; }; echo "6*7" >&"${BC[1]}"; read -r ans <&"${BC[0]}"; echo "ans=$ans"; [[ $BC_PID =~ ^[0-9]+$ ]] && echo pid; exec {BC[1]}>&-; coproc { echo from-coproc; }; read -r got <&"${COPROC[0]}"; echo "$got"';
    expect(await runShell(script)).toEqual({ stdout: 'hello\nans=42\npid\nfrom-coproc\n', stderr: '', exit: 0 });
  });
  it('unsets NAME and NAME_PID once the ended coprocess is reaped, when the shell next waits (patches/just-bash/with-unset-reaped-coprocess.mjs)', async () => {
    const script = 'coproc C { true; }; echo "[${C_PID:+set}]"; wait; echo "[${C_PID-unset}] [${C[@]-unset}]"; coproc cat; exec {COPROC[1]}>&-; echo "[${COPROC_PID:+set}]"; wait; echo "[${COPROC_PID-unset}]"';
    expect(await runShell(script)).toEqual({ stdout: '[set]\n[unset] [unset]\n[set]\n[unset]\n', stderr: '', exit: 0 });
  });
});

describe('a closed standard input (<&-)', () => {
  it('fails reading it, for a command, a group, a function and after exec 0<&-, but not in a later pipeline stage', async () => {
    const script = 'read x <&-; echo "read=$?"; cat <&-; echo "cat=$?"; { read y; echo "group=$?"; } <&-; f() { read z; echo "f=$?"; }; f <&-; exec 0<&-; wc -l; echo "wc=$?"; echo hi | cat; echo a > g; cat < g';
    expect(await runShell(script)).toEqual({
      stdout: 'read=1\ncat=1\ngroup=1\nf=1\n0\nwc=1\nhi\na\n',
      stderr:
        'bash: line 1: read: read error: 0: Bad file descriptor\ncat: -: Bad file descriptor\ncat: closing standard input: Bad file descriptor\n' +
        'bash: line 1: read: read error: 0: Bad file descriptor\nenvironment: line 1: read: read error: 0: Bad file descriptor\nwc: -: Bad file descriptor\n',
      exit: 0,
    });
  });
});

describe('a child shell\'s exported variables', () => {
  it('exports what it inherited, PWD, SHLVL and OLDPWD; its default PATH and the parent\'s later exports stay unexported', async () => {
    const r = await runShell("env -i bash -c 'declare -p PATH; export -p'; bash -c 'export ZZ=1'; export -p | grep -c ZZ");
    expect(r).toEqual({
      stdout: 'declare -- PATH="/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin:."\ndeclare -x OLDPWD\ndeclare -x PWD="/home/sprite"\ndeclare -x SHLVL="1"\n0\n',
      stderr: '',
      exit: 1,
    });
  });
});

describe('command -p', () => {
  it('command -v -p reports what the default PATH (/bin:/usr/bin) finds, a hashed name its hashed path', async () => {
    const r = await runShell('(PATH=/nope; command -v -p ls; command -V -p ls); hash cat; command -v -p cat cp nope_x; echo "s=$?"');
    expect(r).toEqual({ stdout: '/bin/ls\nls is /bin/ls\n/usr/bin/cat\n/bin/cp\ns=0\n', stderr: '', exit: 0 });
  });
});

describe('sed regex addresses', () => {
  it('are extended regexes under -E, and take the I and M flags', async () => {
    const r = await runShell("printf 'hello world\\nfoo bar\\nHello again\\n' > a; sed -E -n '/^(foo|Hello)/p' a; sed -n '/HELLO/Ip' a; sed -E '/^(foo|hello)/Id' a; sed -n '$!N; /^foo/Mp' a");
    expect(r).toEqual({ stdout: 'foo bar\nHello again\nhello world\nHello again\nhello world\nfoo bar\n', stderr: '', exit: 0 });
  });
});

describe('builtins as bash 5.2 words them', () => {
  it('command -V prints a function as type does', async () => {
    expect((await runShell('f() { :; }; command -V f')).stdout).toBe('f is a function\nf () \n{ \n    :\n}\n');
  });

  it("places shopt's errors as the shell's own", async () => {
    const r = await runShell('shopt nosuch_opt; shopt -o nosuch; shopt -s -u extglob; echo "s=$?"');
    expect(r.stderr).toBe('bash: line 1: shopt: nosuch_opt: invalid shell option name\nbash: line 1: shopt: nosuch: invalid option name\nbash: line 1: shopt: cannot set and unset shell options simultaneously\n');
  });

  it('set -x traces an array assignment of declare/local/export/readonly first, quoted, then the command with the name', async () => {
    const r = await runShell(`bash -c 'set -x; declare -a a=([2]=x "y z"); declare -A m=([k]=v); declare -x s=1 t=(7); echo end' 2>&1`);
    expect(r.stdout).toBe("+ a=(['2']='x' 'y z')\n+ declare -a a\n+ m=(['k']='v')\n+ declare -A m\n+ t=('7')\n+ declare -x s=1 t\n+ echo end\nend\n");
  });

  it('local - makes the set options local to the function; shopt options stay as set', async () => {
    expect((await runShell('f() { local x=1; local -; set -eu -o pipefail; shopt -s nullglob; echo "in $-"; }; f; echo "out $-"; set -o | grep -c "^pipefail.*on"; shopt -q nullglob && echo nullglob')).stdout).toBe(
      'in ehuBc\nout hBc\n0\nnullglob\n',
    );
  });

  it('EPOCHREALTIME has microseconds: two reads in a row differ', async () => {
    expect((await runShell('a=$EPOCHREALTIME; b=$EPOCHREALTIME; [[ $b > $a ]] && echo later; [ "${a%.*}" -le "$EPOCHSECONDS" ] && echo same-clock')).stdout).toBe('later\nsame-clock\n');
  });

  it('SECONDS counts on from a value assigned to it', async () => {
    expect((await runShell('SECONDS=100; echo $SECONDS; SECONDS=abc; echo $SECONDS; SECONDS=-5; echo $SECONDS')).stdout).toBe('100\n0\n-5\n');
  });
});

describe('running a script file', () => {
  it('fails as execve does when its #! interpreter is missing, by path and through PATH', async () => {
    const r = await runShell('printf "#!/no/such/interp\\necho hi\\n" > bad.sh; chmod +x bad.sh; ./bad.sh; echo "s=$?"; mkdir b; cp bad.sh b/tool; PATH=$PWD/b:$PATH tool; echo "s=$?"');
    expect(r).toEqual({
      stdout: 's=127\ns=127\n',
      stderr: 'bash: line 1: ./bad.sh: cannot execute: required file not found\nbash: line 1: /home/sprite/b/tool: cannot execute: required file not found\n',
      exit: 0,
    });
  });

  it('has the path as typed for $0, BASH_SOURCE and its messages', async () => {
    const r = await runShell(`mkdir sub; printf 'echo "0=$0 src=\${BASH_SOURCE[0]}"; nope_cmd_x\\n' > sub/s.sh; chmod +x sub/s.sh; ./sub/s.sh; cd sub; ../sub/s.sh`);
    expect(r).toEqual({
      stdout: '0=./sub/s.sh src=./sub/s.sh\n0=../sub/s.sh src=../sub/s.sh\n',
      stderr: './sub/s.sh: line 1: nope_cmd_x: command not found\n../sub/s.sh: line 1: nope_cmd_x: command not found\n',
      exit: 127,
    });
  });

  it('runs under the interpreter its #! line names: env python3, awk -f, and env with a missing program', async () => {
    const r = await runShell(
      `printf '#!/usr/bin/env python3\\nimport sys\\nprint("py", sys.argv[1:])\\n' > t.py; printf '#!/usr/bin/awk -f\\n{ print "awk:" $0 }\\n' > t.awk; ` +
        `printf '#!/usr/bin/env nope_interp\\necho ran-as-bash\\n' > t.sh; chmod +x t.py t.awk t.sh; ./t.py a b; echo x | ./t.awk; ./t.sh; echo "s=$?"`,
    );
    expect(r).toEqual({ stdout: "py ['a', 'b']\nawk:x\ns=127\n", stderr: "env: 'nope_interp': No such file or directory\n", exit: 0 });
  });
});

describe('process ids of subshells and child shells', () => {
  it('a pipeline stage has its own $BASHPID, and a child shell names its starter as $PPID', async () => {
    const r = await runShell(
      `echo x | { [ "$$" != "$BASHPID" ] && echo stage-own; }; { [ "$$" != "$BASHPID" ] && echo last-own; } | cat; [ "$BASHPID" = "$$" ] && echo top; ` +
        `m=$$; bash -c 'echo $PPID' | { read p; [ "$p" = "$m" ] && echo piped-child; }; [ "$(bash -c 'echo $PPID')" = "$m" ] || [ 1 ]; bash -c 'echo $PPID' > f; [ "$(cat f)" = "$m" ] && echo child; ` +
        `bash -c 'p=$$; bash -c "echo \\$PPID" | { read q; [ "$q" = "$p" ] && echo grandchild; }'`,
    );
    expect(r).toEqual({ stdout: 'stage-own\nlast-own\ntop\npiped-child\nchild\ngrandchild\n', stderr: '', exit: 0 });
  });
});

describe('a pipeline stage is a subshell', () => {
  it('pushd and popd there move the stage, not the shell, and leave its directory stack alone', async () => {
    const r = await runShell('mkdir -p w/src && cd w && pushd src | cat; pwd; dirs; popd 2>&1 | cat; echo "s=${PIPESTATUS[0]}"');
    expect(r).toEqual({ stdout: '~/w/src ~/w\n/home/sprite/w\n~/w\nbash: line 1: popd: directory stack empty\ns=1\n', stderr: '', exit: 0 });
  });

  it('a compound stage counts one more BASH_SUBSHELL level; a simple command stage does not', async () => {
    expect((await runShell('echo x | { echo $BASH_SUBSHELL; }; echo $BASH_SUBSHELL | cat; (echo a | { echo $BASH_SUBSHELL; }); echo $BASH_SUBSHELL')).stdout).toBe('1\n0\n2\n0\n');
  });
});

describe('LINENO after a function call', () => {
  it('is the line of the call again, so an ERR trap for a failing call names it', async () => {
    const r = await runShell("f() {\n  return 3\n}\ntrap 'echo \"ERR line=$LINENO\"' ERR\nf\nf || echo \"or line=$LINENO\"");
    expect(r).toEqual({ stdout: 'ERR line=5\nor line=6\n', stderr: '', exit: 0 });
  });
});

describe('brace expansion of a letter range', () => {
  it('runs from one case to the other through the characters between', async () => {
    expect(await runShell('echo {Z..a} | wc -w; echo {X..c..2}; echo {b..Y}')).toEqual({ stdout: '7\nX Z  ^ ` b\nb a ` _ ^ ]  [ Z Y\n', stderr: '', exit: 0 });
    // The backslash's word is empty after quote removal, and kept.
    expect((await runShell("printf '[%s]' {Z..b}; echo")).stdout).toBe('[Z][[][][]][^][_][`][a][b]\n');
  });
});

describe('the time keyword', () => {
  it('reports in the format TIMEFORMAT gives, nothing when it is empty, the three-line form when unset', async () => {
    const r = await runShell(`TIMEFORMAT='took %0Rs|%3lR|%1U|%%'; { time true; } 2>&1 | sed 's/[0-9]/N/g'; TIMEFORMAT=; { time true; } 2>&1 | wc -c; unset TIMEFORMAT; { time true; } 2>&1 | sed 's/[0-9]/N/g'`);
    expect(r).toEqual({ stdout: 'took Ns|NmN.NNNs|N.N|%\n0\n\nreal\tNmN.NNNs\nuser\tNmN.NNNs\nsys\tNmN.NNNs\n', stderr: '', exit: 0 });
  });

  it('alone (time; or time -p at the end of a line) times nothing and reports it', async () => {
    // The report's format, not its figures: an empty pipeline's real time is near zero, but a loaded machine may
    // show 0.01.
    const r = await runShell('TIMEFORMAT=%R; time; echo rc=$?\ntime -p\necho end');
    expect(r).toMatchObject({ stdout: 'rc=0\nend\n', exit: 0 });
    expect(r.stderr).toMatch(/^0\.\d\d\d\nreal 0\.\d\d\nuser 0\.\d\d\nsys 0\.\d\d\n$/);
  });
});

describe('namerefs', () => {
  it('unset -n unsets the nameref itself, and arithmetic assigns through one', async () => {
    const r = await runShell('x=1; declare -n a=x; unset -n a; echo "${a-gone} $x"; inc() { local -n n=$1; (( n++ )); }; c=5; inc c; inc c; declare -n r=c; (( r += 10 )); echo "$c"; declare -p r');
    expect(r).toEqual({ stdout: 'gone 1\n17\ndeclare -n r="c"\n', stderr: '', exit: 0 });
  });
});

describe('reading and quoting', () => {
  it("a select loop in a pipeline reads the pipe; read -t 0 on a closed stdin fails; $'…' ends at a NUL", async () => {
    const r = await runShell('printf "2\\n" | select c in a b; do echo "got $c"; break; done 2>/dev/null; read -t 0 <&-; echo "t=$?"; echo $\'a\\0b\' | od -An -c');
    expect(r.stdout).toBe('got b\nt=1\n   a  \\n\n');
  });

  it('alias lists sorted and quoted, reports each missing name, and unalias words its errors as bash', async () => {
    const r = await runShell(`alias b="echo it's" a=ls; alias -p; alias nope b; echo "s=$?"; unalias nope; echo "s=$?"; unalias; echo "s=$?"`);
    expect(r).toEqual({
      stdout: "alias a='ls'\nalias b='echo it'\\''s'\nalias b='echo it'\\''s'\ns=1\ns=1\ns=2\n",
      stderr: 'bash: line 1: alias: nope: not found\nbash: line 1: unalias: nope: not found\nunalias: usage: unalias [-a] name [name ...]\n',
      exit: 0,
    });
  });
});

describe('[[ =~ ]] and hash', () => {
  it('an invalid extended regular expression returns 2 silently; a lone ) is literal', async () => {
    const r = await runShell('[[ x =~ [ ]]; echo $?; re="(a"; [[ x =~ $re ]]; echo $?; re="a)"; [[ "a)" =~ $re ]]; echo $?; [[ "a]" =~ []a] ]]; echo $?');
    expect(r).toEqual({ stdout: '2\n2\n0\n0\n', stderr: '', exit: 0 });
  });

  it('hash -l of an empty table prints nothing; plain hash says it is empty', async () => {
    expect((await runShell('hash -l; echo "s=$?"; hash')).stdout).toBe('s=0\nhash: hash table empty\n');
  });
});

describe('aliases', () => {
  it('take effect from the next line read, as bash expands them when it reads a command', async () => {
    const r = await runShell("shopt -s expand_aliases; alias hi='echo hello'; hi there\nhi again; eval hi e; f() { hi in-f; }\nf");
    expect(r).toEqual({ stdout: 'hello again\nhello e\nhello in-f\n', stderr: 'bash: line 1: hi: command not found\n', exit: 0 });
  });
});

describe('compgen -v', () => {
  it("lists bash's dynamic variables with the others", async () => {
    expect((await runShell('compgen -v BASH | grep -E "^BASH(PID|_VERSION|_SUBSHELL)$"; compgen -v | grep -cx SECONDS')).stdout).toBe('BASHPID\nBASH_SUBSHELL\nBASH_VERSION\n1\n');
  });
});

describe('test with two arguments, and lookups without a PATH', () => {
  it('a first word that is no unary operator is "unary operator expected", status 2', async () => {
    const r = await runShell('[ 1 -lt ]; echo $?; test a b; echo $?; [ ! a ]; echo $?; [ -z ]; echo $?');
    expect(r).toEqual({ stdout: '2\n2\n1\n0\n', stderr: 'bash: line 1: [: 1: unary operator expected\nbash: line 1: test: a: unary operator expected\n', exit: 0 });
  });

  it('PATH unset or empty finds nothing (execve: No such file or directory), but env -i CMD searches /bin:/usr/bin', async () => {
    const r = await runShell('PATH= ls; echo "s=$?"; (unset PATH; ls; echo "s=$?"); env -i ls -d /');
    expect(r).toEqual({ stdout: 's=127\ns=127\n/\n', stderr: 'bash: line 1: ls: No such file or directory\nbash: line 1: ls: No such file or directory\n', exit: 0 });
  });
});

describe('fold -s', () => {
  it('breaks after a blank that starts the line after a break, as GNU fold', async () => {
    const r = await runShell("printf 'hello world\\nabcdefgh ij\\n' | fold -s -w 5; printf 'a  b  c d\\n' | fold -s -w 3");
    expect(r).toEqual({ stdout: 'hello\n \nworld\nabcde\nfgh \nij\na  \nb  \nc d\n', stderr: '', exit: 0 });
  });
  it('counts a column per byte, as GNU fold (é is two)', async () => {
    expect((await runShell("printf 'héllo wörld\\n' | fold -w 4")).stdout).toBe('hél\nlo w\nörl\nd\n');
  });
});

describe('mv of a directory into itself', () => {
  it("fails with GNU's wording, naming the destination as written", async () => {
    const r = await runShell('mkdir -p src/lib; mv src src/lib; mv src/ ./src/lib/x; echo "s=$?"');
    expect(r).toEqual({ stdout: 's=1\n', stderr: "mv: cannot move 'src' to a subdirectory of itself, 'src/lib/src'\nmv: cannot move 'src/' to a subdirectory of itself, './src/lib/x'\n", exit: 0 });
  });
});

describe('expand -t lists', () => {
  it('take blanks, a final +N or /N, and give one space past the last stop of a plain list', async () => {
    const r = await runShell("for t in '2,5' '4,+2' '4,/3' '2 5'; do printf 'a\\tb\\tc\\td\\te\\n' | expand -t \"$t\"; done");
    expect(r).toEqual({ stdout: 'a b  c d e\na   b c d e\na   b c  d  e\na b  c d e\n', stderr: '', exit: 0 });
  });
});

describe('arithmetic syntax errors', () => {
  it('an unclosed $(( or $[ at the end of the input does not parse: nothing of its line runs, status 2, the line where it began', async () => {
    expect(await runShell("bash -c 'echo before; x=$((1 +'; echo \"s=$?\"; bash -c 'echo one\nx=$(( 1 +\necho two'; echo \"s=$?\"; bash -c 'a=$[1 +'; echo \"s=$?\"")).toEqual({
      stdout: 's=2\none\ns=2\ns=2\n',
      stderr: "bash: -c: line 1: unexpected EOF while looking for matching `)'\nbash: -c: line 2: unexpected EOF while looking for matching `)'\nbash: -c: line 1: unexpected EOF while looking for matching `]'\n",
      exit: 0,
    });
  });
  it('an operator where an operand belongs is "operand expected", naming the rest of the expression', async () => {
    expect(await runShell("echo $((1 +* 2 )); echo not reached")).toEqual({ stdout: '', stderr: 'bash: line 1: 1 +* 2 : syntax error: operand expected (error token is "* 2 ")\n', exit: 1 });
    expect(await runShell("(( x = , 1 )); echo \"s=$?\"; echo $((1 + + 2)) $((1 - -2)) $(( ))")).toEqual({ stdout: 's=1\n3 3 0\n', stderr: 'bash: line 1: ((: x = , 1 : syntax error: operand expected (error token is ", 1 ")\n', exit: 0 });
  });
});

describe('$LINENO in the ERR trap', () => {
  it('is the line where the failing command ended: a subshell\'s `)`, the last line of a command spanning lines', async () => {
    const script = "trap 'echo \"E:$LINENO\"' ERR\necho start\n( exit 3 )\nx=$(false)\n( true\n  false )\nf() { return 2; }\nf\ny=$( true\n false\n)\nfalse \\\n  z\necho \"L:$LINENO\"\n";
    expect(await runShell(`cat > s.sh <<'S'\n${script}S\nbash s.sh`)).toEqual({ stdout: 'start\nE:3\nE:4\nE:6\nE:8\nE:11\nE:13\nL:14\n', stderr: '', exit: 0 });
  });
});

describe("ANSI-C quoting ($'…'), as the bash manual's QUOTING section lists its escapes", () => {
  it.each([
    String.raw`printf '%s|' $'\x4g' $'\x41' $'\x414' $'\x{41}' $'a\x{4142}b' $'\x' | od -An -c`,
    String.raw`printf '%s|' $'\u263a' $'\U0001F600' $'\u41' $'\u' $'\U' $'\u00e9t' | od -An -c`,
    String.raw`printf '%s|' $'\c?' $'\cA\cz\c[' $'\c\\' $'\c\\a' $'\c1' $'\c' | od -An -c`,
    String.raw`printf '%s|' $'\?' $'\'' $'\"' $'\e\E' $'\101' $'\1011' $'\7\07' $'\q\z\8\j' $'\ ' | od -An -c`,
    String.raw`printf '%s|' $'' a $'\0' b $'\x{g}z' c; echo`,
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

describe("read's last variable, as the bash manual's Word Splitting gives IFS whitespace around a delimiter", () => {
  it.each([
    String.raw`IFS=' ,' read -r a b c <<< " 1 , 2 ,3 ,"; echo "[$a][$b][$c]"; IFS=' ,' read -r -a arr <<< " 1 , 2 ,3 ,"; declare -p arr`,
    String.raw`IFS=': ' read -r a b <<< "k: v : "; echo "[$a][$b]"; IFS=': ' read -r a b <<< "k: v : w"; echo "[$a][$b]"`,
    String.raw`IFS=',' read -r a b <<< "1,2,"; echo "[$a][$b]"; IFS=',' read -r a b <<< "1,2,,"; echo "[$a][$b]"; IFS=', ' read -r a b <<< "1, 2 ,  "; echo "[$a][$b]"`,
    String.raw`IFS=', ' read a b <<< '1, 2\ ,  '; echo "[$a][$b]"; IFS=', ' read a b <<< '1, 2\, ,'; echo "[$a][$b]"`,
    String.raw`IFS=' :' read -r a b <<< "x :: y"; echo "[$a][$b]"; IFS=' :' read -r a b <<< "x :: "; echo "[$a][$b]"; IFS=', ' read -r a <<< " a, b , "; echo "[$a]"`,
    String.raw`read -r a b <<< "  x   y   z  "; echo "[$a][$b]"; IFS= read -r a b <<< "  x  "; echo "[$a][$b]"`,
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

describe('the RETURN trap, as the bash manual gives it (a function or a sourced file finishing)', () => {
  it.each([
    String.raw`trap 'echo "RET $?"' RETURN; printf 'echo in\nreturn 4\necho no\n' > s.sh; . ./s.sh; echo "rc=$?"; printf 'false\nreturn 3\n' > s1.sh; . ./s1.sh; echo "rc=$?"; printf 'false\n' > s2.sh; source s2.sh; echo "rc=$?"`,
    String.raw`set -T; trap 'echo "RET $? $FUNCNAME"' RETURN; f(){ echo in; return 4; }; f; echo rc=$?; g(){ false; return 5; }; g; echo rc=$?; h(){ false; }; h; echo rc=$?`,
    String.raw`f(){ trap 'echo "RET $?"' RETURN; false; return 4; }; f; echo rc=$?; trap 'echo "RET $?"' RETURN; k(){ return 2; }; k; echo rc=$?`,
    String.raw`trap 'echo "RET $?"' RETURN; printf 'f(){ return 7; }\nf\necho "f=$?"\nreturn 9\n' > s.sh; . ./s.sh; echo "rc=$?"`,
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

describe('$BASH_COMMAND, the command being run as bash prints it', () => {
  it.each([
    String.raw`trap 'echo "E:$BASH_COMMAND"' ERR; set -- 2; [ "$1" != 2 ]; test a != a; [[ a == b ]]; (( 0 )); ((x=0)); (( y = 1 - 1 ))`,
    String.raw`trap 'echo "E:$BASH_COMMAND"' ERR; false 2>&1; false >&2 2>/dev/null; false &>/dev/null; false <<< "x y"; false < /dev/null >>/dev/null; false 1>/dev/null; false >|/dev/null`,
    String.raw`trap 'echo "E:$BASH_COMMAND"' ERR; x=$(false); y=$(false; echo hi); z=$(exit 3); a=1 false; true | false`,
    `trap 'echo "E:$BASH_COMMAND"' ERR; f() { local a="$1"; [ "$a" -gt 1 ]; }; f 0; v='x y'; false "$v"  'lit'  ; false a!b \${x:-d} $((1+2)) "\${y[@]}" ~/x *.txt {a,b}`,
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

describe('file names holding a newline, which Linux allows', () => {
  it.each([
    String.raw`touch $'a\nb'; echo a*b | od -c; echo a?b | od -c; for f in *; do printf '[%s]\n' "$f"; done; ls a* | od -c; find . -name 'a?b'`,
    String.raw`touch $'nl\nx' $'c\rr'; ls -b; ls -q | cat; find . -name 'nl*'; rm $'nl\nx'; ls -b`,
    String.raw`mkdir $'d\ne'; echo hi > $'d\ne/f\ng'; cat $'d\ne/f\ng'; find . | sort; mv $'d\ne' $'x\ny'; ls -bR; rm -r $'x\ny'; ls`,
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

describe('the ERR trap with errtrace (set -E), in functions, substitutions and subshells', () => {
  it.each([
    `set -E\ntrap 'echo "ERR $?"' ERR\nf() { x=$(false); echo reach1; }\nf\nh() { false; echo reach3; }\nh`,
    `set -E\ntrap 'echo "ERR $? at $LINENO: $BASH_COMMAND"' ERR\nouter() { inner; echo "after inner $?"; }\ninner() { false; return 3; }\nouter\nv=$(inner; echo out)\necho "v=$v"\n( inner )\n( exit 4 )\necho end`,
    `set -eE\ntrap 'echo "ERR $? $BASH_COMMAND"' ERR\nf() { local x; x=$(false); echo unreachable; }\nf\necho not`,
    `trap 'echo "ERR $?"' ERR\ng() { false; echo g-after; }\ng\nv=$(false; echo sub)\n( false ); echo "sub=$?"\n{ false; }\necho "v=$v"`,
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

describe('a nameref to itself', () => {
  it('is an error at the top level (nothing set, status 1) and a warning in a function', async () => {
    const r = await runShell('declare -n r=r; echo "rc=$?"; declare -p r 2>/dev/null || echo unset; f() { local -n x=x; echo "rc=$?"; }; f 2>&1 | grep -c "local: warning: x: circular name reference"');
    expect(r).toEqual({ stdout: 'rc=1\nunset\n1\n', stderr: 'bash: line 1: declare: r: nameref variable self references not allowed\n', exit: 0 });
  });
});

describe('here-documents', () => {
  it('an unquoted body keeps no pattern, tilde or $\'…\' syntax, and \\ escapes only $ ` \\ newline', async () => {
    const script = 'i=2\ncat <<EOF\n[[ -n \\$X ]] && arr[\\$i]=$i\n"[\\$(date)]" [\\\\] \\[ \\a\n~/x $\'a\\tb\' *.none @(x)\nEOF';
    expect(await runShell(script)).toEqual({
      stdout: '[[ -n $X ]] && arr[$i]=2\n"[$(date)]" [\\] \\[ \\a\n~/x $\'a\\tb\' *.none @(x)\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('a script run by its path', () => {
  it('runs as a new bash: its BASH_SOURCE, its own traps and functions, only exported variables, wherever it is called', async () => {
    const ctx = testSprite();
    await runShell(`mkdir -p /tmp/r1 && printf '%s\\n' '#!/bin/bash' 'log(){ echo "LOG $*"; }; trap "log ERR" ERR; echo "src=\${BASH_SOURCE[0]} x=[$x]"; f(){ exit 1; }; f' > /tmp/r1/s.sh && chmod +x /tmp/r1/s.sh`, ctx);
    // A here-document anywhere in the script, a substitution and a pipeline each ran it in the caller's state.
    expect(await runShell('x=1; cat >/dev/null <<EOF\nany\nEOF\n/tmp/r1/s.sh; echo rc=$?; o=$(/tmp/r1/s.sh); echo "$o"; /tmp/r1/s.sh | cat', ctx)).toEqual({
      stdout: 'src=/tmp/r1/s.sh x=[]\nrc=1\nsrc=/tmp/r1/s.sh x=[]\nsrc=/tmp/r1/s.sh x=[]\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe("a function's locals", () => {
  it('leave no declared name or attribute behind when the function returns', async () => {
    const script = 'f() { local x=1; local -r r=2; declare d=3; }; f; declare -p x r d; echo rc=$?; r=5; echo $r; declare z; g() { local z=1; }; g; declare -p z';
    expect(await runShell(script)).toEqual({
      stdout: 'rc=1\n5\ndeclare -- z\n',
      stderr: 'bash: line 1: declare: x: not found\nbash: line 1: declare: r: not found\nbash: line 1: declare: d: not found\n',
      exit: 0,
    });
  });
});

describe('readonly -f', () => {
  it('makes functions read-only and lists them', async () => {
    const script = 'f(){ echo 1; }; readonly -f f; f(){ echo 2; }; echo rc=$?; f; unset -f f; readonly -f nosuch; readonly -f; declare -F';
    expect(await runShell(script)).toEqual({
      stdout: 'rc=1\n1\nf () \n{ \n    echo 1\n}\ndeclare -fr f\ndeclare -fr f\n',
      stderr: 'bash: line 1: f: readonly function\nbash: line 1: unset: f: cannot unset: readonly function\nbash: line 1: readonly: nosuch: not a function\n',
      exit: 0,
    });
  });

  it('reports the redefinition where the shell\'s stderr goes', async () => {
    expect(await runShell('exec 2>&1; f() { :; }; readonly -f f; f() { echo; }; echo "rc=$?"')).toEqual({ stdout: 'bash: line 1: f: readonly function\nrc=1\n', stderr: '', exit: 0 });
  });
});

describe('an array assignment with an empty subscript', () => {
  it('is a bad array subscript that abandons the rest of its line, in a function too', async () => {
    expect(await runShell('declare -A m; k=; m[$k]=1; echo rc=$?\necho "next $?"\nf(){ m[]=1; echo in; }; f; echo rc=$?\necho "${#m[@]}"')).toEqual({
      stdout: 'next 1\n0\n',
      stderr: 'bash: line 1: m[$k]: bad array subscript\nenvironment: line 3: m[]: bad array subscript\n',
      exit: 0,
    });
  });
});

describe('read and mapfile of UTF-8 text', () => {
  it('give the characters of the line, once (not its bytes encoded again)', async () => {
    const r = await runShell("printf 'crème\\nnaïve\\n' > f; while IFS= read -r l; do printf '[%s]' \"$l\"; done < f; read -r x <<< 'Zürich'; mapfile -t a < f; printf '%s|%s|%s\\n' \"$x\" \"${a[0]}\" \"${a[1]}\"");
    expect(r.stdout).toBe('[crème][naïve]Zürich|crème|naïve\n');
  });
});

// coreutils 9 cat.c, measured with bash 5.2 on a GNU/Linux host (stdout-file-known, cat-input-is-output).
describe('cat onto its own output file', () => {
  it('skips a non-empty operand that is the file its stdout writes to, with GNU\'s message and status 1', async () => {
    const script = [
      `echo x > f; cat f >> f; echo "rc=$?"; cat f`,
      `echo y > g; cat g f g >> f; echo "rc=$?"; cat f`,
      `cat < f >> f; echo "rc=$?"`,
      `ln -s f l; ln f h; cat l h >> f; echo "rc=$?"`,
      `cat f &>> f; echo "rc=$?"; tail -1 f`,
    ].join('; ');
    expect(await runShell(script)).toEqual({
      stdout: 'rc=1\nx\nrc=1\nx\ny\ny\nrc=1\nrc=1\nrc=1\ncat: f: input file is output file\n',
      stderr: 'cat: f: input file is output file\ncat: f: input file is output file\ncat: -: input file is output file\ncat: l: input file is output file\ncat: h: input file is output file\n',
      exit: 0,
    });
  });
  it('copies an empty file or one truncated by >; follows the descriptors exec opened', async () => {
    const r = await runShell(`: > e; cat e >> e; echo "rc=$?"; echo x > f; cat f > f; wc -c < f; echo x > f; exec 3>>f; cat f >&3; echo "rc=$?"; cat f`);
    expect(r).toEqual({ stdout: 'rc=0\n0\nrc=1\nx\n', stderr: 'cat: f: input file is output file\n', exit: 0 });
  });
});

describe('read, substitutions, brace sequences and wait as bash has them', () => {
  it('read -n and -N count characters in a UTF-8 locale and bytes in C', async () => {
    const script = `printf 'héllo\\n' | { LC_ALL=C.UTF-8 read -n 2 x; echo "$x"; }; printf 'héllo\\n' | { LC_ALL=C.UTF-8 read -N 3 x; echo "$x"; }; printf 'héllo\\n' | { LC_ALL=C read -n 2 x; printf '%s' "$x" | od -An -tx1; }`;
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
  it("a command substitution drops NUL bytes with bash's warning, before its trailing newlines go", async () => {
    const script = `x=$(printf 'a\\0b'); echo \${#x}; x=$(printf 'a\\n\\0'); echo "[$x]"; printf 'p\\0q' > f; y=$(<f); echo "$y"`;
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
  it('a zero-padded brace sequence is as wide as its wider padded end, sign included', async () => {
    const script = 'echo {-05..05..5}; echo {05..-5..5}; echo {-03..3}; echo {001..-2}; echo {-010..10..10}';
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
  it('wait on a word that is no pid or job spec is status 1; on a pid the shell does not have, 127; -- ends options', async () => {
    const script = 'wait abc; echo $?; wait 99999; echo $?; wait %3; echo $?; wait -- x1; echo $?';
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

describe('the end of a $(…) body (patches/just-bash/substitution-body-end.mjs)', () => {
  it('a # inside a word is text: after $, ${…}, a quote, ], a $(…) or a base in $((…)), in $(…) and in backquotes', async () => {
    const script = "set -- a b; x=$(echo $# ${#} 'k'#v \"q\"#w); y=`echo $#`; a=(x); z=$(echo ${a[0]}#y $(echo a)#b $((16#ff)) $'e'#f); echo \"$x|$y|$z\"; echo after";
    expect(await runShell(script)).toEqual({ stdout: '2 2 k#v q#w|2|x#y a#b 255 e#f\nafter\n', stderr: '', exit: 0 });
    expect(await runShell('set -- a b c\nfor i in $(seq 1 $#); do echo "arg $i"; done\necho "count: $(echo $#)"')).toEqual({ stdout: 'arg 1\narg 2\narg 3\ncount: 3\n', stderr: '', exit: 0 });
  });

  it('a comment starts a word and runs to the newline: its quotes and parentheses are text', async () => {
    const script = "x=$(\n  # don't say \"hi\n  echo ok   # note: done)\n); y=$(echo a;# it's\necho b); z=$(case a in a) echo A#;; #b) no\nesac # )\n); echo \"$x|$y|$z\"";
    expect(await runShell(script)).toEqual({ stdout: 'ok|a\nb|A#\n', stderr: '', exit: 0 });
  });

  it('case and esac are keywords only as the first word of a command: `echo case; echo in` closes nothing', async () => {
    expect(await runShell('x=$(echo case; (echo x); echo in a); y=$(case case in case) echo C;; esac | cat); echo "$x|$y"')).toEqual({ stdout: 'case\nx\nin a|C\n', stderr: '', exit: 0 });
  });

  it("$'…' keeps \\' inside $(…), and a $(…) inside double quotes is a body of its own", async () => {
    expect(await runShell("x=$(echo $'a\\'b)' \"$(echo \")\")\" \"${u:-c)d}\"); echo \"$x\"")).toEqual({ stdout: "a'b) ) c)d\n", stderr: '', exit: 0 });
  });
});

describe('${v//pattern/string} (patches/just-bash/replace-all-pattern-anchor.mjs)', () => {
  it('after // a # or % is part of the pattern; after one / it anchors', async () => {
    const script = "msg='100% done'; printf \"${msg//%/%%}\\n\"; s='#a#b%'; echo \"${s//#}|${s//#/-}|${s//%/ pct}|${s/#/^}|${s/%/$}|${s/#\\#/}\"";
    expect(await runShell(script)).toEqual({ stdout: '100% done\nab%|-a-b%|#a#b pct|^#a#b%|#a#b%$|a#b%\n', stderr: '', exit: 0 });
  });
});

describe('numbers that are not valid in their base (patches/just-bash/valid-integer-errors.mjs)', () => {
  it('assigned to an integer variable: the arithmetic error, and the script ends with status 1', async () => {
    expect(await runShell('declare -i n; n=08; echo "n=$n"')).toEqual({ stdout: '', stderr: 'bash: line 1: 08: value too great for base (error token is "08")\n', exit: 1 });
    expect(await runShell('declare -i n=09; echo no')).toEqual({ stdout: '', stderr: 'bash: line 1: declare: 09: value too great for base (error token is "09")\n', exit: 1 });
    expect(await runShell('f() { local -i n=16#zz; echo no; }; f; echo no')).toEqual({ stdout: '', stderr: 'environment: line 1: local: 16#zz: value too great for base (error token is "16#zz")\n', exit: 1 });
    expect(await runShell('declare -i n=5; n=; m=1; declare -i m; m+=2; echo "[$n] $m"')).toEqual({ stdout: '[0] 3\n', stderr: '', exit: 0 });
  });

  it('as an array subscript the same; in [[ -eq ]] that comparison is false and [[ goes on', async () => {
    expect(await runShell('a=(x y z); echo "${a[08]}"; echo no')).toEqual({ stdout: '', stderr: 'bash: line 1: 08: value too great for base (error token is "08")\n', exit: 1 });
    expect(await runShell('a=(x y z); echo "${a[010]}${a[0]}"; [[ 08 -eq 8 ]]; echo "rc=$?"; [[ 1 -eq 09 || 010 -eq 8 ]]; echo "rc=$?"')).toEqual({
      stdout: 'x\nrc=1\nrc=0\n',
      stderr: 'bash: line 1: [[: 08: value too great for base (error token is "08")\nbash: line 1: [[: 09: value too great for base (error token is "09")\n',
      exit: 0,
    });
  });
});

describe('attributes of array elements (patches/just-bash/typed-array-elements.mjs)', () => {
  it('-i, -l and -u apply to the elements assigned after the declaration; +i, +l and +u remove them', async () => {
    const script =
      'declare -ia a=(1+1 2*3); a+=(4+4); a[5]=2*5; a[0]+=1; declare -iA m; m[x]=2+3; declare -u u=(x y); u+=(z); u[4]+=w; ' +
      'f() { local -ia l=(3*3); echo "${l[@]}"; }; f; declare -i n=5; declare +i n; n=2+3; declare -u s; declare +u s; s=ab; ' +
      'echo "${a[@]} ${m[x]} ${u[@]} $n $s"';
    expect(await runShell(script)).toEqual({ stdout: '9\n3 6 8 10 5 X Y Z W 2+3 ab\n', stderr: '', exit: 0 });
  });
});

describe('attributes applied by every assignment (patches/just-bash/variable-attributes-assigned.mjs)', () => {
  it('for, ${NAME:=word}, read, read -a, printf -v, mapfile and getopts evaluate or convert what they assign', async () => {
    const script =
      'declare -i n m r p; declare -u u; declare -ia a; for n in 2*3; do :; done; echo ${m:=1+1}; read r x <<< "4+1 y"; printf -v p %s 7*6; ' +
      'for u in ab; do :; done; mapfile -t a <<< $\'1+1\\n2+2\'; echo "$n $m $r $x $p $u ${a[@]}"; read -a a <<< "3*3 08"; echo no';
    expect(await runShell(script)).toEqual({ stdout: '2\n6 2 5 y 42 AB 2 4\n', stderr: 'bash: line 1: read: 08: value too great for base (error token is "08")\n', exit: 1 });
  });

  it('printf -v of a value that does not evaluate ends the script (or the subshell) as an assignment\'s error does', async () => {
    expect(await runShell('declare -i n; f() { printf -v n 08 || echo caught; echo in; }; f; echo "rc=$?"')).toEqual({
      stdout: '',
      stderr: 'environment: line 1: printf: 08: value too great for base (error token is "08")\n',
      exit: 1,
    });
    expect(await runShell('declare -i n; x=$(printf -v n "x y"; echo in); echo "rc=$? [$x]"')).toEqual({
      stdout: 'rc=1 []\n',
      stderr: 'bash: line 1: printf: x y: syntax error in expression (error token is "y")\n',
      exit: 0,
    });
  });
});

describe('the directory stack by index', () => {
  it.each([
    'cd /; pushd /usr >/dev/null; pushd /etc >/dev/null; pushd +1; pushd -0; pushd -n +1; pwd; dirs; popd +1; popd -0; popd; echo "s=$?"; pushd -n /tmp; dirs; pwd',
    'dirs +1; echo "s=$?"; cd /; pushd /usr >/dev/null; pushd +5; echo "s=$?"; popd -x; echo "s=$?"; popd foo; echo "s=$?"; dirs -lv; echo "s=$?"',
    'cd /; pushd /usr >/dev/null; pushd /etc >/dev/null; dirs +0; dirs +1; dirs -0; dirs -2; dirs +3; echo "s=$?"; dirs -v +1; dirs -v; dirs -p',
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

describe('times and logout', () => {
  it('times prints two lines of zero times; logout fails outside a login shell and exits a login one', async () => {
    const script = "times; type -t times logout; logout; echo \"s=$?\"; bash -lc 'logout 3; echo no'; echo \"s=$?\"";
    expect(await runShell(script)).toEqual({
      stdout: '0m0.000s 0m0.000s\n0m0.000s 0m0.000s\nbuiltin\nbuiltin\ns=1\ns=3\n',
      stderr: "bash: line 1: logout: not login shell: use `exit'\n",
      exit: 0,
    });
  });
});

describe('exec options', () => {
  it.each([
    "(exec -c env) | wc -l; (exec -c nosuch); echo \"s=$?\"; x=1; export x; (exec -c sh -c 'echo [$x]')",
    "exec -x; echo \"s=$?\"; (exec -la foo bash -c 'echo $0'); (exec -l bash -c 'echo $0'); (exec -a); echo \"s=$?\"",
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

describe('declare -t, BASH_ARGC/BASH_ARGV, BASH_VERSION in listings, $(…) and the hash table', () => {
  it.each([
    'declare -t x=1; declare -tr y; declare -p x y; declare +t x; declare -p x; declare -t; f() { :; }; declare -ft f; declare -F; declare -pf f',
    'shopt -s extdebug; f() { echo "${BASH_ARGC[*]} ${BASH_ARGV[*]}"; g x y; }; g() { echo "${BASH_ARGC[*]} ${BASH_ARGV[*]}"; }; f a b c; echo "${BASH_ARGC[*]}|${BASH_ARGV[*]}"',
    'hash -r; x=$(ls); hash -l; echo "s=$?"; ls >/dev/null; x=$(cat </dev/null; hash -r); hash -l',
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
  it('set and declare -p list BASH_VERSION', async () => {
    expect(await runShell("set | grep '^BASH_VERSION='; declare -p BASH_VERSION")).toEqual({
      stdout: "BASH_VERSION='5.2.37(1)-release'\ndeclare -- BASH_VERSION=\"5.2.37(1)-release\"\n",
      stderr: '',
      exit: 0,
    });
  });
});

describe('a command run as a builtin knows it (patches/just-bash/tell-builtin-context.mjs)', () => {
  it('pwd found by name is bash\'s logical builtin; by a path it is the program, physical unless -L', async () => {
    expect(await runShell('mkdir real; ln -s real lnk; cd lnk; pwd; command pwd; builtin pwd; /bin/pwd; /usr/bin/pwd -L; /bin/pwd -LP')).toEqual({
      stdout: '/home/sprite/lnk\n/home/sprite/lnk\n/home/sprite/lnk\n/home/sprite/real\n/home/sprite/lnk\n/home/sprite/real\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('the hash table and the engine helper commands', () => {
  it('a top-level bash or sh (run through the streaming helper) is hashed under its own name', async () => {
    expect(await runShell('bash -c true; echo x; hash -l')).toEqual({ stdout: 'x\nbuiltin hash -p /usr/bin/bash bash\n', stderr: '', exit: 0 });
    expect(await runShell("sh -c 'echo $0'; hash -t sh")).toEqual({ stdout: 'sh\n/usr/bin/sh\n', stderr: '', exit: 0 });
  });
});

describe('hash hit counts', () => {
  it.each([
    'hash -r; for i in 1 2 3; do ls >/dev/null; done; type ls >/dev/null; command -v ls; type -P ls; hash -t ls; hash',
    'hash -r; hash cat; (cat </dev/null); x=$(cat </dev/null); cat </dev/null | cat; hash; cat </dev/null; command -V cat; hash',
    'hash -r; hash -p /bin/ls ls; type -P ls; command -v ls; type ls; hash',
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

describe('a PATH without the shell', () => {
  it.each([
    "mkdir -p b; printf '#!/bin/sh\\necho mine\\n' > b/mine; chmod +x b/mine; PATH=$PWD/b mine; (PATH=/nonexist; ./b/mine); printf 'echo plain\\n' > b/plain; chmod +x b/plain; PATH=$PWD/b plain",
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
  it('a top-level script run by path after PATH lost /usr/bin', async () => {
    expect(await runShell("printf '#!/bin/sh\\necho ok\\n' > s.sh; chmod +x s.sh; PATH=/nonexist; ./s.sh")).toEqual({ stdout: 'ok\n', stderr: '', exit: 0 });
  });
});

describe('BASH_VERSION as a variable', () => {
  it.each([
    'unset BASH_VERSION; echo "[$BASH_VERSION]"; BASH_VERSION=x; echo $BASH_VERSION; env | grep -c BASH_VERSION',
    "sh -c 'echo \"[$BASH_VERSION]\"'; dash -c 'echo \"[$BASH_VERSION]\"'; echo ${BASH_VERSION%%.*}",
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

describe('exec runs a program, never a builtin (patches/just-bash/exec-program.mjs)', () => {
  it('runs the program PATH has for a builtin\'s name, and finds none when PATH has none', async () => {
    expect(await runShell('mkdir real; ln -s real lnk; cd lnk; (exec pwd); (exec echo --version) | head -1; (PATH=/nowhere; exec echo hi); echo "s=$?"; (exec cd /); echo "s=$?"')).toEqual({
      stdout: '/home/sprite/real\necho (GNU coreutils) 9.1\ns=127\ns=127\n',
      stderr: 'bash: line 1: exec: echo: not found\nbash: line 1: exec: cd: not found\n',
      exit: 0,
    });
  });
});

describe('a script read from /dev/stdin (patches/just-bash/source-dev-stdin.mjs, shell-command.ts, python-command.ts)', () => {
  it.each([
    'source /dev/stdin <<< "echo sourced"; echo "x=5; echo in \\$x" | . /dev/fd/0; printf "echo a\\necho b\\n" | { source /dev/stdin; echo after; cat; }; source /dev/stdin arg1 <<< "echo \\"[\\$1]\\""',
    'bash /dev/stdin a b <<< "echo \\"\\$0 [\\$1] \\$#\\""; echo "echo from-sh \\$0" | sh /dev/fd/0; echo "print(1+1)" | python3 /dev/stdin; printf "import sys\\nprint(sys.argv, __file__)\\n" | python3 /dev/stdin x',
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});
