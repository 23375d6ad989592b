// Where a `$(…)` (or `<(…)`) body ends. bash parses the body as commands, so `#` starts a comment only where a word
// would start (after a blank, a newline, `;`, `&`, `|`, `<`, `>`, `(` or an operator's `)`), never inside a word:
// `$(echo $#)`, `$(echo ${#})`, `$(echo 'k'#v)`, `$(echo $(echo a)#b)` and `$((16#ff))` hold no comment. A comment
// ends at the newline, and the quotes and parentheses in it are text (`# don't`, `# note: done)`). `$'…'` is
// quoted text in which `\'` does not end the quotes. just-bash had two scanners for this, the lexer's (which
// read `#` after `$`, a quote, `]`, `)` or a digit as a comment, so the rest of the script vanished) and the
// parser's (which knew no comments nor `$'…'`); both now call one scanner that follows bash's rule.
function __jbSubstEnd(s, start, err, arith) {
  // s: the script text; start: the index after `$(`; err(message, at): reports a here-document error (throws);
  // arith: the body is `(…)` of a `$((…))`, where `#` is never a comment. Returns the index of the closing `)`,
  // or s.length when none closes the body.
  const n = s.length;
  const stack = [];
  const heredocs = [];
  let o = start;
  let depth = 1;
  let dparen = arith ? 1 : 0;
  // inWord: the last character read belongs to a word (a `#` here is text); word: that word so far while it is
  // letters only (a keyword candidate), else null.
  let inWord = false;
  let word = '';
  // case … in …) … ;; … esac: patterns end with a `)` that closes nothing. `case` and `esac` are keywords only as
  // the first word of a command (command: the next word is one; after a reserved word that starts a list it still is).
  let caseDepth = 0;
  let wantIn = 0;
  let pattern = false;
  let command = true;
  const endWord = () => {
    if (inWord) {
      // wantIn: 1 after `case` (its word comes next), 2 after that word (`in` comes next).
      if (command && !pattern && word === 'case') (caseDepth++, (wantIn = 1), (pattern = false));
      else if (wantIn === 1) wantIn = 2;
      else if (wantIn === 2 && word === 'in') ((wantIn = 0), (pattern = true));
      else if ((command || pattern) && word === 'esac' && caseDepth > 0) (caseDepth--, (pattern = false), (wantIn = 0));
      else wantIn = 0;
      command = command && word !== null && /^(if|then|else|elif|do|while|until|time|!|\{)$/.test(word);
    }
    inWord = false;
    word = '';
  };
  const textWord = () => {
    inWord = true;
    word = null;
  };
  const backquoted = (p) => {
    while (p < n && s[p] !== '`') p += s[p] === '\\' ? 2 : 1;
    return Math.min(p, n);
  };
  // The index after the `}` of a `${…}` whose text starts at p.
  const braced = (p, quotes) => {
    let d = 1;
    let sq = false;
    let dq = false;
    while (d > 0 && p < n) {
      const c = s[p];
      if (c === '\\' && !sq) {
        p += 2;
        continue;
      }
      if (sq) c === "'" && (sq = false);
      else if (dq) c === '"' && (dq = false);
      else if (c === "'" && quotes) sq = true;
      else if (c === '"') dq = true;
      else if (c === '{') d++;
      else if (c === '}') d--;
      p++;
    }
    return Math.min(p, n);
  };
  // The index of the `"` that closes double quotes opened before p (a `$(…)` inside is a body of its own).
  const doubleQuoted = (p) => {
    while (p < n) {
      const c = s[p];
      if (c === '\\') p += 2;
      else if (c === '"') return p;
      else if (c === '$' && s[p + 1] === '(') {
        const e = __jbSubstEnd(s, p + 2, err, s[p + 2] === '(');
        if (e >= n) return n;
        p = e + 1;
      } else if (c === '$' && s[p + 1] === '{') p = braced(p + 2, false);
      else if (c === '`') {
        const e = backquoted(p + 1);
        if (e >= n) return n;
        p = e + 1;
      } else p++;
    }
    return n;
  };
  while (o < n) {
    const c = s[o];
    if (c === '(' && s[o + 1] === '(') dparen++;
    else if (c === ')' && s[o + 1] === ')' && dparen > 0) dparen--;
    if (dparen === 0 && c === '<' && s[o + 1] === '<' && s[o + 2] !== '<') {
      let p = o + 2;
      let stripTabs = false;
      if (s[p] === '-') (stripTabs = true), p++;
      while (s[p] === ' ' || s[p] === '\t') p++;
      const { delim, endPos, unclosedQuote, unclosedSubstitution } = Wr(s, p);
      if (unclosedQuote) err(`unexpected EOF while looking for matching \`${unclosedQuote}'`, o);
      if (unclosedSubstitution) err("unexpected EOF while looking for matching `)'", o);
      if (delim.length > 0) {
        heredocs.push({ delim, stripTabs });
        endWord();
        o = endPos;
        continue;
      }
    }
    if (c === '\n' && heredocs.length > 0) {
      o = ad(s, o, heredocs);
      heredocs.length = 0;
      endWord();
      continue;
    }
    if (c === '\\') {
      if (s[o + 1] !== '\n') textWord();
      o += 2;
      continue;
    }
    if (c === "'") {
      textWord();
      const q = s.indexOf("'", o + 1);
      if (q < 0) return n;
      o = q + 1;
      continue;
    }
    if (c === '"') {
      textWord();
      o = doubleQuoted(o + 1) + 1;
      continue;
    }
    if (c === '`') {
      textWord();
      o = backquoted(o + 1) + 1;
      continue;
    }
    if (c === '$' && s[o + 1] === "'") {
      textWord();
      let p = o + 2;
      while (p < n && s[p] !== "'") p += s[p] === '\\' ? 2 : 1;
      o = p + 1;
      continue;
    }
    if (c === '$' && s[o + 1] === '{') {
      textWord();
      o = braced(o + 2, true);
      continue;
    }
    if (c === '#' && !inWord && dparen === 0) {
      const e = s.indexOf('\n', o);
      o = e < 0 ? n : e;
      continue;
    }
    if (c === '(') {
      // `$(`, `<(`, `>(`, `name=(`, `@(` open a part of a word; a `(` after a blank opens a subshell.
      const part = inWord || s[o - 1] === '<' || s[o - 1] === '>';
      if (!part) endWord();
      if (pattern && !part) {
        o++;
        continue;
      }
      stack.push({ part, caseDepth, wantIn, pattern });
      depth++;
      caseDepth = 0;
      wantIn = 0;
      pattern = false;
      command = true;
      inWord = false;
      word = '';
      o++;
      continue;
    }
    if (c === ')') {
      endWord();
      if (pattern) {
        pattern = false;
        command = true;
        o++;
        continue;
      }
      if (--depth === 0) return o;
      const t = stack.pop();
      if (t) ((inWord = t.part), (word = null), (caseDepth = t.caseDepth), (wantIn = t.wantIn), (pattern = t.pattern));
      command = false;
      o++;
      continue;
    }
    if (c === ';') {
      endWord();
      command = true;
      if (caseDepth > 0 && (s[o + 1] === ';' || s[o + 1] === '&')) {
        o += s[o + 1] === ';' && s[o + 2] === '&' ? 3 : 2;
        pattern = true;
        continue;
      }
      o++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\n' || c === '&' || c === '|' || c === '<' || c === '>') {
      endWord();
      if (c === '\n' || c === '&' || c === '|') command = true;
      o++;
      continue;
    }
    if (/[a-zA-Z_]/.test(c)) {
      if (!inWord) ((inWord = true), (word = c));
      else if (word !== null) word += c;
    } else if ((c === '{' || c === '!') && !inWord) ((inWord = true), (word = c));
    else textWord();
    o++;
  }
  return n;
}

export default {
  title: 'the end of a $(…) body: # starts a comment only at the start of a word; quotes and ) in a comment are text; $\'…\' keeps \\\'',
  upstream:
    "src/parser/lexer.ts readWord ($( branch) and src/parser/parser-substitution.ts findMatchingParen: one scanner that tracks whether a word is in progress (a # there is text), skips a comment to the newline without reading quotes or parentheses in it, and skips $'…' with its backslash escapes",
  file: 'dist/bundle/index.js',
  edits: [
    {
      // The parser's scanner (command and process substitutions).
      find: "function La(e,t,n){let r=1,s=t,i=!1,o=!1,a=0,l=!1,c=\"\",u=[],f=0;for(;s<e.length&&r>0;){let d=e[s];if(i)d===\"'\"&&(i=!1);else if(o)d===\"\\\\\"&&s+1<e.length?s++:d==='\"'&&(o=!1);else{if(d===\"(\"&&e[s+1]===\"(\"?f++:d===\")\"&&e[s+1]===\")\"&&f>0&&f--,f===0&&d===\"<\"&&e[s+1]===\"<\"&&e[s+2]!==\"<\"){let p=s+2,h=!1;for(e[p]===\"-\"&&(h=!0,p++);e[p]===\" \"||e[p]===\"\t\";)p++;let{delim:m,endPos:w,unclosedQuote:b,unclosedSubstitution:g}=Wr(e,p);if(b&&n(`unexpected EOF while looking for matching \\`${b}'`),g&&n(\"unexpected EOF while looking for matching `)'\"),m.length>0){u.push({delim:m,stripTabs:h}),c=\"\",s=w;continue}}if(d===`\n`&&u.length>0){let p=ad(e,s,u);u.length=0,c=\"\",s=p;continue}d===\"'\"?(i=!0,c=\"\"):d==='\"'?(o=!0,c=\"\"):d===\"\\\\\"&&s+1<e.length?(s++,c=\"\"):/[a-zA-Z_]/.test(d)?c+=d:(c===\"case\"?(a++,l=!1):c===\"in\"&&a>0?l=!0:c===\"esac\"&&a>0&&(a--,l=!1),c=\"\",d===\"(\"?s>0&&e[s-1]===\"$\"?r++:l||r++:d===\")\"?l?l=!1:r--:d===\";\"&&a>0&&s+1<e.length&&e[s+1]===\";\"&&(l=!0))}r>0&&s++}return r>0&&n(\"unexpected EOF while looking for matching `)'\"),s}",
      replace: `${__jbSubstEnd.toString()}function La(e,t,n){let s=__jbSubstEnd(e,t,(m)=>n(m),!1);return s>=e.length&&n("unexpected EOF while looking for matching \`)'"),s}`,
    },
    {
      // The lexer's scanner: the word takes the body's text as written; its line and column follow that text.
      find: "if(y===\"$\"&&o+1<i&&s[o+1]===\"(\"&&!p){u+=y,o++,l++,u+=s[o],o++,l++;let S=1,v=!1,k=!1,A=0,C=!1,N=\"\",P=[],$=s[o]===\"(\"&&!this.dollarDparenIsSubshell(o),R=$?1:0;for(;S>0&&o<i;){let V=s[o];if(u+=V,v)V===\"'\"&&(v=!1);else if(k)V===\"\\\\\"&&o+1<i?(u+=s[o+1],o++,l++):V==='\"'&&(k=!1);else{if(V===\"(\"&&s[o+1]===\"(\"?R++:V===\")\"&&s[o+1]===\")\"&&R>0&&R--,R===0&&V===\"<\"&&s[o+1]===\"<\"&&s[o+2]!==\"<\"){let q=o+2,O=!1;for(s[q]===\"-\"&&(O=!0,q++);s[q]===\" \"||s[q]===\"\t\";)q++;let{delim:U,endPos:j,unclosedQuote:_,unclosedSubstitution:T}=Wr(s,q);if(_)throw new Ye(`unexpected EOF while looking for matching \\`${_}'`,c,l);if(T)throw new Ye(\"unexpected EOF while looking for matching `)'\",c,l);if(U.length>0){u+=s.slice(o+1,j),l+=j-o,P.push({delim:U,stripTabs:O}),o=j;continue}}if(V===`\n`&&P.length>0){c++,l=0;let q=o+1;for(let{delim:O,stripTabs:U}of P)for(;!(q>=i);){let j=s.indexOf(`\n`,q);j===-1&&(j=i);let _=s.slice(q,j),T=U?_.replace(/^\\t+/,\"\"):_;u+=s.slice(q,Math.min(j+1,i)),j<i&&c++;let F=j>=i;if(q=j+1,T===O||F)break}P.length=0,l=0,o=Math.min(q,i);continue}if(V===\"'\")v=!0,N=\"\";else if(V==='\"')k=!0,N=\"\";else if(V===\"\\\\\"&&o+1<i)u+=s[o+1],o++,l++,N=\"\";else if(V===\"$\"&&o+1<i&&s[o+1]===\"{\"){o++,l++,u+=s[o],o++,l++;let q=1,O=!1,U=!1;for(;q>0&&o<i;){let j=s[o];if(j===\"\\\\\"&&o+1<i&&!O){u+=j,o++,l++,u+=s[o],o++,l++;continue}u+=j,O?j===\"'\"&&(O=!1):U?j==='\"'&&(U=!1):j===\"'\"?O=!0:j==='\"'?U=!0:j===\"{\"?q++:j===\"}\"&&q--,j===`\n`?(c++,l=0):l++,o++}N=\"\";continue}else if(V===\"#\"&&!$&&(N===\"\"||/\\s/.test(s[o-1]||\"\"))){for(;o+1<i&&s[o+1]!==`\n`;)o++,l++,u+=s[o];N=\"\"}else/[a-zA-Z_]/.test(V)?N+=V:(N===\"case\"?(A++,C=!1):N===\"in\"&&A>0?C=!0:N===\"esac\"&&A>0&&(A--,C=!1),N=\"\",V===\"(\"?o>0&&s[o-1]===\"$\"?S++:C||S++:V===\")\"?C?C=!1:S--:V===\";\"&&A>0&&(o+1<i&&s[o+1]===\";\"||o+1<i&&s[o+1]===\"&\")&&(C=!0))}V===`\n`&&(c++,l=0,N=\"\"),o++,l++}continue}",
      replace: "if(y===\"$\"&&o+1<i&&s[o+1]===\"(\"&&!p){let _b=o+2,_e=__jbSubstEnd(s,_b,(m,at)=>{let x=s.slice(o,at),nl=x.split(`\\n`).length-1;throw new Ye(m,c+nl,nl?x.length-x.lastIndexOf(`\\n`):l+x.length)},s[_b]===\"(\"&&!this.dollarDparenIsSubshell(_b)),_x=s.slice(o,Math.min(_e+1,i)),_n=_x.split(`\\n`).length-1;u+=_x,c+=_n,l=_n?_x.length-_x.lastIndexOf(`\\n`):l+_x.length,o+=_x.length;continue}",
    },
  ],
};
