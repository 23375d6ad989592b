// The words of `declare NAME=( … )` keep their command substitutions and parameter operators: the parser turns the
// words back into text for the declare builtin, and `$(cmd)`, `$((…))`, `<(…)` and `${x:-d}` must come back as
// written (bash's manual, "Arrays": every value is expanded). just-bash wrote the part's type name
// (`CommandSubstitution`) or only the parameter's name in their place.
export default {
  title: 'declare NAME=( $(cmd) "${x:-d}" ) keeps every expansion of its words',
  upstream: 'src/parser/command-parser.ts wordToAssignmentText (hi): serialise command/arithmetic/process substitutions and parameter expansions with the word serialiser instead of the part type or bare name',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 's.type==="ParameterExpansion"&&(n+=`\\${${s.parameter}}`);n+=\'"\';break;case"ParameterExpansion":n+=`\\${${r.parameter}}`;break;',
      replace: '(n+=Zr(s,!0));n+=\'"\';break;case"ParameterExpansion":n+=Zr(r,!1);break;',
    },
    { find: 'n+="}";break}default:n+=r.type}return n}', replace: 'n+="}";break}default:n+=Zr(r,!1)}return n}' },
  ],
};
