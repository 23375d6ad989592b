// A redirection the shell cannot make (`> $f` with spaces or empty, a pattern with several matches, a missing
// directory, a directory, `set -C` on an existing file, a bad descriptor) is reported like every message of the
// shell's own, with its place: `bash: line N: $f: ambiguous redirect`. bash's redir.c (redirection_error) words it
// through builtin_error's prolog (error.c). just-bash wrote `bash: ` alone (error-message-place gives the shell's
// other messages their place where they leave their maker; a redirection's leaves here).
export default {
  title: 'a failed redirection\'s message names its place: NAME: line N:',
  upstream: 'src/interpreter/redirections.ts prepareRedirections (the error result): prefix the message with get_name_for_error() and "line N: " as bash\'s redirection_error does',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'p=async(g,y,S)=>{let v={...d(),error:await rn(e,g,t.slice(0,y),s,i,a)}',
      replace: 'p=async(g,y,S)=>{let v={...d(),error:await rn(e,S?g:{...g,stderr:__jbPlace(e,g.stderr)},t.slice(0,y),s,i,a)}',
    },
  ],
};
