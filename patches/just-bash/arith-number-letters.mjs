// A number with letters in it that is no hexadecimal constant (`1e3`, `12abc`) is bash's "value too great for base"
// with the same text as `08` or `2#12` (bash's expr.c strlong): the expression up to the bad number, then the
// number as the error token — `1e3: value too great for base (error token is "1e3")`. just-bash put the whole
// expression before it and took the rest of the expression as the token (`1e3+1: 1e3: … (error token is "1e3+1")`).
export default {
  title: 'arithmetic: 1e3 is "value too great for base" worded as bash words it',
  upstream: 'src/interpreter/arithmetic.ts (a decimal number followed by letters: the base error, located like an octal or BASE# one)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // The parser's own message for such a number names it twice; read it as the base error, located in the
      // expression's text, or named alone when the number came from a variable's value (`x=1e3; $((x+1))`).
      find: 'let m=err.message,k;',
      replace: 'let m=err.message,k,_v=/^(\\w+): value too great for base \\(error token is "\\1"\\)$/.exec(m);if(_v){m="value too great for base";new RegExp("(^|[^\\w#])"+_v[1]+"(?!\\w)").test(x)||(x=_v[1])}',
    },
    {
      find: 'let re=/(^|[^\\w#])(\\d+#[\\w@]+|0\\d+)/g,',
      replace: 'let re=/(^|[^\\w#])(\\d+#[\\w@]+|\\d\\w*)/g,',
    },
    {
      find: 'if(h<0?/[89]/.test(w):',
      replace: 'if(h<0?(/^0[xX]/.test(w)?!/^0[xX][\\da-fA-F]+$/.test(w):/^0/.test(w)?/[^0-7]/.test(w):/\\D/.test(w)):',
    },
  ],
};
