// jq's `match(re; "g")` gives every match, each with offsets and lengths in codepoints and its captures (an unmatched
// one `{"offset":-1,"string":null,"length":0,"name":…}`, a named one with its name); `sub`/`gsub` build the result
// from those matches, evaluating the replacement once per match with the match's named captures as its input
// (`sub("(?<x>a)"; "<\(.x)>")`), one result per replacement output, and the replacement text is taken as is (no `$1`).
// just-bash's match stopped at the first match (UTF-16 offsets, captures without offsets or names), and its
// sub/gsub evaluated the replacement once on the whole string and handed it to String.replace (`Cannot index string
// with string "x"`). jq 1.6's builtin.jq: match/2, sub/3 (reduce over the matches), gsub/3, _capture_object.
const HELPERS = `
function __spzJqMatches(e,p,u,j){let g=u.includes("g"),x=j(p,u.replace(/[gd]/g,"")+"gd"),n=null;try{n=x.native;if(!(n instanceof RegExp))n=null}catch{n=null}
let names=[];for(let k=0;k<p.length;k++){let ch=p[k];if(ch==="\\\\"){k++;continue}if(ch==="["){k++;if(p[k]==="^")k++;if(p[k]==="]")k++;while(k<p.length&&p[k]!=="]"){if(p[k]==="\\\\")k++;k++}continue}if(ch==="("){if(p[k+1]==="?"){let m=/^\\(\\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(p.slice(k));if(m)names.push(m[1])}else names.push(null)}}
let cp=(k)=>[...e.slice(0,k)].length,L=(v)=>[...v].length,out=[],re=n??x;re.lastIndex=0;
for(;;){if(re.lastIndex>e.length)break;let i=re.exec(e);if(!i)break;let ix=i.indices;
out.push({offset:cp(i.index),length:L(i[0]),string:i[0],captures:i.slice(1).map((h,a)=>h==null?{offset:-1,string:null,length:0,name:names[a]??null}:{offset:cp(ix?ix[a+1][0]:Math.max(i.index,e.indexOf(h,i.index))),length:L(h),string:h,name:names[a]??null})});
if(!g)break;if(i[0]===""&&n)re.lastIndex++}return out}
function __spzJqSub(e,p,u,f,j){let ms=__spzJqMatches(e,p,u,j),cs=[...e],tn=(v)=>v===null?"null":Array.isArray(v)?"array":typeof v,rs=[""],prev=0;
for(let m of ms){let c={};for(let k of m.captures)if(k.name!==null)c[k.name]=k.string;let gap=cs.slice(prev,m.offset).join(""),vs=f(c),next=[];
for(let r of rs)for(let v of vs){if(typeof v!=="string")throw new Error(\`string (\${JSON.stringify(r+gap)}) and \${tn(v)} (\${JSON.stringify(v)}) cannot be added\`);next.push(r+gap+v)}
rs=next;prev=m.offset+m.length}let tail=cs.slice(prev).join("");return rs.map((r)=>r+tail)}
`;

export default {
  title: "jq match/2 with \"g\" gives every match (codepoint offsets, captures' offsets and names); sub/gsub evaluate the replacement per match on its named captures",
  upstream: 'src/commands/query-engine/builtins (match, sub, gsub): loop exec over the global regex; replacement = evaluate(args[1]) on the capture object, per match',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    { find: 'import{a as j}from"./chunk-KVG5FR5F.js"', replace: `import{a as j}from"./chunk-KVG5FR5F.js";${HELPERS}` },
    {
      find: 'try{let u=t.length>1?String(s(e,t[1],r)[0]):"",i=j(p,`${u}d`).exec(e);if(!i)return[];let c=i.indices;return[{offset:i.index,length:i[0].length,string:i[0],captures:i.slice(1).map((h,a)=>({offset:c?.[a+1]?.[0]??null,length:h?.length??0,string:h??"",name:null}))}]}catch{return[null]}',
      replace: 'try{let u=t.length>1?String(s(e,t[1],r)[0]):"";return __spzJqMatches(e,p,u,j)}catch{return[null]}',
    },
    {
      find: 'case"sub":{if(typeof e!="string"||t.length<2)return[null];let o=s(e,t[0],r),p=s(e,t[1],r),u=String(o[0]),f=String(p[0]);try{let i=t.length>2?String(s(e,t[2],r)[0]):"";return[j(u,i).replace(e,f)]}catch{return[e]}}',
      replace: 'case"sub":{if(typeof e!="string"||t.length<2)return[null];let u=String(s(e,t[0],r)[0]),i=t.length>2?String(s(e,t[2],r)[0]):"";return __spzJqSub(e,u,i,(c)=>s(c,t[1],r),j)}',
    },
    {
      find: 'case"gsub":{if(typeof e!="string"||t.length<2)return[null];let o=s(e,t[0],r),p=s(e,t[1],r),u=String(o[0]),f=String(p[0]);try{let i=t.length>2?String(s(e,t[2],r)[0]):"g",c=i.includes("g")?i:`${i}g`;return[j(u,c).replace(e,f)]}catch{return[e]}}',
      replace: 'case"gsub":{if(typeof e!="string"||t.length<2)return[null];let u=String(s(e,t[0],r)[0]),i=t.length>2?String(s(e,t[2],r)[0]):"g";return __spzJqSub(e,u,i.includes("g")?i:`${i}g`,(c)=>s(c,t[1],r),j)}',
    },
  ],
};
