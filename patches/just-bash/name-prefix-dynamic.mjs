// `${!prefix@}` and `${!prefix*}` list every set variable whose name starts with prefix, bash's own dynamic ones
// included (`${!BASH@}` names BASH_VERSION, BASHPID, BASH_SUBSHELL…; `${!RAN*}` is RANDOM): bash's manual, "Shell
// Parameter Expansion". just-bash computes those variables on expansion and keeps them out of its variable table, so
// the list left them out.
export default {
  title: '${!prefix@} lists the shell\'s dynamic variables too',
  upstream: 'src/interpreter/expansion/variable.ts getVarNamesWithPrefix: add the dynamic variables the expander computes (BASHPID, BASH_COMMAND, BASH_LINENO, BASH_SOURCE, BASH_SUBSHELL, BASH_VERSION, EPOCHREALTIME, EPOCHSECONDS, EUID, LINENO, PPID, RANDOM, SECONDS, SRANDOM, UID, …)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function In(e,t){let n=new Set;for(let r of e.state.env.keys())r.startsWith(t)&&n.add(r);',
      replace: 'function In(e,t){let n=new Set;for(let r of e.state.env.keys())r.startsWith(t)&&n.add(r);for(let r of["BASHPID","BASH_ALIASES","BASH_ARGC","BASH_ARGV","BASH_CMDS","BASH_COMMAND","BASH_LINENO","BASH_LOADABLES_PATH","BASH_SOURCE","BASH_SUBSHELL","BASH_VERSION","EPOCHREALTIME","EPOCHSECONDS","EUID","LINENO","PPID","RANDOM","SECONDS","SRANDOM","UID"])r.startsWith(t)&&n.add(r);',
    },
  ],
};
