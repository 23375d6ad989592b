// The directory stack by index (bash's manual, "Directory Stack Builtins"; bash 5.2 builtins/pushd.def): `pushd +N`
// / `-N` rotates the stack so that the Nth directory of `dirs` (from the left, or from the right) is on top and
// changes to it, `pushd -n DIR` adds DIR below the top without changing directory, `popd +N` / `-N` removes the Nth
// directory (`popd` and `popd +0` the top, changing to the next), `dirs +N` / `-N` prints the Nth alone (`-v` with its
// index). An index past the stack is `directory stack index out of range` (`directory stack empty` when the stack
// holds only the current directory), status 1; a sign without a number `invalid number` with the usage, status 2;
// `dirs`' options are single letters (`-l`, `-c`, `-p`, `-v`) as bash reads them. just-bash took `+N` for a directory
// name and had no `-n`.
const helpers = [
  'function _jbDsNumber(w){return/^\\s*[-+]?\\d+\\s*$/.test(w)?Number(w.trim()):NaN}',
  'function _jbDsListing(e){let h=e.state.env.get("HOME")||"";return`${[e.state.cwd,..._o(e)].map(a=>br(a,h)).join(" ")}\\n`}',
  // cd to `s` as the builtin `name` does it (the shape of just-bash's pushd): an error result, or null once there.
  'async function _jbDsCd(e,s,name){try{if(!(await e.fs.stat(s)).isDirectory)return D(`bash: ${name}: ${s}: Not a directory\\n`,1)}catch{return D(`bash: ${name}: ${s}: No such file or directory\\n`,1)}e.state.previousDir=e.state.cwd,e.state.cwd=s,e.state.env.set("PWD",s),e.state.env.set("OLDPWD",e.state.previousDir);return null}',
  'function _jbDsRange(name,k,w){return D(k===0?`bash: ${name}: directory stack empty\\n`:`bash: ${name}: ${w}: directory stack index out of range\\n`,1)}',
  // pushd: the stack `n` holds the directories after the current one, top first (`dirs` is cwd, then n).
  'async function _jbPushd(e,t){let n=_o(e),a=[...t],nocd=!1,rot=null,dd=!1;for(;a.length;){let x=a[0];if(x==="-n"){nocd=!0,a.shift();continue}if(x==="--"){a.shift(),dd=!0;break}if(x==="-")break;if(x[0]==="+"||x[0]==="-"){let m=_jbDsNumber(x.slice(1));if(Number.isNaN(m))return D(`bash: pushd: ${x}: invalid number\\npushd: usage: pushd [-n] [+N | -N | dir]\\n`,2);let num=x[0]==="-"?n.length-m:m;if(num>n.length||num<0)return _jbDsRange("pushd",n.length,x);rot=num,a.shift();continue}break}',
  'if(rot!==null){let L=[e.state.cwd,...n];if(rot===0){if(nocd)return ne;let r=await _jbDsCd(e,L[0],"pushd");return r??ee(_jbDsListing(e))}let R=[...L.slice(rot),...L.slice(0,rot)];e.state.directoryStack=R.slice(1);if(nocd)return ne;let r=await _jbDsCd(e,R[0],"pushd");return r??ee(_jbDsListing(e))}',
  'if(nocd&&a.length>0){n.unshift(a[0]);return ee(_jbDsListing(e))}return await To(e,dd?["--",...a]:a)}',
  'async function _jbPopd(e,t){let n=_o(e),nocd=!1,dir="+",which=0,ww="",U="popd: usage: popd [-n] [+N | -N]\\n";for(let x of t){if(x==="-n"){nocd=!0;continue}if(x==="--")break;if(x[0]==="+"||x[0]==="-"){let m=_jbDsNumber(x.slice(1));if(Number.isNaN(m))return D(`bash: popd: ${x}: invalid number\\n${U}`,2);dir=x[0],which=m,ww=x;continue}if(x!=="")return D(`bash: popd: ${x}: invalid argument\\n${U}`,2);break}',
  'let k=n.length;if(which>k||which<-k||k===0&&which===0)return _jbDsRange("popd",k,ww);if(dir==="+"&&which===0||dir==="-"&&which===k){if(!nocd){let r=await _jbDsCd(e,n[0],"popd");if(r)return r}n.shift()}else n.splice((dir==="+"?which:k-which)-1,1);return ee(_jbDsListing(e))}',
  'function _jbDirs(e,t){let n=_o(e),k=n.length,long=!1,clear=!1,v=0,idx=0,want=-1,w="",U="dirs: usage: dirs [-clpv] [+N] [-N]\\n";for(let x of t){if(x==="-l")long=!0;else if(x==="-c")clear=!0;else if(x==="-v")v|=2;else if(x==="-p")v|=1;else if(x==="--")break;else if(x[0]==="+"||x[0]==="-"){w=x.slice(1);let m=_jbDsNumber(w);if(Number.isNaN(m))return D(`bash: dirs: ${x}: invalid number\\n${U}`,2);let s=x[0]==="+"?1:-1;idx=s>0?1:2;if(m===0&&s>0)want=0;else if(m===k)idx=s>0?2:1,want=0;else want=m>=0&&m<=k?s>0?k-m:m:-1}else return D(`bash: dirs: ${x}: invalid option\\n${U}`,2)}',
  'if(clear)return e.state.directoryStack=[],ne;if(idx&&(want<0||want>k))return _jbDsRange("dirs",k,w);let h=e.state.env.get("HOME")||"",f=a=>long?a:br(a,h),o="";if(!idx||idx===1&&want===0){o+=v&2?` 0  ${f(e.state.cwd)}`:f(e.state.cwd);if(idx)return ee(o+"\\n")}',
  'if(idx){let d=n[k-want-1];o+=v&2?`${String(k-want).padStart(2)}  ${f(d)}`:f(d)}else n.forEach((d,j)=>{o+=v>=2?`\\n${String(j+1).padStart(2)}  ${f(d)}`:`${v&1?"\\n":" "}${f(d)}`});return ee(o+"\\n")}',
].join('');

export default {
  title: 'pushd, popd and dirs take +N and -N (rotate, remove, show one); pushd -n; dirs reads its options as bash does',
  upstream: 'src/interpreter/builtins/dirs.ts: pushd +N/-N rotation and -n, popd +N/-N and -n, dirs +N/-N and single-letter options (bash pushd.def)',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'async function To(e,t){let n=_o(e),r;', replace: `${helpers}async function To(e,t){let n=_o(e),r;` },
    { find: 'if(t==="pushd")return await To(c,n);if(t==="popd")return Lo(c,n);if(t==="dirs")return Mo(c,n);', replace: 'if(t==="pushd")return await _jbPushd(c,n);if(t==="popd")return await _jbPopd(c,n);if(t==="dirs")return _jbDirs(c,n);' },
  ],
};
