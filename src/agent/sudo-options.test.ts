import { describe, expect, it } from 'vitest';
import { commandFor, lookupUser, parseSudoArgs, SECURE_PATH, shellEscape, SudoUsageError, userGroups, type SudoCaller } from './sudo-options.ts';

const PASSWD = 'root:x:0:0:root:/root:/bin/bash\n# comment\nsprite:x:1001:1001::/home/sprite:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n';
const caller: SudoCaller = { user: 'sprite', uid: 1001, gid: 1001, cwd: '/work', env: { PATH: '/home/sprite/bin:/usr/bin', HOME: '/home/sprite', TERM: 'xterm', LANG: 'C.UTF-8', LC_ALL: 'C', SECRET: 's', SHELL: '/bin/zsh' } };
const onPath = (path: string) => ['/usr/bin/id', '/usr/bin/tee', '/bin/sh', '/usr/local/bin/tool', '/opt/x'].includes(path);
const root = lookupUser(PASSWD, 'root');

function usageError(argv: string[]): string {
  try {
    parseSudoArgs(argv);
  } catch (err) {
    expect(err).toBeInstanceOf(SudoUsageError);
    return (err as Error).message;
  }
  throw new Error('no error');
}

describe('sudo command lines', () => {
  it('options up to the first word that is not one; bundled short options; -u with or without a space; --', () => {
    expect(parseSudoArgs(['-n', 'id', '-u'])).toMatchObject({ action: 'run', user: 'root', command: ['id', '-u'] });
    expect(parseSudoArgs(['-nEH', '-usprite', 'env'])).toMatchObject({ user: 'sprite', preserveEnv: true, setHome: true, command: ['env'] });
    expect(parseSudoArgs(['-u', '0', '--', '-weird'])).toMatchObject({ user: '0', command: ['-weird'] });
    expect(parseSudoArgs(['--user=sprite', '--non-interactive', 'true'])).toMatchObject({ user: 'sprite', command: ['true'] });
    expect(parseSudoArgs(['--preserve-env=A,B', '--preserve-env=C', 'env']).preserveEnv).toEqual(['A', 'B', 'C']);
    expect(parseSudoArgs(['-p', '', '-S', 'true']).command).toEqual(['true']);
  });

  it('VAR=value words before the command are assignments', () => {
    expect(parseSudoArgs(['A=1', 'B=x=y', 'env', 'C=3'])).toMatchObject({ assignments: { A: '1', B: 'x=y' }, command: ['env', 'C=3'] });
  });

  it('-i and -s run a shell with or without a command; -v, -k, -l, -h, -V need none', () => {
    expect(parseSudoArgs(['-i'])).toMatchObject({ action: 'run', login: true, command: [] });
    expect(parseSudoArgs(['-s', 'echo', 'hi'])).toMatchObject({ shell: true, command: ['echo', 'hi'] });
    expect(parseSudoArgs(['-v']).action).toBe('validate');
    expect(parseSudoArgs(['-k']).action).toBe('reset');
    expect(parseSudoArgs(['-K']).action).toBe('reset');
    expect(parseSudoArgs(['-k', 'true'])).toMatchObject({ action: 'run', command: ['true'] });
    expect(parseSudoArgs(['-l']).action).toBe('list');
    expect(parseSudoArgs(['-l', 'id']).command).toEqual(['id']);
    expect(parseSudoArgs(['-h']).action).toBe('help');
    expect(parseSudoArgs(['-V']).action).toBe('version');
  });

  it('refuses what sudo refuses, in its words', () => {
    expect(usageError(['-Z', 'true'])).toBe("invalid option -- 'Z'");
    expect(usageError(['-g', 'wheel', 'true'])).toBe("invalid option -- 'g'");
    expect(usageError(['--bogus'])).toBe("unrecognized option '--bogus'");
    expect(usageError(['-u'])).toBe("option requires an argument -- 'u'");
    expect(usageError(['--user'])).toBe("option '--user' requires an argument");
    expect(usageError(['-i', '-s'])).toBe('you may not specify both the -i and -s options');
    expect(usageError([])).toBe('');
    expect(usageError(['-n'])).toBe('');
  });
});

describe('sudo users', () => {
  it('by name, by #uid or uid; a #uid without an entry runs as that uid; an unknown name is refused', () => {
    expect(lookupUser(PASSWD, 'sprite')).toEqual({ name: 'sprite', uid: 1001, gid: 1001, home: '/home/sprite', shell: '/bin/bash' });
    expect(lookupUser(PASSWD, '0').name).toBe('root');
    expect(lookupUser(PASSWD, '#65534').name).toBe('nobody');
    expect(lookupUser(PASSWD, '#4242')).toEqual({ name: '#4242', uid: 4242, gid: 4242, home: '/', shell: '/bin/sh' });
    expect(() => lookupUser(PASSWD, 'ghost')).toThrow('unknown user ghost');
    expect(() => lookupUser(PASSWD, '4242')).toThrow('unknown user 4242');
  });

  it('get the groups initgroups(3) gives them: the primary group, then each that lists them, once', () => {
    const group = 'root:x:0:\n# comment\nsudo:x:27:ubuntu,sprite\nusers:x:100:sprite\nsprite:x:1001:\nodd:x::sprite\nagain:x:27:sprite\n';
    expect(userGroups(group, 'sprite', 1001)).toEqual([1001, 27, 100]);
    expect(userGroups(group, 'root', 0)).toEqual([0]);
    expect(userGroups(group, 'ubuntu', 1000)).toEqual([1000, 27]);
    expect(userGroups('', '#4242', 4242)).toEqual([4242]);
  });
});

describe('the command sudo runs', () => {
  it('finds the program on secure_path, never the caller’s PATH; keeps the caller’s directory', () => {
    const cmd = commandFor(parseSudoArgs(['id', '-u']), caller, root, onPath);
    expect(cmd).toMatchObject({ path: '/usr/bin/id', argv: ['id', '-u'], dir: '/work', uid: 0, gid: 0 });
    expect(commandFor(parseSudoArgs(['tool']), caller, root, onPath).path).toBe('/usr/local/bin/tool');
    expect(commandFor(parseSudoArgs(['/opt/x', 'a']), caller, root, onPath)).toMatchObject({ path: '/opt/x', argv: ['/opt/x', 'a'] });
    expect(() => commandFor(parseSudoArgs(['nothere']), caller, root, onPath)).toThrow('nothere: command not found');
    expect(() => commandFor(parseSudoArgs(['/opt/y']), caller, root, onPath)).toThrow('/opt/y: command not found');
  });

  it('env_reset: TERM and locale kept, PATH = secure_path, the target’s HOME/SHELL/USER/LOGNAME/MAIL, SUDO_*', () => {
    const { env } = commandFor(parseSudoArgs(['id']), caller, root, onPath);
    expect(env).toEqual({
      TERM: 'xterm', LANG: 'C.UTF-8', LC_ALL: 'C', PATH: SECURE_PATH, HOME: '/root', SHELL: '/bin/bash', USER: 'root', LOGNAME: 'root',
      MAIL: '/var/mail/root', SUDO_COMMAND: '/usr/bin/id', SUDO_USER: 'sprite', SUDO_UID: '1001', SUDO_GID: '1001',
    });
  });

  it('-E keeps everything and the caller’s HOME (not with -H); --preserve-env=LIST keeps those; assignments win', () => {
    const all = commandFor(parseSudoArgs(['-E', 'id']), caller, root, onPath).env;
    expect(all).toMatchObject({ SECRET: 's', HOME: '/home/sprite', PATH: SECURE_PATH });
    expect(commandFor(parseSudoArgs(['-E', '-H', 'id']), caller, root, onPath).env.HOME).toBe('/root');
    const some = commandFor(parseSudoArgs(['--preserve-env=SECRET', 'id']), caller, root, onPath).env;
    expect([some.SECRET, some.HOME]).toEqual(['s', '/root']);
    expect(commandFor(parseSudoArgs(['SECRET=t', 'HOME=/h', 'id']), caller, root, onPath).env).toMatchObject({ SECRET: 't', HOME: '/h' });
  });

  it('-i: the target’s shell as a login shell in its home; -s: $SHELL; both with an escaped -c command', () => {
    expect(commandFor(parseSudoArgs(['-i']), caller, root, onPath)).toMatchObject({ path: '/bin/bash', argv: ['/bin/bash', '-l'], dir: '/root' });
    expect(commandFor(parseSudoArgs(['-i', 'echo', 'a b']), caller, root, onPath).argv).toEqual(['/bin/bash', '-l', '-c', 'echo a\\ b']);
    expect(commandFor(parseSudoArgs(['-s']), caller, root, onPath)).toMatchObject({ path: '/bin/zsh', argv: ['/bin/zsh'], dir: '/work' });
    expect(commandFor(parseSudoArgs(['-s']), { ...caller, env: {} }, root, onPath).path).toBe('/bin/bash');
    expect(shellEscape(['echo', "it's", '$HOME', 'a-b_c'])).toBe("echo it\\'s $HOME a-b_c");
  });
});
