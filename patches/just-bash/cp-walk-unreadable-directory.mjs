// cp's walk over a source tree before copying (the limits and cycle check) passes over a directory the user may not
// list (EACCES), as GNU `cp -r` copies the rest of the tree and reports that directory; just-bash's walk failed on
// it and copied nothing. The copy itself reports it (src/server/machines/memory/shell/bash-fs.ts `cp`).
export default {
  title: 'cp -r: the pre-copy walk passes over a directory the user may not read',
  upstream: 'src/fs/walk.ts (the tree walk): with site "cp", an EACCES from readdir yields no children instead of failing the walk',
  file: 'dist/bundle/chunks/chunk-IBRT3OJS.js',
  edits: [
    {
      find: 'let d=await e.fs.readdir(i.path);',
      replace: 'let d=await e.fs.readdir(i.path).catch(_x=>{if(e.site==="cp"&&_x?.code==="EACCES")return[];throw _x});',
    },
  ],
};
