/**
 * `file` as GNU file(1) lays out several operands: just-bash's descriptions, with each `NAME:` padded so the
 * descriptions line up (`-N`/`--no-pad` keeps them unpadded, as file does). The descriptions themselves are
 * just-bash's.
 * @see https://man7.org/linux/man-pages/man1/file.1.html (-N, --no-pad)
 */
import { defineCommand, type CustomCommand } from 'just-bash';

/** `file` for just-bash's `customCommands`: just-bash's own, its lines padded after `NAME:`. */
export function fileCommand(): CustomCommand {
  return defineCommand('file', async (args, ctx) => {
    const noPad = args.some((a) => a === '-N' || a === '--no-pad');
    const passed = args.filter((a) => a !== '-N' && a !== '--no-pad');
    const r = await ctx.origCommand!(passed);
    const brief = passed.some((a) => a === '-b' || a === '--brief' || /^-[a-zA-Z]*b/.test(a));
    const names = passed.filter((a) => !a.startsWith('-'));
    if (noPad || brief || names.length < 2 || passed.includes('--')) return r;
    const width = Math.max(...names.map((n) => n.length)) + 1;
    const lines = r.stdout.split('\n');
    let i = 0;
    const stdout = lines
      .map((line) => {
        const name = names[i];
        if (name === undefined || !line.startsWith(`${name}: `)) return line;
        i++;
        return `${`${name}:`.padEnd(width)} ${line.slice(name.length + 2)}`;
      })
      .join('\n');
    return { ...r, stdout };
  });
}
