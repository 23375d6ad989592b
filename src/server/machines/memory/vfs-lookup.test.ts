/**
 * Path lookup as the kernel does it (path_resolution(7)), component by component on the path as written: a symlink
 * met on the way is followed before the next component, `..` climbs from the directory reached (through the link,
 * not by the path's text), and a trailing slash asks for a directory (following a final symlink) or fails with
 * ENOTDIR. `lookupPath` gives the normal form that names what such a lookup reaches.
 */
import { describe, expect, it } from 'vitest';
import { Vfs } from './vfs.ts';
import { codeOf } from '../../../../test/support/model.ts';

const text = (b: Uint8Array) => new TextDecoder().decode(b);

/** /w with a file `f`, a directory `real/sub`, `real/top`, a link `s` → real/sub and a link `l` → real. */
function make() {
  let t = 1_700_000_000_000;
  const vfs = Vfs.skeleton(() => (t += 1000));
  vfs.mkdir('/w/real/sub', { recursive: true });
  vfs.writeFile('/w/f', 'file');
  vfs.writeFile('/w/real/top', 'top');
  vfs.symlink('real/sub', '/w/s');
  vfs.symlink('real', '/w/l');
  return vfs;
}

describe('Vfs lookup: `..` after a symlink', () => {
  it('climbs from the directory the link leads to, in every lookup', () => {
    const vfs = make();
    expect(text(vfs.readFile('/w/s/../top'))).toBe('top');
    expect(vfs.exists('/w/s/../top')).toBe(true);
    expect(vfs.stat('/w/s/..').ino).toBe(vfs.stat('/w/real').ino);
    expect(vfs.realpath('/w/s/../top')).toBe('/w/real/top');
    expect(vfs.readdir('/w/s/..').map((e) => e.name)).toEqual(['sub', 'top']);
    vfs.writeFile('/w/s/../new', 'n');
    vfs.mkdir('/w/s/../m');
    vfs.mkdir('/w/s/../p/q', { recursive: true });
    expect(vfs.readdir('/w/real').map((e) => e.name)).toEqual(['m', 'new', 'p', 'sub', 'top']);
    expect(vfs.exists('/w/new')).toBe(false);
  });

  it('fails where the text before `..` does not reach a directory', () => {
    const vfs = make();
    expect(codeOf(() => vfs.readFile('/w/missing/../f'))).toBe('ENOENT');
    expect(codeOf(() => vfs.readFile('/w/f/../f'))).toBe('ENOTDIR');
    expect(vfs.exists('/w/f/..')).toBe(false);
  });

  it('makes the directories of `mkdir -p a/../b` one at a time', () => {
    const vfs = make();
    vfs.mkdir('/w/a/../b/./c', { recursive: true });
    expect(vfs.readdir('/w').map((e) => e.name)).toEqual(['a', 'b', 'f', 'l', 'real', 's']);
    expect(vfs.stat('/w/b/c').type).toBe('directory');
    vfs.mkdir('/w/s/../../x/y', { recursive: true });
    expect(vfs.stat('/w/x/y').type).toBe('directory');
    // `..` at the root stays there; a `..` right after a made directory climbs out of it again.
    vfs.mkdir('/../w/./z/../z2', { recursive: true });
    expect(vfs.readdir('/w').map((e) => e.name)).toEqual(['a', 'b', 'f', 'l', 'real', 's', 'x', 'z', 'z2']);
    expect(vfs.readdir('/w/z')).toEqual([]);
    // A directory made only to climb out of it again is a new directory like any, and stamps its parent.
    const before = vfs.stat('/w/real').mtimeMs;
    vfs.mkdir('/w/real/q/..', { recursive: true, mode: 0o700 });
    expect(vfs.stat('/w/real').mtimeMs).toBeGreaterThan(before);
    expect(vfs.stat('/w/real/q')).toMatchObject({ type: 'directory', mode: 0o700, uid: 1001 });
    expect(vfs.stat('/w/real/q').ino).toBeGreaterThan(vfs.stat('/w/z2').ino);
  });
});

describe('Vfs lookup: a trailing slash', () => {
  it('fails with ENOTDIR after a file, for reads, stats and changes', () => {
    const vfs = make();
    expect(codeOf(() => vfs.stat('/w/f/'))).toBe('ENOTDIR');
    expect(codeOf(() => vfs.lstat('/w/f/'))).toBe('ENOTDIR');
    expect(codeOf(() => vfs.readFile('/w/f/'))).toBe('ENOTDIR');
    expect(codeOf(() => vfs.readFile('/w/f/.'))).toBe('ENOTDIR');
    expect(codeOf(() => vfs.chmod('/w/f/', 0o600))).toBe('ENOTDIR');
    expect(codeOf(() => vfs.utimes('/w/f/', 0))).toBe('ENOTDIR');
    expect(codeOf(() => vfs.copy('/w/f/', '/w/g'))).toBe('ENOTDIR');
    expect(codeOf(() => vfs.rm('/w/f/'))).toBe('ENOTDIR');
    expect(codeOf(() => vfs.rename('/w/f/', '/w/g'))).toBe('ENOTDIR');
    expect(codeOf(() => vfs.rename('/w/f', '/w/g/'))).toBe('ENOTDIR');
    expect(vfs.exists('/w/f/')).toBe(false);
    expect(vfs.exists('/w/f')).toBe(true);
    expect(vfs.stat('/w/f').mode & 0o777).toBe(0o644);
  });

  it('follows a final symlink, in lstat too; removing or renaming `link/` is ENOTDIR', () => {
    const vfs = make();
    expect(vfs.lstat('/w/l/').type).toBe('directory');
    expect(vfs.lstat('/w/l').type).toBe('symlink');
    expect(vfs.readdir('/w/l/').map((e) => e.name)).toEqual(['sub', 'top']);
    expect(codeOf(() => vfs.readlink('/w/l/'))).toBe('EINVAL');
    expect(codeOf(() => vfs.rm('/w/l/', { recursive: true }))).toBe('ENOTDIR');
    expect(codeOf(() => vfs.rename('/w/l/', '/w/m'))).toBe('ENOTDIR');
    expect(vfs.lstat('/w/l').type).toBe('symlink');
    vfs.rm('/w/real/sub/');
    expect(vfs.exists('/w/real/sub')).toBe(false);
    vfs.rename('/w/real/', '/w/moved/');
    expect(vfs.readdir('/w/moved').map((e) => e.name)).toEqual(['top']);
  });

  it('cannot make a file, a link or a symlink named `name/`; a directory it can', () => {
    const vfs = make();
    expect(codeOf(() => vfs.writeFile('/w/new/', 'x'))).toBe('EISDIR');
    expect(codeOf(() => vfs.writeFile('/w/f/', 'x'))).toBe('EISDIR');
    expect(codeOf(() => vfs.writeFile('/w/missing/new/', 'x'))).toBe('ENOENT');
    expect(text(vfs.readFile('/w/f'))).toBe('file');
    expect(codeOf(() => vfs.symlink('x', '/w/n/'))).toBe('ENOENT');
    expect(codeOf(() => vfs.symlink('x', '/w/f/'))).toBe('EEXIST');
    expect(codeOf(() => vfs.link('/w/f', '/w/h/'))).toBe('ENOENT');
    expect(vfs.exists('/w/n') || vfs.exists('/w/h') || vfs.exists('/w/new')).toBe(false);
    vfs.mkdir('/w/d/');
    expect(vfs.stat('/w/d').type).toBe('directory');
    expect(codeOf(() => vfs.mkdir('/w/f/'))).toBe('EEXIST');
  });

  it('names the normalised path and the call in its errors', () => {
    const vfs = make();
    expect(() => vfs.readFile('/w//f/')).toThrow("ENOTDIR: not a directory, open '/w/f'");
    expect(() => vfs.writeFile('/w/f/', '')).toThrow(expect.objectContaining({ code: 'EISDIR', path: '/w/f', syscall: 'open' }));
    expect(() => vfs.rename('/w/f', '/w/g/')).toThrow(expect.objectContaining({ code: 'ENOTDIR', path: '/w/g', syscall: 'rename' }));
    expect(() => vfs.link('/w/nope/x', '/w/h')).toThrow(expect.objectContaining({ code: 'ENOENT', syscall: 'link' }));
    expect(() => vfs.symlink('x', '/w/n/')).toThrow(expect.objectContaining({ code: 'ENOENT', path: '/w/n', syscall: 'symlink' }));
  });

  it('takes several slashes as one', () => {
    const vfs = make();
    expect(codeOf(() => vfs.stat('/w/f//'))).toBe('ENOTDIR');
    expect(codeOf(() => vfs.rm('/w/l//', { recursive: true }))).toBe('ENOTDIR');
    expect(vfs.readdir('/w/real').map((e) => e.name)).toEqual(['sub', 'top']);
    vfs.mkdir('/w/d//');
    expect(vfs.lstat('/w/d').type).toBe('directory');
  });
});

describe('Vfs.lookupPath', () => {
  it('keeps the normal form where the lookup agrees with it', () => {
    const vfs = make();
    expect(vfs.lookupPath('/w/./real//top')).toBe('/w/real/top');
    expect(vfs.lookupPath('/w/real/')).toBe('/w/real');
    expect(vfs.lookupPath('/w/real/sub/..')).toBe('/w/real');
    expect(vfs.lookupPath('/')).toBe('/');
    expect(vfs.lookupPath('/..')).toBe('/');
    expect(vfs.lookupPath('//')).toBe('/');
    expect(vfs.lookupPath('/w/real/sub/.')).toBe('/w/real/sub');
    expect(vfs.lookupPath('w/real/')).toBe('/w/real');
  });

  it('takes `..` through symlinks, and keeps what the lookup must still fail on or follow', () => {
    const vfs = make();
    expect(vfs.lookupPath('/w/s/../top')).toBe('/w/real/top');
    expect(vfs.lookupPath('/w/s/..')).toBe('/w/real');
    expect(vfs.lookupPath('/w/f/')).toBe('/w/f/');
    expect(vfs.lookupPath('/w/f/.')).toBe('/w/f/');
    expect(vfs.lookupPath('/w/l/')).toBe('/w/l/');
    expect(vfs.lookupPath('/w/new/')).toBe('/w/new/');
    expect(vfs.lookupPath('/w/missing/../f')).toBe('/w/missing/../f');
    expect(vfs.lookupPath('/w/f/../f')).toBe('/w/f/../f');
    expect(vfs.lookupPath('/w/missing/x/../f')).toBe('/w/missing/x/../f');
    expect(vfs.lookupPath('/w/missing/x/')).toBe('/w/missing/x/');
    expect(vfs.lookupPath('/.')).toBe('/');
  });
});
