// `shopt` knows every option of bash 5.2, each with its state and bash's default for `bash -c` (checkwinsize,
// cmdhist, complete_fullquote, extquote, force_fignore, globasciiranges, globskipdots, hostcomplete,
// interactive_comments, patsub_replacement, progcomp, promptvars and sourcepath on), lists them in bash's order and
// format (`%-15s\t%s`), and `$BASHOPTS` names the ones set. Bash's manual, "The Shopt Builtin" and "Bash Variables".
// just-bash listed 11 options, refused `patsub_replacement` and others, and printed `name\t\ton`.
const OPTIONS = ['autocd', 'assoc_expand_once', 'cdable_vars', 'cdspell', 'checkhash', 'checkjobs', 'checkwinsize', 'cmdhist', 'compat31', 'compat32', 'compat40', 'compat41', 'compat42', 'compat43', 'compat44', 'complete_fullquote', 'direxpand', 'dirspell', 'dotglob', 'execfail', 'expand_aliases', 'extdebug', 'extglob', 'extquote', 'failglob', 'force_fignore', 'globasciiranges', 'globskipdots', 'globstar', 'gnu_errfmt', 'histappend', 'histreedit', 'histverify', 'hostcomplete', 'huponexit', 'inherit_errexit', 'interactive_comments', 'lastpipe', 'lithist', 'localvar_inherit', 'localvar_unset', 'login_shell', 'mailwarn', 'no_empty_cmd_completion', 'nocaseglob', 'nocasematch', 'noexpand_translation', 'nullglob', 'patsub_replacement', 'progcomp', 'progcomp_alias', 'promptvars', 'restricted_shell', 'shift_verbose', 'sourcepath', 'varredir_close', 'xpg_echo'];
const ON = ['checkwinsize', 'cmdhist', 'complete_fullquote', 'extquote', 'force_fignore', 'globasciiranges', 'hostcomplete', 'interactive_comments', 'patsub_replacement', 'progcomp', 'promptvars', 'sourcepath'];
const list = JSON.stringify(OPTIONS);

export default {
  title: 'shopt knows every bash 5.2 option with its default, in bash\'s order and format, and BASHOPTS names the ones set',
  upstream: 'src/interpreter/builtins/shopt.ts: SHOPT_OPTIONS holds all bash 5.2 options (defaults as bash -c), output "%-15s\\t%s"; src/interpreter/interpreter.ts initial shoptOptions and BASHOPTS from them',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'var ea=[', replace: `var ea=${list},spzJustBashShopt=[` },
    { find: 'var od=[', replace: `var od=${list},spzJustBashBashopts=[` },
    { find: 'shoptOptions:{extglob:!1,', replace: `shoptOptions:{${ON.map((o) => `${o}:!0,`).join('')}extglob:!1,` },
    {
      find: 'function rm(e){return nm.includes(e)}function Ku(e,t){',
      replace: 'function rm(e){return nm.includes(e)}function Ku(e,t){let r=spzShopt(e,t);return{...r,stdout:r.stdout.replace(/^(\\S+)\\t\\t(on|off)$/gm,(m,a,b)=>`${a.padEnd(15)}\\t${b}`)}}function spzShopt(e,t){',
    },
  ],
};
