// The sqlite3 shell prints a REAL as sqlite's `%!.15g` (list, csv, column, line, box, markdown, html, tabs, ascii):
// 15 significant digits, `.0` kept on a whole number (avg of 3 and 5 is `4.0`), `1.0e+20`, `Inf`; and in json,
// quote and insert modes as `%lld.0` when whole, else `%!.20g` (json writes infinity as 1e999). sqlite 3.40's
// printf takes the digits from an x86 long double, each step rounded to a 64-bit mantissa, so the 16th–20th
// digits are those of that arithmetic, not of the exact value. just-bash's sql.js values lost the INTEGER/REAL
// distinction (4.0 came out as 4) and were printed with 17 digits: the worker now reads INTEGERs as BigInt (exact
// past 2^53 too) and REALs as numbers.
export default {
  title: 'sqlite3 prints REAL values as the sqlite shell does (4.0, 0.3, 1.0e+20; json/quote with 20 digits)',
  upstream: 'src/commands/sqlite3/worker.ts (stmt.get(null, { useBigInt: true })) and formatters.ts (format a number with sqlite\'s %!.15g, json/quote with %lld.0 or %!.20g; a bigint as its digits)',
  file: 'dist/bundle/chunks/chunk-N3FZSEG7.js',
  edits: [
    {
      find: 'function F(e){return e.toPrecision(17).replace(/\\.?0+$/,"")}',
      replace: 'function F(e){return e.toPrecision(17).replace(/\\.?0+$/,"")}function spzSqlReal(r,prec){const B=(m)=>m.toString(2).length;const rnd=(m,e)=>{if(m===0n)return[0n,0];let b=B(m)-64;if(b<=0)return[m,e];const h=1n<<BigInt(b-1),r=m&((h<<1n)-1n);m>>=BigInt(b);if(r>h||r===h&&(m&1n))m++;if(m>>64n)m>>=1n,b++;return[m,e+b]};const dbl=(x)=>{const v=new DataView(new ArrayBuffer(8));v.setFloat64(0,x);const t=v.getBigUint64(0),be=Number(t>>52n&0x7ffn),f=t&((1n<<52n)-1n);return be===0?[f,-1074]:[f|1n<<52n,be-1075]};const mul=(a,b)=>rnd(a[0]*b[0],a[1]+b[1]);const cmp=(a,b)=>{const e=Math.min(a[1],b[1]),x=a[0]<<BigInt(a[1]-e),y=b[0]<<BigInt(b[1]-e);return x<y?-1:x>y?1:0};const add=(a,b)=>{if(a[0]===0n)return b;if(b[0]===0n)return a;const e=Math.min(a[1],b[1]);return rnd((a[0]<<BigInt(a[1]-e))+(b[0]<<BigInt(b[1]-e)),e)};const div=(a,b)=>{const k=BigInt(Math.max(0,130-B(a[0])+B(b[0])));const n=a[0]<<k,q=n/b[0],s=n%b[0]?1n:0n;return rnd((q<<1n)|s,a[1]-b[1]-Number(k)-1)};if(Number.isNaN(r))return"NaN";if(!Number.isFinite(r))return(r<0?"-":"")+"Inf";let pre="";if(r<0)r=-r,pre="-";let v=dbl(r),exp=0;let precision=prec;if(precision>0)precision--;let rounder=[0.5,0.05,0.005,5e-4,5e-5,5e-6,5e-7,5e-8,5e-9,5e-10][precision%10];for(let i=precision;i>=10;i-=10)rounder*=1e-10;if(r>0){let scale=[1n,0];const E100=dbl(1e100),E10=dbl(1e10),TEN=[10n,0];while(cmp(v,mul(E100,scale))>=0&&exp<=350)scale=mul(scale,E100),exp+=100;while(cmp(v,mul(E10,scale))>=0&&exp<=350)scale=mul(scale,E10),exp+=10;while(cmp(v,mul(TEN,scale))>=0&&exp<=350)scale=mul(scale,TEN),exp++;v=div(v,scale);while(cmp(v,dbl(1e-8))<0)v=mul(v,[100000000n,0]),exp-=8;while(cmp(v,[1n,0])<0)v=mul(v,TEN),exp--;if(exp>350)return pre+"Inf";}v=add(v,dbl(rounder));if(cmp(v,[10n,0])>=0)v=mul(v,dbl(0.1)),exp++;let xe=exp<-4||exp>precision;if(!xe)precision-=exp;let e2=xe?0:exp,nsd=26,out="";const digit=()=>{if(nsd<=0)return"0";nsd--;const e=v[1];const d=e>=0?v[0]<<BigInt(e):v[0]>>BigInt(-e);v=rnd((v[0]-(e>=0?0n:d<<BigInt(-e)))*10n,e);if(e>=0)v=[0n,0];return String(d)};if(e2<0)out+="0";else for(;e2>=0;e2--)out+=digit();out+=".";for(e2++;e2<0;precision--,e2++)out+="0";while(precision-->0)out+=digit();out=out.replace(/0+$/,"");if(out.endsWith("."))out+="0";if(xe){let x=exp;out+="e"+(x<0?"-":"+");x=Math.abs(x);if(x>=100)out+=String(Math.floor(x/100)),x%=100;out+=String(Math.floor(x/10))+String(x%10)}return pre+out;} function spzSqlExact(r,json){if(json&&r===1/0)return"1e999";if(json&&r===-1/0)return"-1e999";if(Number.isInteger(r)&&r>=-(2**63)&&r<2**63)return`${BigInt(r)}.0`;return spzSqlReal(r,20)}',
    },
    {
      find: 'typeof e=="number"&&!Number.isInteger(e)?e.toPrecision(17).replace(/\\.?0+$/,""):String(e)}',
      replace: 'typeof e=="number"?spzSqlReal(e,15):String(e)}',
    },
    {
      find: 'function ee(e){return e===null?"null":typeof e=="number"?Number.isInteger(e)?String(e):F(e):JSON.stringify(e)}',
      replace: 'function ee(e){return e===null?"null":typeof e=="bigint"?String(e):typeof e=="number"?spzSqlExact(e,!0):JSON.stringify(e)}',
    },
    {
      find: 'if(typeof e=="number"){if(Number.isInteger(e))return String(e);if(Number.isFinite(e))return F(e)}',
      replace: 'if(typeof e=="bigint")return String(e);if(typeof e=="number")return spzSqlExact(e,!1);',
    },
  ],
};
