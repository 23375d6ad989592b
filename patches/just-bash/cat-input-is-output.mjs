// GNU cat refuses to copy a non-empty regular file onto itself: when an operand (or its standard input, for `-`)
// is the very file its standard output writes to (same device and inode: a hard link or a symlink to it counts) and
// it holds something left to read, cat says `cat: F: input file is output file`, skips it, goes on with the other
// operands and exits 1 (coreutils src/cat.c). just-bash copied it, so `cat f >> f` doubled the file. The files
// come from the command's own redirections (stdout-file-known).
export default {
  title: 'cat: input file is output file',
  upstream: 'src/commands/cat/cat.ts: skip an operand that is the regular file stdout writes to (same identity), with GNU\'s message and status 1',
  file: 'dist/bundle/chunks/chunk-Q6JV5CBB.js',
  edits: [
    {
      find: 'for(let y of g)try{let T=y==="-"?t.stdin:await k(t.fs,t.fs.resolvePath(t.cwd,y))',
      replace: 'for(let y of g)try{let SP=y==="-"?t.spzInFile:t.fs.resolvePath(t.cwd,y);if(t.spzOutFile&&SP){let SA=await t.fs.stat(SP).catch(()=>null),SB=await t.fs.stat(t.spzOutFile).catch(()=>null);if(SA&&SB&&SA.isFile&&SB.isFile&&SA.size>0&&(SA.identity!==void 0?SA.identity===SB.identity:SP===t.spzOutFile)){h+=`cat: ${y}: input file is output file\\n`,d=1;continue}}let T=y==="-"?t.stdin:await k(t.fs,t.fs.resolvePath(t.cwd,y))',
    },
  ],
};
