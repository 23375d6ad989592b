// Bash's own variables as bash's manual gives them ("Bash Variables", "Special Parameters"):
// - `$BASH_SUBSHELL` counts the subshells and command substitutions around the expansion (0 at the top);
// - `$BASH_VERSION` and the `BASH_VERSINFO` array name bash 5.2.37 (Ubuntu 25.10's; just-bash said 5.1.0 and had
//   no array);
// - `$-` lists the set flags in bash's order (`ehuxBET`, with `E`/`T` for `set -E`/`-T`) and ends in `c` for a
//   `bash -c` shell (one that has `BASH_EXECUTION_STRING`), `s` for one reading commands from its input; an
//   interactive shell (the embedder's state.interactiveShell) shows `himBHs` (just-bash: `heuxBs` always);
// - `${#@}` and `${#*}` are the number of positional parameters (just-bash: the length of "$*");
// - `$EPOCHSECONDS`, `$EPOCHREALTIME` (seconds.microseconds, of the microsecond clock: two reads differ, as bash's
//   gettimeofday), `$SRANDOM` (32 random bits) and the `GROUPS` array exist (just-bash had none). GROUPS lists the
//   user's groups as the embedder's `processInfo.groups` gives them (in bash's order: bash's initialize_group_array
//   puts the group id first), else the group id alone.
const VERSINFO = ['5', '2', '37', '1', 'release', 'x86_64-pc-linux-gnu'];

export default {
  title: 'BASH_SUBSHELL, BASH_VERSINFO, BASH_VERSION, $-, ${#@}, EPOCHSECONDS, EPOCHREALTIME, SRANDOM and GROUPS as bash sets them',
  upstream: 'src/interpreter/expansion/variable.ts getVariable: BASH_SUBSHELL from the subshell and substitution depth, $- in bash\'s flag order with E/T and c/s (himBHs for an interactive shell); src/interpreter/interpreter.ts: readonly BASH_VERSINFO; src/shell-metadata.ts BASH_VERSION',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'case"-":{let o="";return o+="h",e.state.options.errexit&&(o+="e"),e.state.options.noglob&&(o+="f"),e.state.options.nounset&&(o+="u"),e.state.options.verbose&&(o+="v"),e.state.options.xtrace&&(o+="x"),o+="B",e.state.options.noclobber&&(o+="C"),o+="s",o}',
      replace: 'case"-":{let q=e.state.options,c=e.state.env.has("BASH_EXECUTION_STRING"),i=!c&&e.state.interactiveShell===!0;return(q.allexport?"a":"")+(q.errexit?"e":"")+(q.noglob?"f":"")+"h"+(i?"im":"")+(q.noexec?"n":"")+(q.nounset?"u":"")+(q.verbose?"v":"")+(q.xtrace?"x":"")+"B"+(q.noclobber?"C":"")+(q.errtrace?"E":"")+(i?"H":"")+(q.functrace?"T":"")+(c?"c":"s")}case"BASH_SUBSHELL":return String((e.state.subshellLevel??0)+(e.substitutionDepth??0));',
    },
    // A subshell counts one level; the state snapshot it restores on leaving carries the count back.
    { find: 'e.state.parentHasLoopContext=i>0,e.state.loopDepth=0,e.state.bashPid=e.state.nextVirtualPid++;', replace: 'e.state.parentHasLoopContext=i>0,e.state.loopDepth=0,e.state.bashPid=e.state.nextVirtualPid++,e.state.subshellLevel=(e.state.subshellLevel??0)+1;' },
    { find: 'bashPid:e.bashPid,expansionExitCode:', replace: 'bashPid:e.bashPid,subshellLevel:e.subshellLevel,expansionExitCode:' },
    // BASH_VERSINFO is there from the start, also in an exec that replaces the environment.
    { find: 'this.state={env:s,arrays:new Map,', replace: `this.state={env:s,arrays:spzBashArrays(t.processInfo?.groups??[t.processInfo?.gid??1e3]),virtualGroups:t.processInfo?.groups,` },
    { find: 'arrays:u.replaceEnv?new Map:ot(this.state.arrays)', replace: 'arrays:u.replaceEnv?spzBashArrays(this.state.virtualGroups??[this.state.virtualGid]):ot(this.state.arrays)' },
    {
      find: 'var Da="5.1.0(1)-release"',
      replace: `function spzBashArrays(g){return new Map([["BASH_VERSINFO",{kind:"indexed",elements:new Map(${JSON.stringify(VERSINFO.map((v, i) => [String(i), v]))})}],["GROUPS",{kind:"indexed",elements:new Map(g.map((v,i)=>[String(i),String(v)]))}]])}var Da="5.2.37(1)-release"`,
    },
    {
      find: 'case"SECONDS":return String(Math.floor((Date.now()-e.state.startTime)/1e3));',
      replace: 'case"SECONDS":return String(Math.floor((Date.now()-e.state.startTime)/1e3));case"EPOCHSECONDS":return String(Math.floor(Date.now()/1e3));case"EPOCHREALTIME":{let q=Math.floor((performance.timeOrigin+performance.now())*1e3);return`${Math.floor(q/1e6)}.${String(q%1e6).padStart(6,"0")}`}case"SRANDOM":return String(Math.floor(Math.random()*4294967296));',
    },
    { find: 'function Hl(e,t,n){e.coverage?.hit("bash:expansion:length");', replace: 'function Hl(e,t,n){e.coverage?.hit("bash:expansion:length");if(t==="@"||t==="*")return e.state.env.get("#")||"0";' },
    { find: 'readonlyVars:new Set(["SHELLOPTS","BASHOPTS"])', replace: 'readonlyVars:new Set(["SHELLOPTS","BASHOPTS","BASH_VERSINFO"])' },
  ],
};
