import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';
import { engineBash, hostBash } from '../../../../../test/support/host-bash.ts';

// GNU find 4.9 on the same tree: each expected output is what real find printed (sorted where the order is the
// directory's).

const TREE = [
  'mkdir -p w/src/lib w/docs w/empty "w/sp ace" && cd w',
  "printf 'hello world\\n' > a.txt && printf '12345678901234567890\\n' > big.txt && printf x > z",
  "printf '#!/bin/sh\\n' > run.sh && chmod 755 run.sh && ln -s a.txt link && ln -s src dl",
  "touch f10 f9 f1.tar.gz f1.txt 'b~' .hid src/main.py",
].join(' && ');

const find = async (script: string) => runShell(`${TREE} && ${script}`);
const out = async (script: string) => (await find(script)).stdout;
const lines = (...names: string[]) => names.map((n) => `${n}\n`).join('');

describe('find -newerXY', () => {
  it('compares modification times with a date string (-newermt) or a file (-newermm), and rejects a bad date', async () => {
    const r = await runShell("mkdir w && cd w && touch -d 2010-06-01 old && touch -d 2020-06-01 new && find . -type f -newermt 2015-01-01; find . -type f -newermm old; find . -type f ! -newermt '2010-06-02 00:00'; find . -newermt garbage; echo \"s=$?\"");
    expect(r.stdout).toBe('./new\n./new\n./old\ns=1\n');
    expect(r.stderr).toBe("find: I cannot figure out how to interpret 'garbage' as a date or time\n");
  });
});

describe('find: access times', () => {
  // Real find's answer on the same script (the differential corpus holds it too).
  it('-atime, -amin, -anewer, -newerat and %A test and print the access time, which a read moves', async () => {
    const r = await runShell("mkdir w && cd w && touch -d 2001-01-01 ref && touch -m -d 2000-01-01 fresh && touch -a -d 2000-01-01 stale && touch -a -d 2030-01-01 later && find . -type f -atime +1 | sort; find . -type f -amin -5 | sort; find . -type f -anewer ref | sort; find . -newerat 2020-01-01 -type f | sort; find later -printf '%AY %Ab %a\\n'; cat stale >/dev/null; find . -name stale -atime +1");
    expect(r).toEqual({ stdout: './ref\n./stale\n./fresh\n./later\n./fresh\n./later\n./fresh\n./later\n2030 Jan Tue Jan  1 00:00:00.0000000000 2030\n', stderr: '', exit: 0 });
  });
});

describe('find: tests', () => {
  it('-type l, -type f,l and -xtype follow or not as GNU does', async () => {
    expect(await out('find . -type l | sort')).toBe(lines('./dl', './link'));
    expect(await out('find . -type f,l -name "*.t*" | sort')).toBe(lines('./a.txt', './big.txt', './f1.tar.gz', './f1.txt'));
    expect(await out('find . -xtype d | sort')).toBe(lines('.', './dl', './docs', './empty', './sp ace', './src', './src/lib'));
    expect(await out('find -L . -name "d*" -type d | sort')).toBe(lines('./dl', './docs'));
  });
  it('-perm, -executable and -links', async () => {
    expect(await out('find . -perm -u+x -type f; find . -executable -type f; find . -links 3')).toBe(lines('./run.sh', './run.sh', './src'));
  });
  it('-size rounds up to its unit; -empty takes empty files and directories', async () => {
    expect(await out('find . -size -1k -type f | sort')).toBe(lines('./.hid', './b~', './f1.tar.gz', './f1.txt', './f10', './f9', './src/main.py'));
    expect(await out('find . -empty | sort')).toBe(lines('./.hid', './b~', './docs', './empty', './f1.tar.gz', './f1.txt', './f10', './f9', './sp ace', './src/lib', './src/main.py'));
  });
  it('-wholename, -regex (emacs syntax) and -prune', async () => {
    expect(await out('find . -wholename "./src/*" | sort')).toBe(lines('./src/lib', './src/main.py'));
    expect(await out('find . -regex "./f[0-9]+" | sort; find . -regex ".*/f\\(9\\|10\\)" | sort')).toBe(lines('./f10', './f9', './f10', './f9'));
    expect(await out('find src -name lib -prune -o -print | sort')).toBe(lines('src', 'src/main.py'));
  });
  it('-mtime and -mmin measure from now', async () => {
    expect(await out('touch -d "2020-01-02 03:04:05" a.txt; find . -mtime +30 -name a.txt; find . -mmin -5 -name z')).toBe(lines('./a.txt', './z'));
  });
});

describe('find: actions', () => {
  it('-printf with -o, %l, %Y, %P, %H, %d, times and field widths', async () => {
    expect(await out('find src -type d -printf "%p/\\n" -o -type f -printf "%p\\n" | sort')).toBe(lines('src/', 'src/lib/', 'src/main.py'));
    expect(await out('find . -maxdepth 1 -type l -printf "%p -> %l %Y\\n" | sort')).toBe(lines('./dl -> src d', './link -> a.txt f'));
    expect(await out('find docs src/lib -printf "%P|%H|%d\\n"; find src -name main.py -printf "%P|%H|%d\\n"')).toBe(lines('|docs|0', '|src/lib|0', 'main.py|src|1'));
    expect(await out('touch -d "2020-01-02 03:04:05" a.txt; find a.txt -printf "%TY-%Tm-%Td %TH:%TM|%t|%T@|%5s|%-6f|\\n"')).toBe(
      '2020-01-02 03:04|Thu Jan  2 03:04:05.0000000000 2020|1577934245.0000000000|   12|a.txt |\n',
    );
  });
  it('-quit stops at the first match; -execdir runs in the file’s directory; -exec + gathers', async () => {
    expect(await out('find . -name "*.txt" -print -quit | wc -l; find . -name run.sh -execdir echo {} \\;; find . -name "f1*" -exec echo {} + | wc -w')).toBe('1\n./run.sh\n3\n');
  });
});

describe('find: errors', () => {
  it('a missing starting point exits 1 after the others; a missing -newer reference prints nothing', async () => {
    expect(await find('find nope . -maxdepth 0')).toEqual({ stdout: '.\n', stderr: "find: 'nope': No such file or directory\n", exit: 1 });
    expect(await find('find . -newer nope')).toEqual({ stdout: '', stderr: "find: 'nope': No such file or directory\n", exit: 1 });
    // In a UTF-8 locale (a sprite's C.UTF-8) GNU find quotes names in its messages with ‘ ’.
    expect((await find('export LANG=C.UTF-8; find . -newer nope; find nope2')).stderr).toBe('find: ‘nope’: No such file or directory\nfind: ‘nope2’: No such file or directory\n');
  });
  it('an unknown predicate is GNU’s error', async () => {
    expect(await find('find . -bogus')).toEqual({ stdout: '', stderr: "find: unknown predicate `-bogus'\n", exit: 1 });
  });
});

describe('find -printf, as findutils formats each directive', () => {
  it.each([
    String.raw`touch -d '2021-03-04 05:06:07.123456789' t.txt; for L in a A b B c C d D e F g G h H I j k l m M n p P r R s S t T u U V w W x X y Y z Z @ + % q E; do printf '%s=' "$L"; TZ=UTC find t.txt -printf "%T$L|" 2>&1; echo; done`,
    String.raw`touch t.txt; for d in e j o q r v w x z B BY E; do printf '%s=' "$d"; find t.txt -printf "%$d|" 2>&1; echo; done; find t.txt -printf 'a\qb\n'; echo "rc=$?"; find t.txt -printf 'a%'; echo "rc=$?"`,
    String.raw`touch t.txt; chmod 644 t.txt; mkdir -p d/e; touch d/e/f; chmod 700 d; find t.txt d -printf '%5%|%-5%|%#5m|%-#6m|%06m|%#m|%#M|%05s|%+5s|%.2f|%5.1y|%-6d|%P|%H|%h|%f\n'`,
    String.raw`for y in 2020-12-31 2021-01-01 2021-01-03 2021-01-04 2022-01-01 2024-12-30 2026-12-31 2027-01-01; do touch -d "$y 12:00" w; TZ=UTC find w -printf '%TG %Tg %TV %TW %TU %Tu %Tw %Tj %TC %TR %TP\n'; done`,
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

// findutils 4.9 (fts FTS_DC), measured on a GNU/Linux host in a UTF-8 locale.
describe('find -L and file system loops', () => {
  it('reports a directory that is one of its ancestors in place of the entry, at any depth, status 1', async () => {
    const script = `export LANG=C.UTF-8; mkdir -p t/a/b; ln -s . t/self; ln -s .. t/a/b/up; find -L t -maxdepth 1 -type l; echo "rc=$?"; find -L t/a -name up; echo "rc=$?"; find t -name self; find -L t/self -maxdepth 0`;
    expect(await runShell(script)).toEqual({
      stdout: 'rc=1\nrc=1\nt/self\nt/self\n',
      stderr: 'find: File system loop detected; ‘t/self’ is part of the same file system loop as ‘t’.\nfind: File system loop detected; ‘t/a/b/up’ is part of the same file system loop as ‘t/a’.\n',
      exit: 0,
    });
  });
});
