/**
 * `git` for the shell engine: the command's global options (`-C DIR`, `-c NAME=VALUE`, `--no-pager`, `--version`)
 * and the dispatch to the subcommands this engine implements on isomorphic-git over the sprite's own files
 * (git-*.ts beside this file). What needs a real machine or the network (`push`, `fetch`, `pull`, `rebase`,
 * submodules, `stash`, hooks…) is refused loudly (exit 2, naming `--exec sandbox`); a repository is never reached
 * outside the sprite's VFS. Output is git 2.43's (Ubuntu 24.04), byte for byte where implemented.
 * @see docs/fidelity.md "git on the shell engine"
 */
import { defineCommand, latin1FromBytes, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { orderOf, type OrderedResult } from './output-order.ts';
import { applyCommand } from './git-apply.ts';
import { configCommand, configValue, gitBool, identity } from './git-config.ts';
import { zoneAt } from './git-date.ts';
import { diffCommand, diffNoIndex, diffOutsideRepo } from './git-compare.ts';
import { diffTreeCommand } from './git-difftree.ts';
import { logCommand, showCommand } from './git-log.ts';
import { cloneCommand, mergeCommand } from './git-merge.ts';
import {
  branchCommand, checkoutCommand, initCommand, lsFilesCommand, resetCommand, restoreCommand, revParseCommand, switchCommand, tagCommand,
} from './git-refs.ts';
import { die, findRepo, GitExit, needRepo, newRun, print, refuse, type GitRun, type Repo } from './git-repo.ts';
import { statusCommand } from './git-status.ts';
import { checkIgnoreCommand, cleanCommand } from './git-clean.ts';
import { describeCommand, revListCommand, symbolicRefCommand } from './git-describe.ts';
import { addCommand, commitCommand, mvCommand, rmCommand } from './git-work.ts';
import { remoteCommand } from './git-remote.ts';

/** The version this `git` reports: Ubuntu 24.04's. */
export const GIT_VERSION = '2.43.0';

/** Subcommands that work on a repository, by name. */
const IN_REPO: Record<string, (run: GitRun, repo: Repo, args: string[]) => Promise<number>> = {
  status: statusCommand,
  add: addCommand,
  rm: rmCommand,
  mv: mvCommand,
  commit: commitCommand,
  log: logCommand,
  show: showCommand,
  diff: diffCommand,
  'diff-tree': diffTreeCommand,
  branch: branchCommand,
  checkout: checkoutCommand,
  switch: switchCommand,
  restore: restoreCommand,
  reset: resetCommand,
  merge: mergeCommand,
  'ls-files': lsFilesCommand,
  clean: cleanCommand,
  describe: describeCommand,
  'rev-list': revListCommand,
  'symbolic-ref': symbolicRefCommand,
  'check-ignore': checkIgnoreCommand,
  remote: remoteCommand,
  tag: (run, repo, args) => tagCommand(run, repo, args, () => identity(run, repo, 'committer', zoneAt(run.env.TZ))),
};

/** git's own commands this engine does not implement: each is refused loudly. */
const REFUSED = new Set([
  'push', 'fetch', 'pull', 'rebase', 'cherry-pick', 'revert', 'stash', 'submodule', 'bisect', 'am', 'format-patch',
  'worktree', 'gc', 'fsck', 'reflog', 'blame', 'grep', 'archive', 'notes', 'filter-branch', 'lfs', 'cat-file',
  'hash-object', 'update-index', 'write-tree', 'commit-tree', 'read-tree', 'update-ref', 'for-each-ref',
  'show-ref', 'merge-base', 'ls-tree', 'ls-remote', 'shortlog', 'request-pull', 'send-email', 'svn',
  'sparse-checkout', 'maintenance', 'prune', 'repack', 'pack-objects', 'daemon', 'instaweb', 'gui', 'citool', 'mergetool',
  'difftool', 'range-diff', 'whatchanged', 'credential', 'bundle', 'replace', 'annotate', 'var', 'help',
]);

/** Runs one `git` command line; never throws. */
export async function runGit(args: string[], ctx: CommandContext, now: () => number, hostname: string): Promise<ExecResult> {
  const env = ctx.exportedEnv ?? Object.fromEntries(ctx.env);
  const run = newRun(ctx.fs, ctx.cwd, env, now, hostname);
  let status: number;
  try {
    status = await dispatch(run, args, () => latin1FromBytes(ctx.stdin));
  } catch (err) {
    if (!(err instanceof GitExit)) {
      const e = err as Error & { code?: string };
      run.err.push(`fatal: ${e.message}\n`);
      status = 128;
    } else {
      run.err.push(err.stderr);
      status = err.code;
    }
  }
  const result = { stdout: run.out.join(''), stdoutKind: 'bytes', stderr: run.err.join(''), exitCode: status } as ExecResult;
  return result.stdout === '' || result.stderr === '' ? result : { ...result, outputOrder: orderOf(run.err.marks, 'buffered') } as OrderedResult;
}

async function dispatch(run: GitRun, args: string[], stdin: () => string): Promise<number> {
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-C') {
      const dir = args[++i] ?? die('no directory given for -C');
      const to = run.fs.resolvePath(run.cwd, dir!);
      if (!(await run.fs.exists(to))) die(`cannot change to '${dir}': No such file or directory`);
      run.cwd = to;
    } else if (a === '-c') {
      const kv = args[++i] ?? die('-c expects a configuration string');
      const eq = kv!.indexOf('=');
      run.overrides.push([(eq < 0 ? kv! : kv!.slice(0, eq)).toLowerCase(), eq < 0 ? 'true' : kv!.slice(eq + 1)]);
    } else if (a === '--no-pager' || a === '-P' || a === '--no-replace-objects' || a === '--literal-pathspecs') continue;
    else if (a === '--version' || a === 'version') {
      print(run, `git version ${GIT_VERSION}\n`);
      return 0;
    } else if (a.startsWith('-')) return refuse(`git ${a}`);
    else break;
  }
  const name = args[i];
  const rest = args.slice(i + 1);
  if (name === undefined) {
    print(run, 'usage: git [-v | --version] [-h | --help] [-C <path>] [-c <name>=<value>]\n           <command> [<args>]\n');
    return 1;
  }
  if (name === 'init') return initCommand(run, rest);
  if (name === 'clone') return cloneCommand(run, rest);
  if (name === 'config') return configCommand(run, rest);
  if (name === 'apply') return applyCommand(run, rest, stdin());
  if (name === 'rev-parse') return revParseCommand(run, rest);
  const command = IN_REPO[name];
  if (command) {
    if (name === 'diff' && rest.includes('--no-index')) return diffNoIndex(run, rest);
    // Outside a repository git diff compares two paths as --no-index does.
    if (name === 'diff' && !(await findRepo(run))) {
      if (rest.filter((a) => !a.startsWith('-')).length !== 2) throw diffOutsideRepo();
      return diffNoIndex(run, rest);
    }
    const repo = await needRepo(run);
    run.quoteFully = gitBool(await configValue(run, repo, 'core.quotepath'), true);
    return command(run, repo, rest);
  }
  if (REFUSED.has(name)) return refuse(`git ${name}`);
  throw new GitExit(`git: '${name}' is not a git command. See 'git --help'.\n`, 1);
}

/** `git`, for just-bash's `customCommands`; `now` is the engine's clock, `hostname` the sprite's. */
export function gitCommand(now: () => number, hostname: string): CustomCommand {
  return defineCommand('git', (args, ctx) => runGit(args, ctx, now, hostname));
}
