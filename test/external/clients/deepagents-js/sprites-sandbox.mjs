// A Deep Agents sandbox on a sprite, written as deepagents' docs say a custom sandbox is written: a subclass of its
// BaseSandbox that provides execute() (one shell command line, its combined output and exit code), uploadFiles() and
// downloadFiles() (per-file results, partial success), here on the official JS SDK @fly/sprites. Every file tool the
// agent gets (ls, read_file, write_file, edit_file, glob, grep, delete) is deepagents' own code over these three.
// deepagents 1.14.1 ships no Sprites backend; this mirrors the one it ships for LangSmith (LangSmithSandbox).
import { ExecError, FilesystemError } from '@fly/sprites';
import { BaseSandbox } from 'deepagents';

/** deepagents' FileOperationError for a failed filesystem call of @fly/sprites (FilesystemError.code is errno-like). */
function fileError(error) {
  if (!(error instanceof FilesystemError)) throw error;
  switch (error.code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return 'file_not_found';
    case 'EISDIR':
      return 'is_directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission_denied';
    default:
      return 'invalid_path';
  }
}

export class SpritesSandbox extends BaseSandbox {
  #sprite;
  #fs;

  /** @param sprite a `Sprite` of @fly/sprites (from `client.createSprite` or `client.sprite(name)`). */
  constructor(sprite) {
    super();
    this.#sprite = sprite;
    this.#fs = sprite.filesystem();
  }

  get id() {
    return this.#sprite.name;
  }

  /** Runs `command` with bash -c in the sprite; output is its stdout then its stderr. A non-zero exit is a result. */
  async execute(command) {
    let result;
    try {
      result = await this.#sprite.execFile('bash', ['-c', command]);
    } catch (error) {
      if (!(error instanceof ExecError)) throw error;
      result = error.result;
    }
    return { output: `${result.stdout}${result.stderr}`, exitCode: result.exitCode, truncated: false };
  }

  async uploadFiles(files) {
    const results = [];
    for (const [path, content] of files) {
      try {
        await this.#fs.writeFile(path, Buffer.from(content.buffer, content.byteOffset, content.byteLength));
        results.push({ path, error: null });
      } catch (error) {
        results.push({ path, error: fileError(error) });
      }
    }
    return results;
  }

  async downloadFiles(paths) {
    const results = [];
    for (const path of paths) {
      try {
        results.push({ path, content: new Uint8Array(await this.#fs.readFile(path)), error: null });
      } catch (error) {
        results.push({ path, content: null, error: fileError(error) });
      }
    }
    return results;
  }
}
