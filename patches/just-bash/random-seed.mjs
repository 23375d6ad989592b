// Assigning to `RANDOM` seeds bash's generator, so `RANDOM=42` repeats the same sequence (bash 5.2: 17772 26794 …):
// bash's manual, "Bash Variables". The generator is bash's (variables.c brand: Park-Miller "minimal standard" with
// the two halves xor-ed, 15 bits, never the same value twice in a row). just-bash drew Math.random and ignored the
// assignment. An assignment is seen as a value of RANDOM other than the one last handed out.
/* eslint-disable no-undef */
function spzRandom(e) {
  const st = e.state;
  const set = e.state.env.get('RANDOM');
  if (st.randomSeed === undefined) st.randomSeed = Math.floor(Math.random() * 0x7fffffff) || 1;
  if (set !== undefined && set !== st.randomLast) {
    st.randomSeed = Number.parseInt(set, 10) | 0;
    st.randomPrev = undefined;
  }
  const next = () => {
    let s = st.randomSeed >>> 0;
    if (s === 0) s = 123459876;
    const h = Math.floor(s / 127773);
    const l = s - 127773 * h;
    let t = 16807 * l - 2836 * h;
    if (t < 0) t += 0x7fffffff;
    st.randomSeed = t;
    return ((t >>> 16) ^ (t & 65535)) & 32767;
  };
  let v = next();
  if (v === st.randomPrev) v = next();
  st.randomPrev = v;
  st.randomLast = String(v);
  e.state.env.set('RANDOM', st.randomLast);
  return st.randomLast;
}
/* eslint-enable no-undef */

export default {
  title: 'RANDOM=n seeds bash\'s generator',
  upstream: 'src/interpreter/expansion/variable.ts getVariable("RANDOM"): bash\'s brand()/sbrand() generator, reseeded when RANDOM was assigned',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'case"RANDOM":return String(Math.floor(Math.random()*32768));', replace: `case"RANDOM":return(${String(spzRandom)})(e);` },
  ],
};
