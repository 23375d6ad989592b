import { describe, expect, it } from 'vitest';
import { loudOptions } from './loud-options.ts';
import { hostCoreutilsText } from './gnu-help.ts';
import { runShell, testSprite } from '../../../../../test/support/shell-run.ts';

// What real bash and GNU coreutils do, for the command lines the differential corpus (test/external/differential)
// found the shell engine answering differently.

const tree = (ctx = testSprite()) => runShell('mkdir -p w/d && cd w && echo a > f && echo b > d/g', ctx).then(() => ctx);

describe('rm of the operands that name no file, the working directory or /', () => {
  it('rm -rf "" removes nothing and exits 0; rm "" fails as GNU does', async () => {
    const ctx = await tree();
    expect(await runShell('cd w && rm -rf ""; echo $?; rm -rf "$UNSET"; ls', ctx)).toEqual({ stdout: '0\nd\nf\n', stderr: '', exit: 0 });
    expect(await runShell('cd w && rm ""', ctx)).toEqual({ stdout: '', stderr: "rm: cannot remove '': No such file or directory\n", exit: 1 });
  });
  it('rm -rf . and .. refuse and keep the tree', async () => {
    const ctx = await tree();
    const r = await runShell('cd w && rm -rf .; echo $?; rm -rf ./ ..; echo $?; ls', ctx);
    expect(r.stdout).toBe('1\n1\nd\nf\n');
    expect(r.stderr).toBe("rm: refusing to remove '.' or '..' directory: skipping '.'\nrm: refusing to remove '.' or '..' directory: skipping './'\nrm: refusing to remove '.' or '..' directory: skipping '..'\n");
  });
  it('rm -rf / refuses; with --no-preserve-root it is a loud refusal, never a wipe', async () => {
    const ctx = await tree();
    expect(await runShell('rm -rf /', ctx)).toEqual({ stdout: '', stderr: "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n", exit: 1 });
    const r = await runShell('rm -rf --no-preserve-root /; echo $?; cat w/f', ctx);
    expect(r.stdout).toBe('2\na\n');
    expect(r.stderr).toContain('--exec sandbox');
  });
});

describe('options a command lacks', () => {
  it('fail loudly with exit 2, naming the option and --exec sandbox', async () => {
    const r = await runShell('echo a > f; cp -Z f g; echo $?; test -e g || echo none');
    expect(r.stdout).toBe('2\nnone\n');
    expect(r.stderr).toBe("cp: option -Z is not available in the shell engine; run spritzer with --exec sandbox\n");
  });
  it('leave other failures and nested commands alone', () => {
    const nested = { stdout: '', stderr: "grep: invalid option -- 'Q'\n", exitCode: 1 };
    expect(loudOptions('xargs', nested)).toBe(nested);
    const other = { stdout: '', stderr: 'cp: nope: No such file or directory\n', exitCode: 1 };
    expect(loudOptions('cp', other)).toBe(other);
    const noGnu = () => undefined;
    expect(loudOptions('cp', { stdout: '', stderr: "cp: unrecognized option '--zap'\n", exitCode: 1 }, [], noGnu)).toEqual({
      stdout: '',
      stderr: 'cp: option --zap is not available in the shell engine; run spritzer with --exec sandbox\n',
      exitCode: 2,
    });
  });
  it("give GNU's own rejection of an option GNU's program lacks too, with the option as written", () => {
    const seen: string[] = [];
    const gnu = (name: string, opt: string) => (seen.push(`${name} ${opt}`), { stdout: '', stderr: `${name}: unrecognized option '${opt}'\nTry\n`, exitCode: 1 });
    expect(loudOptions('cut', { stdout: '', stderr: "cut: unrecognized option '--zap'\n", exitCode: 1 }, ['--zap=3', 'f'], gnu)).toEqual({ stdout: '', stderr: "cut: unrecognized option '--zap=3'\nTry\n", exitCode: 1 });
    expect(seen).toEqual(['cut --zap=3']);
  });
  it.runIf(hostCoreutilsText('ls', '--version') !== undefined)('answer as GNU does (status 1 or 2 per program) for a typo, and run an abbreviation GNU takes in full', async () => {
    const r = await runShell("printf 'b\\na\\n' > f; sort --rev f; wc --l < f; cut --bogus f; echo $?; head -Z f; echo $?; sort --bogus f; echo $?; sed --bogus 2>&1 | head -1; sed -n --zap p f 2>&1 | head -2");
    expect(r.stdout).toBe("b\na\n2\n1\n1\n2\nsed: unrecognized option '--bogus'\nsed: unrecognized option '--zap'\nUsage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n");
    expect(r.stderr).toBe("cut: unrecognized option '--bogus'\nTry 'cut --help' for more information.\nhead: invalid option -- 'Z'\nTry 'head --help' for more information.\nsort: unrecognized option '--bogus'\nTry 'sort --help' for more information.\n");
  });
});

describe('shell semantics', () => {
  it('an assignment alone has the status of its last command substitution', async () => {
    expect((await runShell('x=$(false); echo $?; x=$(exit 3); echo $?; x=`false`; echo $?; x=$(true); echo $?')).stdout).toBe('1\n3\n1\n0\n');
  });
});

describe('here-docs and noclobber', () => {
  it('text after a here-doc operator on its line still runs', async () => {
    expect((await runShell("cat <<X | wc -l\na\nb\nX\necho after")).stdout).toBe('2\nafter\n');
    expect((await runShell("cat <<'E' > f\nline $x\nE\ncat f")).stdout).toBe('line $x\n');
    expect((await runShell('cat <<A <<B\none\nA\ntwo\nB')).stdout).toBe('two\n');
  });
  it('set -C refuses to overwrite the script\'s files, not the output', async () => {
    const r = await runShell('echo a > f; set -C; echo b > f; echo $?; echo c >| f; cat f');
    expect(r.stdout).toBe('1\nc\n');
    expect(r.stderr).toContain('cannot overwrite existing file');
  });
});

describe('cp and mv as GNU runs them', () => {
  it('a destination ending in / must be a directory; nothing is created', async () => {
    const ctx = testSprite();
    await runShell('echo a > a', ctx);
    expect(await runShell('cp a nodir/; echo $?; mv a nodir/; echo $?; ls', ctx)).toEqual({
      stdout: '1\n1\na\n',
      stderr: "cp: cannot create regular file 'nodir/': Not a directory\nmv: cannot move 'a' to 'nodir/': Not a directory\n",
      exit: 0,
    });
  });
  it('-f replaces, mv a a is the same file', async () => {
    const ctx = testSprite();
    await runShell('echo a > a && echo b > b', ctx);
    expect((await runShell('cp -f a b; cat b; mv a a; echo $?; mv -f b a; cat a; ls', ctx)).stdout).toBe('a\n1\na\na\n');
  });
  it('-T copies or moves onto the destination itself', async () => {
    const ctx = testSprite();
    await runShell('mkdir -p s/l e f && echo u > s/l/u && echo a > a && echo x > f/x', ctx);
    const r = await runShell('cp -rT s d; find d | sort; mv -T e e2; ls -d e2; mv -T s f; echo $?; cp -T a e2; echo $?', ctx);
    expect(r.stdout).toBe('d\nd/l\nd/l/u\ne2\n1\n1\n');
    expect(r.stderr).toBe("mv: cannot move 's' to 'f': Directory not empty\ncp: cannot overwrite directory 'e2' with non-directory\n");
  });
  it('-a and -P copy a symlink as a link, alone or in a tree', async () => {
    const ctx = testSprite();
    await runShell('echo a > a && ln -s a ln && mkdir t && ln -s ../a t/l', ctx);
    expect((await runShell('cp -P ln l2; readlink l2; cp -a ln l3; readlink l3', ctx)).stdout).toBe('a\na\n');
    expect(await runShell('cp -a t t2; echo $?; readlink t2/l; cp -rP t t3; readlink t3/l', ctx)).toEqual({ stdout: '0\n../a\n../a\n', stderr: '', exit: 0 });
  });
});

describe('grep as GNU grep', () => {
  const tree = async () => {
    const ctx = testSprite();
    await runShell("mkdir -p w/src w/docs && cd w && printf 'x TODO\\n' > src/a.ts && printf 'TODO\\n' > .hidden && printf 'none\\n' > docs/b.md", ctx);
    return ctx;
  };
  it('grep -rHnF keeps the operand in the path and searches dotfiles', async () => {
    const ctx = await tree();
    expect((await runShell('cd w && grep -rHnF TODO . | sort', ctx)).stdout).toBe('./.hidden:1:TODO\n./src/a.ts:1:x TODO\n');
    expect((await runShell('cd w && grep -rn TODO src', ctx)).stdout).toBe('src/a.ts:1:x TODO\n');
    expect((await runShell('cd w && grep -r TODO | sort', ctx)).stdout).toBe('.hidden:TODO\nsrc/a.ts:x TODO\n');
    expect((await runShell("cd w && grep -r --include='*.ts' TODO .", ctx)).stdout).toBe('./src/a.ts:x TODO\n');
    expect((await runShell('cd w && grep -r --exclude-dir=src TODO .', ctx)).stdout).toBe('./.hidden:TODO\n');
  });
  it('-H names a single file, -s drops missing-file messages, every -e counts', async () => {
    const ctx = await tree();
    expect((await runShell('cd w && grep -H TODO .hidden; grep -s TODO nope; echo $?; grep -e none -e TODO .hidden docs/b.md', ctx))).toEqual({
      stdout: '.hidden:TODO\n2\n.hidden:TODO\ndocs/b.md:none\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('stat -c and find -printf as GNU', () => {
  const tree = async () => {
    const ctx = testSprite();
    await runShell('mkdir -p w/d && cd w && printf abc > f && chmod 640 f && ln -s f l && : > e', ctx);
    return ctx;
  };
  it('stat -c prints sizes, modes, types, owners, mtimes and link targets', async () => {
    const ctx = await tree();
    const r = await runShell("cd w && stat -c '%n %s %a %A %F %U %G %h' f d l e && stat -c %N l && stat --format=%s f && stat -L -c %F l && stat -c %Y f", ctx);
    expect(r.stdout).toBe(
      'f 3 640 -rw-r----- regular file sprite sprite 1\nd 4096 755 drwxr-xr-x directory sprite sprite 2\nl 1 777 lrwxrwxrwx symbolic link sprite sprite 1\ne 0 644 -rw-r--r-- regular empty file sprite sprite 1\n' +
        "'l' -> 'f'\n3\nregular file\n" +
        `${Date.UTC(2026, 10, 30, 9, 5, 0) / 1000}\n`,
    );
  });
  it('find -printf formats %y %p %P %f %m %s', async () => {
    const ctx = await tree();
    const r = await runShell("cd w && find . -printf '%y %p\\n' | sort; find . -type f -printf '%P %f %m %s\\n' | sort", ctx);
    expect(r.stdout).toBe('d .\nd ./d\nf ./e\nf ./f\nl ./l\ne e 644 0\nf f 640 3\n');
  });
  it('refuses loudly what it does not format', async () => {
    const ctx = await tree();
    for (const s of ['stat -c %C w/f', "find w -printf '%S\\n'"]) {
      const r = await runShell(s, ctx);
      expect([r.exit, r.stderr.includes('--exec sandbox')]).toEqual([2, true]);
    }
  });
});

describe('sed -i with a backup suffix', () => {
  it('-i.bak and --in-place=.orig keep the original; a bad script leaves no backup', async () => {
    const ctx = testSprite();
    await runShell("printf 'hello\\n' > a", ctx);
    expect((await runShell("sed -i.bak 's/hello/bye/' a && cat a a.bak && sed --in-place=.orig -e 's/bye/ciao/' a && cat a.orig a", ctx)).stdout).toBe('bye\nhello\nbye\nciao\n');
    const r = await runShell("sed -i.x 'k' a; test -e a.x || echo none", ctx);
    expect(r.stdout).toBe('none\n');
  });
});

describe('file permissions of the sprite user', () => {
  it('for a service, a 0444 file is not written, a 0000 file not read; the failed redirection fails its command and the script goes on', async () => {
    const ctx = testSprite();
    const service = { service: true };
    await runShell("printf 'keep\\n' > f && chmod 444 f && printf 'x\\n' > g && chmod 000 g", ctx, service);
    const w = await runShell('echo over > f; echo "st=$?"; echo more >> f; echo "st=$?"; cat f', ctx, service);
    expect(w).toEqual({ stdout: 'st=1\nst=1\nkeep\n', stderr: 'bash: line 1: f: Permission denied\nbash: line 1: f: Permission denied\n', exit: 0 });
    // sed -i writes a new file renamed over the old one: the file's own mode does not stop it, and stays.
    expect((await runShell('sed -i s/keep/x/ f; cat f; stat -c %a f; sed -i s/x/keep/ f', ctx, service)).stdout).toBe('x\n444\n');
    // just-bash's cat words every read failure as ENOENT; the failure and its status are what matter here.
    const r = await runShell('chmod 644 f; cat f; cat g; echo $?', ctx, service);
    expect([r.stdout, r.stderr.startsWith('cat: g: ')]).toEqual(['keep\n1\n', true]);
  });

  it('in an exec session (CAP_DAC_OVERRIDE) the modes do not stop it: a 0444 file is written, a 0000 file read', async () => {
    const ctx = testSprite();
    await runShell("printf 'keep\\n' > f && chmod 444 f && printf 'x\\n' > g && chmod 000 g", ctx);
    const w = await runShell('echo over > f; echo more >> f; cat f g; stat -c %a f g', ctx);
    expect(w).toEqual({ stdout: 'over\nmore\nx\n444\n0\n', stderr: '', exit: 0 });
  });
});

describe('ls of several operands, umask, ulimit', () => {
  it('lists files in one block, then each directory, sorted as GNU ls in the C locale', async () => {
    const ctx = testSprite();
    await runShell('mkdir -p w/src w/docs && cd w && touch b.txt A.txt src/x docs/y', ctx);
    expect((await runShell('cd w && ls b.txt A.txt; ls src docs; ls -d src b.txt', ctx)).stdout).toBe('A.txt\nb.txt\ndocs:\ny\n\nsrc:\nx\nb.txt\nsrc\n');
  });
  it('umask reports 0022 when a process starts, -S symbolic, -p as a command', async () => {
    const r = await runShell('umask; umask -S; umask -p; umask -p -S; umask 022; echo $?; umask 077; echo $?; umask');
    expect(r).toEqual({ stdout: '0022\nu=rwx,g=rx,o=rx\numask 0022\numask -S u=rwx,g=rx,o=rx\n0\n0\n0077\n', stderr: '', exit: 0 });
  });
});

describe("grep's basic regular expressions", () => {
  it('\\+ and \\? mean one or more and zero or one, as in GNU grep', async () => {
    expect((await runShell("printf 'hello\\n123\\n' > f; grep -o 'l\\+' f; grep -c '^[0-9]\\+$' f; grep -c 'hel\\?lo' f")).stdout).toBe('ll\n1\n1\n');
  });
});

describe('printf is a bash builtin', () => {
  it('its messages are the shell\'s, as bash words them (bash: … printf: x: invalid number)', async () => {
    expect(await runShell("printf '%d\\n' 42 x; echo $?")).toEqual({ stdout: '42\n0\n1\n', stderr: 'bash: line 1: printf: x: invalid number\n', exit: 0 });
  });
});
