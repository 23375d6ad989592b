// The `${param@op}` transformations as bash's manual gives them ("Shell Parameter Expansion"):
// - `@Q` quotes for reuse as bash does: '…' with '\'' for a single quote, $'…' only for control characters
//   (\a \b \E \f \v \t \n \r and octal);
// - `@P` expands the decoded prompt string as a prompt is (parameters, command substitutions, arithmetic:
//   `promptvars`), so `p='$x'` gives x's value;
// - `@A` names the attributes (`declare -i n='3'`), and for an array writes its whole assignment
//   (`declare -a a=([0]="x" [1]="y z")`); `"${@@A}"` is `set -- 'x' 'y'`;
// - `@K` on an array writes its key/value pairs (`0 "x" 1 "y z"`), `@k` gives them as separate words; in `@K` and
//   `@A` an associative array's keys are quoted as `declare -p` quotes them (`"a b" "c"`);
// - on `@`, `*`, `name[@]` and `name[*]` every operator applies to each element (one word each in "…[@]").
// just-bash quoted any `'` with $'…', left `@P` unexpanded, ignored attributes and arrays in `@A`/`@K`/`@k` and
// transformed the positional parameters as one joined string.

// These functions are written into the bundle as text (their names refer to the bundle's own functions): each
// replaces nothing in this module and is never called here.
/* eslint-disable no-undef */
async function spzPromptVars(e, t) {
  let w;
  try {
    w = new Q().parseWordFromString(t, !1, !1, !1, !0);
  } catch {
    return t;
  }
  return yt(e, w.parts);
}
async function spzTransformWords(e, r, s) {
  const op = s.operator;
  const star = r === '*' || r.endsWith('[*]');
  const each = async (vals, quote) => {
    const out = [];
    for (const v of vals) out.push(op === 'P' ? await spzPromptVars(e, pr(e, v)) : Xl(e, '_', v, !1, { operator: quote && (op === 'K' || op === 'k') ? 'Q' : op }));
    return out;
  };
  if (r === '@' || r === '*') {
    const v = gc(e);
    if (op === 'A') return { words: v.length ? ['set', '--', ...v.map(Zt)] : [], star };
    if (op === 'a') return { words: v.map(() => ''), star };
    return { words: await each(v, !0), star };
  }
  const m = r.match(/^([a-zA-Z_][a-zA-Z0-9_]*)\[[@*]\]$/);
  if (!m) return null;
  const n = m[1];
  const assoc = e.state.associativeArrays?.has(n) ?? !1;
  const isArr = assoc || !!Pe(e, n);
  let en = K(e, n);
  if (!isArr) {
    const v = e.state.env.get(n);
    en = v === void 0 ? [] : [[0, v]];
  }
  const vals = en.map(([, v]) => v);
  const f = Ht(e, n);
  switch (op) {
    case 'K':
      return isArr ? { words: en.length ? [en.map(([k, v]) => `${assoc ? spzDeclKey(k) : k} ${sn(v)}`).join(' ') + (assoc ? ' ' : '')] : [], star } : { words: vals.map(Zt), star };
    case 'k':
      return { words: isArr ? en.flatMap(([k, v]) => [String(k), v]) : vals.map(Zt), star };
    case 'A':
      if (!isArr) return { words: vals.map((v) => (f ? `declare -${f} ${n}=${Zt(v)}` : `${n}=${Zt(v)}`)), star };
      return { words: en.length ? ['declare', `-${f}`, `${n}=(${en.map(([k, v]) => `[${assoc ? spzDeclKey(k) : k}]=${sn(v)}`).join(' ')}${assoc ? ' ' : ''})`] : ['declare', `-${f}`, n], star };
    case 'a':
      return { words: vals.map(() => f), star };
    default:
      return { words: await each(vals, !1), star };
  }
}
async function spzTransformQuoted(e, t) {
  if (t.length !== 1 || t[0].type !== 'DoubleQuoted') return null;
  const s = t[0].parts;
  if (s.length !== 1 || s[0].type !== 'ParameterExpansion' || s[0].operation?.type !== 'Transform') return null;
  const w = await spzTransformWords(e, s[0].parameter, s[0].operation);
  if (!w) return null;
  return w.star ? { values: [w.words.join(X(e.state.env))], quoted: !0 } : { values: w.words, quoted: !0 };
}
async function spzTransform(e, r, a, l, s) {
  const w = await spzTransformWords(e, r, s);
  if (w) return w.words.join(w.star ? X(e.state.env) : ' ');
  if (s.operator === 'P') return spzPromptVars(e, pr(e, a));
  if (s.operator === 'A') {
    const b = r.replace(/\[.*$/, '');
    const f = Ht(e, b);
    if (f) return l ? `declare -${f} ${b}` : `declare -${f} ${b}=${Zt(a)}`;
  }
  return Xl(e, r, a, l, s);
}
/* eslint-enable no-undef */

export default {
  title: 'the @Q @P @A @K @k transformations, and every transformation on arrays and positional parameters, as bash gives them',
  upstream: 'src/interpreter/expansion/parameter-ops.ts applyTransform and quoting.ts quoteValue: single quotes unless control characters, prompt string expanded (promptvars), declare form with attributes and whole arrays for A, key/value forms for K and k, and a per-element mapping over name[@]/name[*]/@/*',
  file: 'dist/bundle/index.js',
  edits: [
    { find: "if(/[\\n\\r\\t\\x00-\\x1f\\x7f']/.test(e)){let n=\"$'\";", replace: "if(/[\\n\\r\\t\\x00-\\x1f\\x7f]/.test(e)){let n=\"$'\";" },
    {
      find: 'default:{let s=r.charCodeAt(0);s<32||s===127?n+=',
      replace: 'default:{let s=r.charCodeAt(0);s===7?n+="\\\\a":s===8?n+="\\\\b":s===27?n+="\\\\E":s===12?n+="\\\\f":s===11?n+="\\\\v":s<32||s===127?n+=',
    },
    { find: "return`${n}'`}return`'${e}'`}function Ze(", replace: "return`${n}'`}return`'${e.replace(/'/g,\"'\\\\''\")}'`}function Ze(" },
    { find: 'function Xl(e,t,n,r,s){', replace: [spzPromptVars, spzTransformWords, spzTransformQuoted, spzTransform].map(String).join('') + 'function Xl(e,t,n,r,s){' },
    { find: 'case"Transform":return Xl(e,r,a,l,s);', replace: 'case"Transform":return spzTransform(e,r,a,l,s);' },
    { find: '{let o=fc(e,t);', replace: '{let o=await spzTransformQuoted(e,t);if(o!==null)return o}{let o=fc(e,t);' },
  ],
};
