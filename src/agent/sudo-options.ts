/**
 * The `sudo` command line inside a sprite, as sudo(8) reads it, and what the command it asks for looks like once
 * sudo has applied the sprite's policy (the `sprite` user may run anything as anyone, without a password: the
 * base-images page, https://docs.sprites.dev/reference/base-images "User: sprite with passwordless sudo"): which
 * user, which program with which arguments, in which directory, with which environment (sudoers(5) `env_reset`,
 * `secure_path` as Debian and Ubuntu ship it, the default `env_keep`). It owns parsing and that policy only; pure
 * functions, no I/O (the caller passes `/etc/passwd`'s text and an executable test). The relay is sudo.ts.
 * @see docs/fidelity.md "sudo"
 */

/** sudoers' `secure_path` on Debian and Ubuntu: the PATH of every command sudo runs. */
export const SECURE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Variables `env_reset` keeps from the caller (TERM and sudoers' default `env_keep`, locale included). */
const KEEP = new Set(['TERM', 'COLORTERM', 'COLORS', 'DISPLAY', 'HOSTNAME', 'KRB5CCNAME', 'LS_COLORS', 'PS1', 'PS2', 'XAUTHORITY', 'XAUTHORIZATION', 'XDG_CURRENT_DESKTOP', 'LANG', 'LANGUAGE', 'LINGUAS', 'TZ']);

/** What a `sudo` command line asks for. */
export interface SudoRequest {
  /** `run` a command; `validate` (-v), `reset` (-k/-K alone), `list` (-l), `help` (-h), `version` (-V): no command runs. */
  action: 'run' | 'validate' | 'reset' | 'list' | 'help' | 'version';
  /** The -u argument: a name, or a uid as `#N` or `N` (default `root`). */
  user: string;
  /** -E (true) or --preserve-env=A,B (those names); false: env_reset. */
  preserveEnv: boolean | string[];
  /** -H: HOME is the target's even with -E. */
  setHome: boolean;
  /** -i: the target's login shell, in its home. */
  login: boolean;
  /** -s: the shell ($SHELL, else the target's). */
  shell: boolean;
  /** `VAR=value` words before the command. */
  assignments: Record<string, string>;
  /** The command and its arguments (may be empty with -i/-s). */
  command: string[];
}

/** A command line sudo refuses: `message` goes to stderr as `sudo: <message>`, with the usage when `usage`; exit 1. */
export class SudoUsageError extends Error {
  constructor(message: string, readonly usage = true) {
    super(message);
    this.name = 'SudoUsageError';
  }
}

/** sudo(8)'s usage text (to stderr on a bad command line, to stdout for -h). */
export const SUDO_USAGE = `usage: sudo -h | -K | -k | -V
usage: sudo -v [-knS] [-p prompt] [-u user]
usage: sudo -l [-knS] [-p prompt] [-u user] [command]
usage: sudo [-EHknPS] [-p prompt] [-u user] [VAR=value] [-i|-s] [<command>]
`;

/** Short options that take a value, and the long options (name → short letter). */
const WITH_VALUE = new Set(['u', 'p']);
const LONG: Record<string, string> = {
  'non-interactive': 'n', user: 'u', 'preserve-env': 'E', 'set-home': 'H', login: 'i', shell: 's', validate: 'v',
  'reset-timestamp': 'k', 'remove-timestamp': 'K', list: 'l', help: 'h', version: 'V', prompt: 'p', stdin: 'S',
  'preserve-groups': 'P',
};
/** Options accepted with no effect here: there is never a password to ask for, and groups follow the target user. */
const NO_EFFECT = new Set(['n', 'S', 'P', 'p']);

/**
 * Parses `argv` (the words after `sudo`) as sudo(8) does: options up to the first word that is not one (or `--`),
 * short options bundled (`-nE`, `-uroot`), `--long[=value]`, then `VAR=value` words, then the command.
 * Throws a {@link SudoUsageError}: `invalid option -- 'x'`, `unrecognized option '--x'`, `option requires an
 * argument -- 'u'`, `you may not specify both the -i and -s options`, and the bare usage with no command.
 */
export function parseSudoArgs(argv: string[]): SudoRequest {
  const req: SudoRequest = { action: 'run', user: 'root', preserveEnv: false, setHome: false, login: false, shell: false, assignments: {}, command: [] };
  const flags = new Set<string>();
  let i = 0;
  const apply = (letter: string, value: string | undefined): void => {
    flags.add(letter);
    if (letter === 'u') req.user = value!;
    else if (letter === 'E') req.preserveEnv = value === undefined ? true : [...(Array.isArray(req.preserveEnv) ? req.preserveEnv : []), ...value.split(',').filter(Boolean)];
    else if (letter === 'H') req.setHome = true;
    else if (letter === 'i') req.login = true;
    else if (letter === 's') req.shell = true;
    else if (!NO_EFFECT.has(letter) && !'vkKlhV'.includes(letter)) throw new SudoUsageError(`invalid option -- '${letter}'`);
  };
  for (; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') {
      i++;
      break;
    }
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const name = word.slice(2, eq < 0 ? undefined : eq);
      const letter = LONG[name];
      if (!letter) throw new SudoUsageError(`unrecognized option '${word}'`);
      let value = eq < 0 ? undefined : word.slice(eq + 1);
      if (WITH_VALUE.has(letter) && value === undefined) {
        if (i + 1 >= argv.length) throw new SudoUsageError(`option '--${name}' requires an argument`);
        value = argv[++i];
      }
      apply(letter, value);
      continue;
    }
    if (!word.startsWith('-') || word === '-') break;
    for (let j = 1; j < word.length; j++) {
      const letter = word[j]!;
      if (WITH_VALUE.has(letter)) {
        let value: string | undefined = word.slice(j + 1);
        if (!value) {
          if (i + 1 >= argv.length) throw new SudoUsageError(`option requires an argument -- '${letter}'`);
          value = argv[++i];
        }
        apply(letter, value);
        break;
      }
      apply(letter, undefined);
    }
  }
  for (; i < argv.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i]!); i++) {
    const at = argv[i]!.indexOf('=');
    req.assignments[argv[i]!.slice(0, at)] = argv[i]!.slice(at + 1);
  }
  req.command = argv.slice(i);
  if (req.login && req.shell) throw new SudoUsageError('you may not specify both the -i and -s options');
  if (flags.has('h')) req.action = 'help';
  else if (flags.has('V')) req.action = 'version';
  else if (flags.has('l')) req.action = 'list';
  else if (flags.has('v')) req.action = 'validate';
  else if ((flags.has('k') || flags.has('K')) && req.command.length === 0 && !req.login && !req.shell) req.action = 'reset';
  else if (req.command.length === 0 && !req.login && !req.shell) throw new SudoUsageError('', true);
  return req;
}

/** One line of /etc/passwd. */
export interface PasswdEntry {
  name: string;
  uid: number;
  gid: number;
  home: string;
  shell: string;
}

/**
 * The target user of `spec` (a name, `#uid` or a bare uid) in `passwdText` (the sprite's /etc/passwd). A `#uid`
 * with no entry is that uid with gid = uid, home `/` (as sudo runs it). Throws `unknown user NAME` otherwise.
 */
export function lookupUser(passwdText: string, spec: string): PasswdEntry {
  const entries = passwdText.split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split(':')).filter((f) => f.length >= 7)
    .map((f): PasswdEntry => ({ name: f[0]!, uid: Number(f[2]), gid: Number(f[3]), home: f[5] || '/', shell: f[6] || '/bin/sh' }));
  const byName = entries.find((e) => e.name === spec);
  if (byName) return byName;
  const numeric = /^#?(\d+)$/.exec(spec);
  if (numeric) {
    const uid = Number(numeric[1]);
    const byUid = entries.find((e) => e.uid === uid);
    if (byUid) return byUid;
    if (spec.startsWith('#')) return { name: `#${uid}`, uid, gid: uid, home: '/', shell: '/bin/sh' };
  }
  throw new SudoUsageError(`unknown user ${spec}`, false);
}

/**
 * The groups sudo gives `user` (primary group `gid`), as initgroups(3) makes them from `groupText` (the sprite's
 * /etc/group): `gid` first, then every group that lists `user` as a member, in file order, each once. Root gets
 * `[0]`; the sprite user `[1001, 27, 100]`.
 */
export function userGroups(groupText: string, user: string, gid: number): number[] {
  const out = [gid];
  for (const line of groupText.split('\n')) {
    const f = line.split(':');
    if (f.length < 4 || line.startsWith('#')) continue;
    const id = Number(f[2]);
    if (f[2] !== '' && Number.isInteger(id) && id >= 0 && f[3]!.split(',').includes(user) && !out.includes(id)) out.push(id);
  }
  return out;
}

/** Who runs `sudo`: the caller's name, ids, working directory and environment. */
export interface SudoCaller {
  user: string;
  uid: number;
  gid: number;
  cwd: string;
  env: Record<string, string | undefined>;
}

/** The command sudo starts: program path, argv (argv[0] as the program sees it), directory and environment. */
export interface SudoCommand {
  path: string;
  argv: string[];
  dir: string;
  env: Record<string, string>;
  uid: number;
  gid: number;
}

/** How sudo(8) joins a command for `shell -c`: every character but letters, digits, `_`, `-` and `$` backslashed. */
export function shellEscape(words: string[]): string {
  return words.map((w) => w.replace(/([^A-Za-z0-9_\-$])/g, '\\$1')).join(' ');
}

/**
 * What `req` (action `run`) runs for `caller` as `target`. `isExecutable(path)` tells whether a file may be run;
 * a command name is looked up on {@link SECURE_PATH} (a path containing `/` is taken as is). The environment is
 * env_reset's (TERM, locale, DISPLAY… kept; PATH = secure_path; HOME, SHELL, USER, LOGNAME, MAIL of the target;
 * SUDO_COMMAND, SUDO_USER, SUDO_UID, SUDO_GID), or the caller's whole environment with -E (HOME kept unless -H,
 * PATH still secure_path), plus the `VAR=value` words. -i runs the target's shell as a login shell (`-l`) in its
 * home, -s the caller's $SHELL (else the target's); either with `-c <escaped command>` when a command is given.
 * Throws `NAME: command not found` (a {@link SudoUsageError} without usage).
 */
export function commandFor(req: SudoRequest, caller: SudoCaller, target: PasswdEntry, isExecutable: (path: string) => boolean): SudoCommand {
  let path: string;
  let argv: string[];
  if (req.login || req.shell) {
    path = req.login ? target.shell : caller.env.SHELL || target.shell;
    argv = [path, ...(req.login ? ['-l'] : []), ...(req.command.length ? ['-c', shellEscape(req.command)] : [])];
  } else {
    const name = req.command[0]!;
    const found = name.includes('/') ? (isExecutable(name) ? name : undefined) : SECURE_PATH.split(':').map((d) => `${d}/${name}`).find(isExecutable);
    if (!found) throw new SudoUsageError(`${name}: command not found`, false);
    path = found;
    argv = [name, ...req.command.slice(1)];
  }
  const env: Record<string, string> = {};
  const preserve = req.preserveEnv;
  for (const [k, v] of Object.entries(caller.env)) {
    if (v === undefined) continue;
    if (preserve === true || KEEP.has(k) || k.startsWith('LC_') || (Array.isArray(preserve) && preserve.includes(k))) env[k] = v;
  }
  const keepHome = preserve === true && !req.setHome && !req.login && caller.env.HOME !== undefined;
  Object.assign(env, {
    HOME: keepHome ? caller.env.HOME! : target.home,
    PATH: SECURE_PATH,
    SHELL: target.shell,
    USER: target.name,
    LOGNAME: target.name,
    MAIL: `/var/mail/${target.name}`,
    SUDO_COMMAND: [path, ...argv.slice(1)].join(' '),
    SUDO_USER: caller.user,
    SUDO_UID: String(caller.uid),
    SUDO_GID: String(caller.gid),
  }, req.assignments);
  return { path, argv, dir: req.login ? target.home : caller.cwd, env, uid: target.uid, gid: target.gid };
}
