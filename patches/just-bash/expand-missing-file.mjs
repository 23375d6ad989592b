// expand names a file it cannot open as GNU's does (`expand: nope: No such file or directory`, status 1) and goes on
// with the other files: just-bash's checked for a null read and stopped there, but the filesystem throws, so the
// message was the error's own text (`expand: ENOENT: no such file or directory, open '…'`).
export default {
  title: 'expand: a file it cannot open is named with GNU\'s words',
  upstream: 'src/commands/expand/expand.ts: catch the readFile rejection as the missing-file case',
  file: 'dist/bundle/chunks/chunk-PPDMRIJ7.js',
  edits: [
    { find: 'let p="";if(a.length===0)', replace: 'let p="",_fe="";if(a.length===0)' },
    {
      find: 'd=await i.fs.readFile(r);if(d===null)return{exitCode:1,stdout:p,stderr:`expand: ${e}: No such file or directory\n`};p+=b(d,t,l-u(p))}return{exitCode:0,stdout:p,stderr:""}',
      replace: 'd=await i.fs.readFile(r).catch(()=>null);if(d===null){_fe+=`expand: ${e}: No such file or directory\n`;continue}p+=b(d,t,l-u(p))}return{exitCode:_fe?1:0,stdout:p,stderr:_fe}',
    },
  ],
};
