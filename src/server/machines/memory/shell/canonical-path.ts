/**
 * GNU's canonicalize_filename_mode, shared by `realpath` and `readlink -f/-e/-m` (and `ln -r`): a path resolved
 * component by component from the root, following symlinks, so that a `..` after a link goes to the link target's
 * parent and a missing component fails unless the mode allows it.
 */
import type { IFileSystem } from 'just-bash';

/** `name` made absolute against `cwd` without folding `..` (a `..` after a symlink is the link target's parent). */
export const joined = (cwd: string, name: string) => (name.startsWith('/') ? name : `${cwd}/${name}`);

/**
 * Resolves `abs` component by component, following symlinks (at most 40, as Linux's ELOOP limit). `mustExist`: every
 * component must exist (`-e`); `missingOk`: none need to (`-m`); neither: all but the last (`-f`, realpath's
 * default; a symlink loop is then a plain name). `noLinks` leaves symlinks as they are (`realpath -s`). A trailing slash asks for a directory, as a
 * component after the last would (`realpath f/` of a file is ENOTDIR, but for `-m`). Throws the fs error (ENOENT,
 * ENOTDIR, ELOOP).
 */
export async function canonical(fs: IFileSystem, abs: string, o: { mustExist: boolean; missingOk: boolean; noLinks: boolean }): Promise<string> {
  const pending = abs.split('/').filter(Boolean);
  // A trailing slash is more path after the last name: it too must be a directory (GNU: `*end` is not empty).
  const slash = /[^/]\/+$/.test(abs);
  const done: string[] = [];
  let links = 0;
  const seen = new Set<string>();
  while (pending.length > 0) {
    const part = pending.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      done.pop();
      continue;
    }
    const here = `/${[...done, part].join('/')}`;
    let st;
    try {
      st = await fs.lstat(here);
    } catch (err) {
      const last = pending.length === 0;
      if (o.missingOk || (!o.mustExist && last)) {
        done.push(part);
        continue;
      }
      throw err;
    }
    if (st.isSymbolicLink && !o.noLinks) {
      // gnulib's loop check: the same link met again with the same rest of the name is a loop. -m then keeps the
      // link's name as a plain component and goes on (`readlink -m loop/x` is `…/loop/x`); otherwise ELOOP.
      const visit = `${st.ino ?? here}\0${pending.join('/')}`;
      if (o.missingOk && seen.has(visit)) {
        done.push(part);
        continue;
      }
      seen.add(visit);
      if (++links > 40) throw Object.assign(new Error('loop'), { code: 'ELOOP' });
      const target = await fs.readlink(here);
      if (target.startsWith('/')) done.length = 0;
      pending.unshift(...target.split('/').filter(Boolean));
      continue;
    }
    if (!st.isDirectory && (pending.length > 0 || slash) && !o.missingOk) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    done.push(part);
  }
  return `/${done.join('/')}`;
}
