/**
 * git's configuration for the shell engine's `git`: reading and writing its INI files (`~/.gitconfig` for
 * `--global`, `.git/config` for the repository; `-c` on the command line last), the `git config` subcommand (get,
 * set, `--unset`, `--list`, `--global`/`--local`), and the identity a commit records (`GIT_AUTHOR_*`,
 * `GIT_COMMITTER_*`, `user.name`/`user.email`, `EMAIL`, then the passwd entry, with git's "Author identity
 * unknown" when no e-mail can be found).
 * @see https://git-scm.com/docs/git-config, git's ident.c
 */
import { die, GitExit, print, refuse, type GitRun, type Repo, findRepo, type Person } from './git-repo.ts';
import { parseGitDate } from './git-date.ts';

/** One `name=value` of a config file, the name normalised (`section.sub.key`, section and key lowercased). */
type Item = [string, string];

/** The canonical name of `section.sub.key` (section and key lowercased, the subsection kept). */
export function canonicalKey(name: string): string | null {
  const first = name.indexOf('.');
  const last = name.lastIndexOf('.');
  if (first <= 0 || last === name.length - 1) return null;
  const section = name.slice(0, first).toLowerCase();
  const key = name.slice(last + 1).toLowerCase();
  if (!/^[a-z0-9.-]+$/.test(section) || !/^[a-z][a-z0-9-]*$/.test(key)) return null;
  return first === last ? `${section}.${key}` : `${section}.${name.slice(first + 1, last)}.${key}`;
}

/** The items of a config file's text, in order. */
export function parseConfig(text: string): Item[] {
  const items: Item[] = [];
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/.exec(line);
    if (head) {
      section = head[2] !== undefined ? `${head[1]!.toLowerCase()}.${head[2].replace(/\\(.)/g, '$1')}` : head[1]!.toLowerCase();
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!kv || !section) continue;
    items.push([`${section}.${kv[1]!.toLowerCase()}`, kv[2] === undefined ? 'true' : unquote(kv[2])]);
  }
  return items;
}

/** A value as git reads it: quotes removed, `\n`, `\t`, `\\`, `\"` unescaped, an unquoted comment cut. */
function unquote(v: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < v.length; i++) {
    const c = v[i]!;
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && i + 1 < v.length) {
      const n = v[++i]!;
      out += n === 'n' ? '\n' : n === 't' ? '\t' : n === 'b' ? '\b' : n;
    } else if ((c === '#' || c === ';') && !quoted) break;
    else out += c;
  }
  return quoted ? out : out.replace(/\s+$/, '');
}

/** A value as git writes it: quoted when it has leading or trailing space or a comment character. */
function quote(v: string): string {
  const escaped = v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t');
  return /^\s|\s$|[#;]/.test(v) ? `"${escaped}"` : escaped;
}

/** `text` with `name` set to `value` (its last occurrence replaced, or a line appended to its section), or unset. */
export function setInText(text: string, name: string, value: string | null): string {
  const first = name.indexOf('.');
  const last = name.lastIndexOf('.');
  const section = name.slice(0, first);
  const sub = first === last ? null : name.slice(first + 1, last);
  const key = name.slice(last + 1);
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
  let current = '';
  let lastHit = -1;
  let sectionEnd = -1;
  const target = sub === null ? section : `${section}.${sub}`;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (head) {
      current = head[2] !== undefined ? `${head[1]!.toLowerCase()}.${head[2]}` : head[1]!.toLowerCase();
      continue;
    }
    if (current !== target) continue;
    sectionEnd = i;
    const kv = /^([A-Za-z][A-Za-z0-9-]*)/.exec(line);
    if (kv && kv[1]!.toLowerCase() === key) lastHit = i;
  }
  if (value === null) {
    if (lastHit >= 0) lines.splice(lastHit, 1);
  } else if (lastHit >= 0) lines[lastHit] = `\t${key} = ${quote(value)}`;
  else if (sectionEnd >= 0 || lines.some((l) => l.trim().replace(/\s+/g, ' ') === `[${sub === null ? section : `${section} "${sub}"`}]`)) {
    const at = sectionEnd >= 0 ? sectionEnd : lines.findIndex((l) => l.trim().replace(/\s+/g, ' ') === `[${sub === null ? section : `${section} "${sub}"`}]`);
    lines.splice(at + 1, 0, `\t${key} = ${quote(value)}`);
  } else lines.push(sub === null ? `[${section}]` : `[${section} "${sub}"]`, `\t${key} = ${quote(value)}`);
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** The path of the user's config file (`$HOME/.gitconfig`), or null without HOME. */
export function globalPath(run: GitRun): string | null {
  const home = run.env.HOME;
  return home ? `${home.replace(/\/+$/, '')}/.gitconfig` : null;
}

async function readText(run: GitRun, path: string | null): Promise<string | null> {
  if (!path) return null;
  try {
    return await run.fs.readFile(path);
  } catch {
    return null;
  }
}

/** Every item that applies, lowest precedence first: global, the repository's, then `-c`. */
export async function allItems(run: GitRun, repo: Repo | null): Promise<Item[]> {
  const global = await readText(run, globalPath(run));
  const local = repo ? await readText(run, `${repo.gitdir}/config`) : null;
  return [...(global ? parseConfig(global) : []), ...(local ? parseConfig(local) : []), ...run.overrides];
}

/** The last value of `name` (canonical), or undefined. */
export async function configValue(run: GitRun, repo: Repo | null, name: string): Promise<string | undefined> {
  const items = await allItems(run, repo);
  for (let i = items.length - 1; i >= 0; i--) if (items[i]![0] === name) return items[i]![1];
  return undefined;
}

/**
 * A config value read as git's boolean (git_config_bool): `false`, `no`, `off`, `0` and the empty string are false,
 * any other value true; `fallback` when unset.
 */
export function gitBool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  return !['false', 'no', 'off', '0', ''].includes(value.toLowerCase());
}

/** Writes `name` = `value` (null: unset) into the file at `path`. */
export async function writeConfig(run: GitRun, path: string, name: string, value: string | null): Promise<void> {
  const text = (await readText(run, path)) ?? '';
  await run.fs.writeFile(path, setInText(text, name, value));
}

const USAGE = 'usage: git config [<options>]\n';

/** `git config`: `NAME` (get), `NAME VALUE` (set), `--get`, `--unset`, `--list`/`-l`, `--global`/`--local`. */
export async function configCommand(run: GitRun, args: string[]): Promise<number> {
  let scope: 'global' | 'local' | null = null;
  let mode: 'get' | 'set' | 'unset' | 'list' | null = null;
  const rest: string[] = [];
  for (const a of args) {
    if (a === '--global') scope = 'global';
    else if (a === '--local') scope = 'local';
    else if (a === '--list' || a === '-l') mode = 'list';
    else if (a === '--get') mode = 'get';
    else if (a === '--unset') mode = 'unset';
    else if (a === '--add' || a === '--replace-all') mode = 'set';
    else if (a.startsWith('-')) return refuse(`git config ${a}`);
    else rest.push(a);
  }
  const repo = await findRepo(run);
  if (scope === 'local' && !repo) die('--local can only be used inside a git repository');
  if (mode === 'list') {
    const items = scope === 'global' ? parseConfig((await readText(run, globalPath(run))) ?? '') : scope === 'local' ? parseConfig((await readText(run, `${repo!.gitdir}/config`)) ?? '') : await allItems(run, repo);
    if (scope === 'global' && (await readText(run, globalPath(run))) === null) die(`unable to read config file '${globalPath(run)}': No such file or directory`);
    print(run, items.map(([k, v]) => `${k}=${v}\n`).join(''));
    return 0;
  }
  if (rest.length === 0) throw new GitExit(`error: no action specified\n${USAGE}`, 129);
  const name = canonicalKey(rest[0]!);
  if (!name) {
    if (!rest[0]!.includes('.')) throw new GitExit(`error: key does not contain a section: ${rest[0]}\n`, 1);
    throw new GitExit(`error: invalid key: ${rest[0]}\n`, 1);
  }
  if (mode === null) mode = rest.length >= 2 ? 'set' : 'get';
  if (mode === 'get') {
    const items = scope === 'global' ? parseConfig((await readText(run, globalPath(run))) ?? '') : scope === 'local' ? parseConfig((await readText(run, `${repo!.gitdir}/config`)) ?? '') : await allItems(run, repo);
    const hit = items.filter(([k]) => k === name).pop();
    if (!hit) return 1;
    print(run, `${hit[1]}\n`);
    return 0;
  }
  const path = scope === 'global' || (!repo && scope === null) ? globalPath(run) : `${repo!.gitdir}/config`;
  if (!path) die('$HOME not set');
  if (scope === null && !repo && mode === 'set') die('not in a git directory');
  if (mode === 'unset') {
    const text = (await readText(run, path!)) ?? '';
    if (!parseConfig(text).some(([k]) => k === name)) return 5;
    await writeConfig(run, path!, name, null);
    return 0;
  }
  if (rest.length !== 2) throw new GitExit(`error: wrong number of arguments, should be 2\n${USAGE}`, 129);
  await writeConfig(run, path!, name, rest[1]!);
  return 0;
}

const ENV_HINT = `
*** Please tell me who you are.

Run

  git config --global user.email "you@example.com"
  git config --global user.name "Your Name"

to set your account's default identity.
Omit --global to set the identity only in this repository.

`;

/** The passwd entry of the sprite's user: its name and the GECOS name git defaults to. */
async function passwdUser(run: GitRun): Promise<{ user: string; gecos: string }> {
  const user = run.env.USER || 'sprite';
  try {
    for (const line of (await run.fs.readFile('/etc/passwd')).split('\n')) {
      const f = line.split(':');
      if (f[0] === user) return { user, gecos: (f[4] ?? '').split(',')[0]!.replace(/&/g, user.charAt(0).toUpperCase() + user.slice(1)).trim() };
    }
  } catch {
    // no passwd: the user's name alone
  }
  return { user, gecos: '' };
}

/**
 * The author or committer of a new commit, as git's `fmt_ident` builds it (strict): the name and e-mail from
 * `GIT_<WHO>_NAME`/`_EMAIL`, else `user.name`/`user.email` (`EMAIL` for the e-mail), else the passwd entry and
 * `user@hostname.(none)`, which git refuses ("Author identity unknown", exit 128); the date from `GIT_<WHO>_DATE`
 * or the engine's clock, in the zone of `TZ` (UTC when unset, as on a sprite).
 */
export async function identity(run: GitRun, repo: Repo | null, who: 'author' | 'committer', tzOffsetAt: (ms: number) => number): Promise<Person> {
  const W = who.toUpperCase();
  const hint = () => run.err.push(`${who === 'author' ? 'Author' : 'Committer'} identity unknown\n${ENV_HINT}`);
  let email = run.env[`GIT_${W}_EMAIL`] ?? (await configValue(run, repo, `${who}.email`)) ?? (await configValue(run, repo, 'user.email')) ?? run.env.EMAIL;
  const pw = await passwdUser(run);
  if (email === undefined) {
    hint();
    die(`unable to auto-detect email address (got '${pw.user}@${run.hostname}.(none)')`);
  }
  let name = run.env[`GIT_${W}_NAME`] ?? (await configValue(run, repo, `${who}.name`)) ?? (await configValue(run, repo, 'user.name'));
  const usingDefault = name === undefined;
  name ??= pw.gecos;
  if (!name.trim()) {
    if (usingDefault) hint();
    die(`empty ident name (for <${email}>) not allowed`);
  }
  email = email.trim();
  const dateText = run.env[`GIT_${W}_DATE`];
  let ms = run.now();
  let offset: number | null = null;
  if (dateText !== undefined) {
    const parsed = parseGitDate(dateText, run.now(), run.env.TZ);
    if (!parsed) die(`invalid date format: ${dateText}`);
    ms = parsed!.ms;
    offset = parsed!.offset;
  }
  const east = offset ?? tzOffsetAt(ms);
  return { name: name.trim(), email, timestamp: Math.floor(ms / 1000), timezoneOffset: east === 0 ? 0 : -east };
}
