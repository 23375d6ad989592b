// Python sees symbolic links: the worker's host filesystem described every entry by stat(2) (following links), so a
// link looked like its target (`os.path.islink` False, `os.lstat` the target's, `os.path.realpath` the link's own
// path, `os.walk(followlinks=False)` descending into linked directories). Entries are now described by lstat(2);
// Emscripten follows a link through `readlink`, which maps an absolute target into the host mount (the link
// `/home/sprite/cur -> /home/sprite/v2` leads to `/host/home/sprite/v2`), and `os.readlink` still answers the link's
// own text.
export default {
  title: 'Python sees symbolic links as links',
  upstream: 'src/commands/python3/worker.ts createHOSTFS: getMode/getattr by lstat; readlink returns absolute targets under the mount point, os.readlink strips it',
  file: 'dist/bundle/chunks/worker.js',
  edits: [
    {
      find: '  function getMode(path) {\n    return tryFSOperation(() => {\n      const stat = backend.stat(path);',
      replace: '  function getMode(path) {\n    return tryFSOperation(() => {\n      const stat = backend.lstat(path);',
    },
    {
      find: '        const path = realPath(node);\n        return tryFSOperation(() => {\n          const stat = backend.stat(path);\n          let mode = stat.mode & 511;',
      replace: '        const path = realPath(node);\n        return tryFSOperation(() => {\n          const stat = backend.lstat(path);\n          let mode = stat.mode & 511;',
    },
    {
      find: '        return tryFSOperation(() => backend.readlink(path));',
      replace: '        const target = tryFSOperation(() => backend.readlink(path));\n        return target.startsWith("/") ? "/host" + target : target;',
    },
    {
      find: "# Set cwd to host mount\nos.chdir('/host'",
      replace: [
        '_readlink_in_mount = os.readlink',
        'def _readlink_as_written(*args, **kwargs):',
        '    target = _readlink_in_mount(*args, **kwargs)',
        "    if isinstance(target, str) and target.startswith('/host/'): return target[5:]",
        "    if isinstance(target, bytes) and target.startswith(b'/host/'): return target[5:]",
        '    return target',
        'os.readlink = _readlink_as_written',
        '',
        "# Set cwd to host mount\nos.chdir('/host'",
      ].join('\n'),
    },
  ],
};
