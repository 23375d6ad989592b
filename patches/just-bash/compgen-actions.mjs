// `compgen` takes bash's one-letter actions: -a aliases, -b builtins, -c commands, -g groups, -j jobs, -s services,
// -u users, besides -d -e -f -k -v. Bash's manual, "Programmable Completion Builtins" (complete's options).
// just-bash knew only -d -e -f -k -v and ignored the others, so `compgen -b` printed nothing.
export default {
  title: 'compgen takes the one-letter actions -a -b -c -g -j -s -u',
  upstream: 'src/interpreter/builtins/compgen.ts option parsing: map -a/-b/-c/-g/-j/-s/-u to the alias/builtin/command/group/job/service/user actions',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(A==="-v")n.push("variable");',
      replace: 'if(A==="-a")n.push("alias");else if(A==="-b")n.push("builtin");else if(A==="-c")n.push("command");else if(A==="-g")n.push("group");else if(A==="-j")n.push("job");else if(A==="-s")n.push("service");else if(A==="-u")n.push("user");else if(A==="-v")n.push("variable");',
    },
  ],
};
