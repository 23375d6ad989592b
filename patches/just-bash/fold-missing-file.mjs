// fold names a file it cannot open as GNU's does (`fold: nope: No such file or directory`, status 1) and goes on
// with the other files: just-bash's checked for a null read and stopped there, but the filesystem throws, so the
// message was the error's own text (`fold: ENOENT: no such file or directory, open '…'`).
export default {
  title: 'fold: a file it cannot open is named with GNU\'s words',
  upstream: 'src/commands/fold/fold.ts: catch the readFile rejection as the missing-file case',
  file: 'dist/bundle/chunks/chunk-Y62SXZKJ.js',
  edits: [
    { find: 'let l="";if(u.length===0)', replace: 'let l="",_fe="";if(u.length===0)' },
    {
      find: 'o=await r.fs.readFile(t);if(o===null)return{exitCode:1,stdout:l,stderr:`fold: ${e}: No such file or directory\n`};l+=m(o,n)}return{exitCode:0,stdout:l,stderr:""}',
      replace: 'o=await r.fs.readFile(t).catch(()=>null);if(o===null){_fe+=`fold: ${e}: No such file or directory\n`;continue}l+=m(o,n)}return{exitCode:_fe?1:0,stdout:l,stderr:_fe}',
    },
  ],
};
