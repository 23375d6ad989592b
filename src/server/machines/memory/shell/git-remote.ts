/**
 * `git remote` of the shell engine: the remotes the repository's config names (`git remote`, `-v`, `get-url`),
 * and `add`/`remove`/`set-url`, which only write the config. Reaching a remote (`fetch`, `push`, `pull`) is refused
 * loudly by git-command.ts.
 * @see https://git-scm.com/docs/git-remote
 */
import { parseConfig, writeConfig } from './git-config.ts';
import { GitExit, print, refuse, type GitRun, type Repo } from './git-repo.ts';

/** The remotes of the repository's config, in order: name → url. */
async function remotes(run: GitRun, repo: Repo): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let text = '';
  try {
    text = await run.fs.readFile(`${repo.gitdir}/config`);
  } catch {
    return out;
  }
  for (const [k, v] of parseConfig(text)) {
    const m = /^remote\.(.+)\.url$/.exec(k);
    if (m) out.set(m[1]!, v);
  }
  return out;
}

/** `git remote [-v] | add NAME URL | remove NAME | get-url NAME | set-url NAME URL`. */
export async function remoteCommand(run: GitRun, repo: Repo, args: string[]): Promise<number> {
  const list = await remotes(run, repo);
  const [sub, name, url] = args;
  const config = `${repo.gitdir}/config`;
  const noSuch = (n: string) => new GitExit(`error: No such remote: '${n}'\n`, 2);
  if (sub === undefined || sub === '-v' || sub === '--verbose') {
    for (const [n, u] of list) print(run, sub ? `${n}\t${u} (fetch)\n${n}\t${u} (push)\n` : `${n}\n`);
    return 0;
  }
  if (sub === 'add' && name && url && args.length === 3) {
    if (list.has(name)) throw new GitExit(`error: remote ${name} already exists.\n`, 3);
    await writeConfig(run, config, `remote.${name}.url`, url);
    await writeConfig(run, config, `remote.${name}.fetch`, `+refs/heads/*:refs/remotes/${name}/*`);
    return 0;
  }
  if ((sub === 'remove' || sub === 'rm') && name && args.length === 2) {
    if (!list.has(name)) throw noSuch(name);
    await writeConfig(run, config, `remote.${name}.url`, null);
    await writeConfig(run, config, `remote.${name}.fetch`, null);
    const text = await run.fs.readFile(config);
    await run.fs.writeFile(config, text.replace(new RegExp(`^\\[remote "${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\]\\n(?=\\[|$)`, 'm'), ''));
    return 0;
  }
  if (sub === 'get-url' && name && args.length === 2) {
    if (!list.has(name)) throw noSuch(name);
    print(run, `${list.get(name)}\n`);
    return 0;
  }
  if (sub === 'set-url' && name && url && args.length === 3) {
    if (!list.has(name)) throw noSuch(name);
    await writeConfig(run, config, `remote.${name}.url`, url);
    return 0;
  }
  return refuse(`git remote ${args.join(' ')}`);
}
