// Python's file calls look a path up as the kernel does for a trailing slash: `name/` must reach a directory,
// following a final symlink, or fails with ENOTDIR (`open("f/")` with `f` a file is NotADirectoryError, errno 20;
// `os.path.exists("f/")` is False). Emscripten's FS.lookupPath split the path on `/` and dropped the empty last
// part, so `f/` named `f`. A `..` after a symlink already climbs from the link's target there.
export default {
  title: 'python: a trailing slash asks for a directory (ENOTDIR)',
  upstream: 'src/commands/python3 (its vendored Emscripten runtime, vendor/cpython-emscripten/python.cjs; Emscripten\'s src/lib/libfs.js FS.lookupPath): remember a trailing slash, follow a final symlink for it, and fail with ENOTDIR when the node reached is not a directory',
  file: 'vendor/cpython-emscripten/python.cjs',
  edits: [
    {
      find: 'linkloop:for(var nlinks=0;nlinks<40;nlinks++){var parts=path.split("/").filter(p=>!!p);',
      replace: 'var _dirOnly=!opts.parent&&/[^/]\\/+$/.test(path);linkloop:for(var nlinks=0;nlinks<40;nlinks++){var parts=path.split("/").filter(p=>!!p);',
    },
    {
      find: 'if(FS.isLink(current.mode)&&(!islast||opts.follow)){',
      replace: 'if(FS.isLink(current.mode)&&(!islast||opts.follow||_dirOnly)){',
    },
    {
      find: '}return{path:current_path,node:current}}throw new FS.ErrnoError(32)}',
      replace: '}if(_dirOnly&&!FS.isDir(current.mode)){throw new FS.ErrnoError(54)}return{path:current_path,node:current}}throw new FS.ErrnoError(32)}',
    },
  ],
};
