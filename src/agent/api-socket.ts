/**
 * The in-sprite side of the sprite's own API (docs/wire-reference.md §12): the unix socket `/.sprite/api.sock` that
 * processes inside connect to (HTTP, virtual host `sprite`), and the files that come with it: `/.sprite/version.txt`,
 * `llm.txt`, `docs/`, the service logs directory and the `sprite-env`, `curl-sprite-api` and `sprite-browser`
 * commands on `PATH`. It owns the listening socket and those files;
 * it does not speak HTTP: every connection is handed to the host as a relay (ACCEPT frame), where spritzer answers.
 * @see docs/agent-protocol.md "In-sprite API"
 */
import { createServer, type Server, type Socket } from 'node:net';
import * as fsp from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { mkdirBeneath } from './beneath.ts';
import {
  API_SOCKET_PATH,
  CURL_SPRITE_API_PATHS,
  curlSpriteApiScript,
  LLM_TXT,
  LLM_TXT_PATH,
  LOGS_DIR,
  SPRITE_BIN_DIR,
  SPRITE_BROWSER_PATHS,
  SPRITE_BROWSER_SCRIPT,
  SPRITE_PROFILE_PATH,
  SPRITE_PROFILE_SCRIPT,
  SPRITE_ENV_PATH,
  spriteEnvScript,
  SUDO_SHIM_PATHS,
  sudoScript,
  VERSION_PATH,
} from '../protocol/sprite-tree.ts';
import { agentLanguagesMd, LANGUAGE_TOOL_DIRS, LANGUAGE_TOOLS, SPRITE_DOCS_DIR, spriteDocs } from '../protocol/sprite-docs.ts';
import { AgentFs } from './fs-ops.ts';
import { spriteAccountSteps } from './accounts.ts';

/**
 * Listens on `path` (a stale socket is replaced; mode 0666 so the sprite user can connect) and calls `onConnection`
 * for every connection. Resolves with the server once listening; rejects with the listen error.
 */
export async function listenApiSocket(path: string, onConnection: (socket: Socket) => void): Promise<Server> {
  await fsp.mkdir(dirname(path), { recursive: true });
  await fsp.rm(path, { force: true });
  const server = createServer({ allowHalfOpen: true }, onConnection);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  await fsp.chmod(path, 0o666);
  return server;
}

/**
 * The `LANGUAGE_TOOLS` found as executable files in `LANGUAGE_TOOL_DIRS` (the first directory holding each), in
 * `LANGUAGE_TOOLS` order: what `/.sprite/docs/languages.md` lists on the engines with real programs.
 */
export async function findLanguageTools(root = ''): Promise<Array<{ name: string; path: string }>> {
  const found: Array<{ name: string; path: string }> = [];
  for (const name of LANGUAGE_TOOLS) {
    for (const dir of LANGUAGE_TOOL_DIRS) {
      const path = join(dir, name);
      const ok = await fsp.stat(`${root}${path}`).then(
        async (st) => st.isFile() && (await fsp.access(`${root}${path}`, fsp.constants.X_OK).then(() => true, () => false)),
        () => false,
      );
      if (ok) {
        found.push({ name, path });
        break;
      }
    }
  }
  return found;
}

/**
 * Writes the files that come with the API inside a sandbox or container sprite (docs/wire-reference.md §12):
 * `version` into `/.sprite/version.txt`, `/.sprite/llm.txt`, `/.sprite/docs/` (src/protocol/sprite-docs.ts; its
 * `languages.md` lists what `findLanguageTools` finds now), the logs directory (owned by `owner`), the `sprite-env`,
 * `curl-sprite-api` and `sprite-browser` scripts (0755) in `/.sprite/bin` and `/usr/local/bin`, and, when the agent
 * is root (`owner` given), the sprite user's entries in `/etc/passwd` and `/etc/group` where missing (accounts.ts), the login shell's `PATH` addition (`SPRITE_PROFILE_PATH`) and the `sudo` shim at
 * `/usr/local/bin/sudo` and `/usr/bin/sudo` (sudo.ts; see `SUDO_SHIM_PATHS`). The files are root's, 0644 (the scripts 0755; directories made 0755),
 * so the sprite user reads them and cannot change them. No write follows a link the sprite's code may
 * have planted (a symlink at any of these paths is replaced: beneath.ts), and the logs directory is made a real
 * directory before it is chowned (`lchown`). Each failure is reported on stderr and skipped: the agent must start
 * even on a disk the sprite filled or made read-only.
 * @see docs/security.md "Host-side writes"
 */
export async function installSpriteFiles(version: string, owner: { uid: number; gid: number } | null): Promise<void> {
  const fs = new AgentFs('', null);
  const steps: Array<[string, () => Promise<unknown>]> = [
    ['version', () => fs.writeFile(VERSION_PATH, Buffer.from(`${version}\n`), { mode: 0o644, mkdirParents: true, noFollow: true })],
    ['logs', () => mkdirBeneath('', LOGS_DIR, owner)],
    ['llm.txt', () => fs.writeFile(LLM_TXT_PATH, Buffer.from(LLM_TXT), { mode: 0o644, mkdirParents: true, noFollow: true })],
    [SPRITE_DOCS_DIR, async () => {
      // A link planted at the directory is replaced by a real one; each file is then written through no link.
      await mkdirBeneath('', SPRITE_DOCS_DIR, null);
      for (const [path, text] of spriteDocs(agentLanguagesMd(await findLanguageTools()))) {
        await fs.writeFile(path, Buffer.from(text), { mode: 0o644, noFollow: true });
      }
    }],
    ...[
      ...[join(SPRITE_BIN_DIR, 'sprite-env'), SPRITE_ENV_PATH].map((path) => [path, spriteEnvScript(process.execPath)] as const),
      ...CURL_SPRITE_API_PATHS.map((path) => [path, curlSpriteApiScript(process.execPath)] as const),
      ...SPRITE_BROWSER_PATHS.map((path) => [path, SPRITE_BROWSER_SCRIPT] as const),
    ].map(([path, script]): [string, () => Promise<unknown>] => [
      path,
      () => fs.writeFile(path, Buffer.from(script), { mode: 0o755, mkdirParents: true, noFollow: true }),
    ]),
    // The sprite user's entries in /etc/passwd and /etc/group, added where the image lacks them (accounts.ts).
    ...(owner ? spriteAccountSteps(fs) : []),
    // The image's /etc/profile resets PATH for a login shell; this puts /.sprite/bin back (root's, 0644).
    ...(owner ? [SPRITE_PROFILE_PATH] : []).map((path): [string, () => Promise<unknown>] => [
      path,
      () => fs.writeFile(path, Buffer.from(SPRITE_PROFILE_SCRIPT), { mode: 0o644, mkdirParents: true, noFollow: true }),
    ]),
    ...(owner ? SUDO_SHIM_PATHS : []).map((path, i): [string, () => Promise<unknown>] => [path, async () => {
      const shim = Buffer.from(sudoScript(process.execPath));
      // An image's own sudo at /usr/bin is left alone (the /usr/local/bin shim comes first on PATH).
      if (i > 0 && !(await isAbsentOrShim(path))) return;
      await fs.writeFile(path, shim, { mode: 0o755, mkdirParents: true, noFollow: true });
    }]),
  ];
  for (const [what, step] of steps) {
    await step().catch((err: Error) => process.stderr.write(`spritzer-agent: cannot install ${what}: ${err.message}\n`));
  }
}

/** Whether `path` holds nothing, or a `sudo` shim the agent wrote (a script naming `--sudo`), read without following a link. */
async function isAbsentOrShim(path: string): Promise<boolean> {
  const st = await fsp.lstat(path).catch(() => undefined);
  if (!st) return true;
  if (!st.isFile() || st.size > 4096) return false;
  return (await fsp.readFile(path, 'utf8')).includes('agent.mjs --sudo');
}
