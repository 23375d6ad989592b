// With `set -x` bash traces an arithmetic `for ((INIT; COND; STEP))` loop's parts as it evaluates them: `(( INIT ))`
// once, `(( COND ))` before each test (an empty part as `(( 1 ))`), `(( STEP ))` after each pass, each part's text
// as written (without its leading blanks) after expansion. The same points run the DEBUG trap (traps-run-debug) with
// `$BASH_COMMAND` the part unexpanded, without its leading blanks: `((i = 0 ))`, `((1))` for an empty one. The parser
// keeps each part's source text (it joined the tokens without their spaces) and the serializer writes it back, so the engine's rewrite keeps it. just-bash traced nothing but the body.
export default {
  title: 'set -x traces the parts of for (( ; ; ))',
  upstream: 'src/parser/compound-parser.ts parseCStyleFor: keep each part\'s source text; src/ast/serializer.ts: write it back; src/interpreter/control-flow.ts executeCStyleFor: when xtrace is on, trace PS4 + "(( PART ))" before evaluating each part',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'function xd(e,t,n){e.expect(E.DPAREN_START);', replace: 'function xd(e,t,n){let __s=e.expect(E.DPAREN_START);' },
    {
      find: 'e.expect(E.DPAREN_END),o[0].trim()&&(r=re(e,o[0].trim())),',
      replace:
        'e.expect(E.DPAREN_END);var __c=e.tokens[e.pos-1],__raw3=typeof e._input=="string"&&__c?.type===E.DPAREN_END&&__c.start>=__s.end?e._input.slice(__s.end,__c.start).split(";"):null;__raw3?.length===3?o=__raw3:__raw3=null;o[0].trim()&&(r=re(e,o[0].trim())),',
    },
    {
      // Each part keeps its text as written, but for its leading blanks (bash prints `(( i = 0  ))`).
      find: 'return{type:"CStyleFor",init:r,condition:s,update:i,',
      replace: 'return __raw3&&(r&&(r.originalText=__raw3[0].replace(/^\\s+/,"")),s&&(s.originalText=__raw3[1].replace(/^\\s+/,"")),i&&(i.originalText=__raw3[2].replace(/^\\s+/,""))),{type:"CStyleFor",init:r,condition:s,update:i,',
    },
    {
      find: 'function Jd(e){let t=e.init?pe(e.init.expression):"",n=e.condition?pe(e.condition.expression):"",r=e.update?pe(e.update.expression):"";',
      replace: 'function Jd(e){let t=e.init?e.init.originalText??pe(e.init.expression):"",n=e.condition?e.condition.originalText??pe(e.condition.expression):"",r=e.update?e.update.originalText??pe(e.update.expression):"";',
    },
    {
      find: 'let r=new on(e),s=0,i=0;t.init&&await Y(e,t.init.expression),e.state.loopDepth++;',
      replace:
        'let r=new on(e),s=0,i=0,__t=async x=>{await _jbDebugTrap(e,{type:"ArithForPart",_text:`((${x?.originalText??"1"}))`,line:n});if(!e.state.options.xtrace)return;x??={originalText:"1"};let w=await se(e,new Q().parseWordFromString(x.originalText??pe(x.expression),!1,!1,!1,!0));r.append("",`${await Ju(e)}(( ${w} ))\\n`)};' +
        'await __t(t.init);t.init&&await Y(e,t.init.expression),e.state.loopDepth++;',
    },
    {
      find: '!(t.condition&&(n!==void 0&&(e.state.currentLine=n),await Y(e,t.condition.expression)===0))',
      replace: '(await __t(t.condition),!(t.condition&&(n!==void 0&&(e.state.currentLine=n),await Y(e,t.condition.expression)===0)))',
    },
    {
      find: 'if(a.action==="continue"){t.update&&await Y(e,t.update.expression);continue}',
      replace: 'if(a.action==="continue"){await __t(t.update);t.update&&await Y(e,t.update.expression);continue}',
    },
    {
      find: 'throw a.error}t.update&&await Y(e,t.update.expression)}}finally{e.state.loopDepth--}return r.build(s)}',
      replace: 'throw a.error}await __t(t.update);t.update&&await Y(e,t.update.expression)}}finally{e.state.loopDepth--}return r.build(s)}',
    },
  ],
};
