// `set` refuses an unknown option as bash's set.def does, with status 2 (EX_USAGE): `set -o nosuch` says
// `set: nosuch: invalid option name` alone; `set -Q` says `set: -Q: invalid option` and bash's one usage line,
// `set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]`. just-bash printed its own
// fifteen-line help after either and returned 1.
export default {
  title: 'set: an unknown option is status 2 with bash\'s usage line (none after -o NAME)',
  upstream: 'src/interpreter/builtins/set.ts: SET_USAGE is bash\'s usage line; invalid option name without the usage; both errors exit 2',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'invalid option name\n${Sr}`;if(e.state.options.posix)throw new st(1,"",a);return D(a)}',
      replace: 'invalid option name\\n`;if(e.state.options.posix)throw new st(1,"",a);return D(a,2)}',
    },
    {
      find: 'invalid option name\n${Sr}`;if(e.state.options.posix)throw new st(1,"",p);return D(p)}',
      replace: 'invalid option name\\n`;if(e.state.options.posix)throw new st(1,"",p);return D(p,2)}',
    },
    {
      find: 'invalid option\n${Sr}`;if(e.state.options.posix)throw new st(1,"",u);return D(u)}',
      replace: 'invalid option\\n${Sr}`;if(e.state.options.posix)throw new st(1,"",u);return D(u,2)}',
    },
    {
      find: 'invalid option\n${Sr}`;if(e.state.options.posix)throw new st(1,"",o);return D(o)}',
      replace: 'invalid option\\n${Sr}`;if(e.state.options.posix)throw new st(1,"",o);return D(o,2)}',
    },
    {
      find: 'var Sr=`set: usage: set [-eux] [+eux] [-o option] [+o option]\n',
      replace: 'var Sr=`set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]\\n`,_jbOldSetHelp=`',
    },
  ],
};
