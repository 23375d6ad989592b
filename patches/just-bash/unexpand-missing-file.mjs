// unexpand names a file it cannot open as GNU's does (`unexpand: nope: No such file or directory`, status 1) and goes on
// with the other files: just-bash's checked for a null read and stopped there, but the filesystem throws, so the
// message was the error's own text (`unexpand: ENOENT: no such file or directory, open '…'`).
export default {
  title: 'unexpand: a file it cannot open is named with GNU\'s words',
  upstream: 'src/commands/unexpand/unexpand.ts: catch the readFile rejection as the missing-file case',
  file: 'dist/bundle/chunks/chunk-2VWG4LDT.js',
  edits: [
    { find: 'let a="";if(o.length===0)', replace: 'let a="",_fe="";if(o.length===0)' },
    {
      find: 'u=await i.fs.readFile(l);if(u===null)return{exitCode:1,stdout:a,stderr:`unexpand: ${t}: No such file or directory\n`};a+=k(u,e)}return{exitCode:0,stdout:a,stderr:""}',
      replace: 'u=await i.fs.readFile(l).catch(()=>null);if(u===null){_fe+=`unexpand: ${t}: No such file or directory\n`;continue}a+=k(u,e)}return{exitCode:_fe?1:0,stdout:a,stderr:_fe}',
    },
  ],
};
