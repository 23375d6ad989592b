// ANSI-C quoting (`$'…'`) decodes each escape the bash manual's QUOTING section lists, as bash's ansicstr does:
// `\?` is `?`; `\xHH` takes one or two hex digits (`\x4g` is byte 4 then `g`), `\x{HH…}` any number; `\uHHHH` and
// `\UHHHHHHHH` take up to 4 and 8 hex digits and give the character (UTF-8 out); `\cX` is the control character
// of X (`\c?` is DEL, `\c\\` is FS); octal takes up to three digits (`\1011` is `A1`); an escape bash does not
// know keeps its backslash (`\q` stays `\q`). just-bash kept `\?`, `\U…` and `\x{…}` undecoded, read `\c?` as
// 0x1f, `\x4g` as byte 4 with the `g` dropped, `\c\\` as FS followed by a backslash, and dropped an empty `$''` word.
export default {
  title: "$'…' decodes every escape as bash does",
  upstream: "src/parser (ANSI-C quoting, $'…'): decode the escapes as bash's ansicstr (lib/sh/strtrans.c) does",
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: "function ul(e,t,n){let r=\"\",s=n;for(;s<t.length&&t[s]!==\"'\";){let i=t[s];if(i===\"\\\\\"&&s+1<t.length)switch(t[s+1]){case\"n\":r+=`\n`,s+=2;break;case\"t\":r+=\"\t\",s+=2;break;case\"r\":r+=\"\\r\",s+=2;break;case\"\\\\\":r+=\"\\\\\",s+=2;break;case\"'\":r+=\"'\",s+=2;break;case'\"':r+='\"',s+=2;break;case\"a\":r+=\"\\x07\",s+=2;break;case\"b\":r+=\"\\b\",s+=2;break;case\"e\":case\"E\":r+=\"\\x1B\",s+=2;break;case\"f\":r+=\"\\f\",s+=2;break;case\"v\":r+=\"\\v\",s+=2;break;case\"x\":{let a=[],l=s;for(;l+1<t.length&&t[l]===\"\\\\\"&&t[l+1]===\"x\";){let c=t.slice(l+2,l+4),u=parseInt(c,16);if(!Number.isNaN(u)&&c.length>0)a.push(u),l+=2+c.length;else break}a.length>0?(r+=bd(a),s=l):(r+=\"\\\\x\",s+=2);break}case\"u\":{let a=t.slice(s+2,s+6),l=parseInt(a,16);Number.isNaN(l)?(r+=\"\\\\u\",s+=2):(r+=String.fromCharCode(l),s+=6);break}case\"c\":{if(s+2<t.length){let l=t[s+2].charCodeAt(0)&31;r+=String.fromCharCode(l),s+=3}else r+=\"\\\\c\",s+=2;break}case\"0\":case\"1\":case\"2\":case\"3\":case\"4\":case\"5\":case\"6\":case\"7\":{let a=\"\",l=s+1;for(;l<t.length&&l<s+4&&/[0-7]/.test(t[l]);)a+=t[l],l++;let c=parseInt(a,8);r+=String.fromCharCode(c),s=l;break}default:r+=i,s++}else r+=i,s++}",
      replace: "function __jbAnsiEscape(t,k){let c=t[k],h=/[0-9a-fA-F]/,S={a:\"\\x07\",b:\"\\b\",e:\"\\x1b\",E:\"\\x1b\",f:\"\\f\",n:\"\\n\",r:\"\\r\",t:\"\\t\",v:\"\\v\",\"\\\\\":\"\\\\\",\"'\":\"'\",'\"':'\"',\"?\":\"?\"};if(Object.hasOwn(S,c))return{text:S[c],end:k+1};if(c>=\"0\"&&c<=\"7\"){let v=0,j=k;for(;j<k+3&&j<t.length&&t[j]>=\"0\"&&t[j]<=\"7\";j++)v=v*8+t.charCodeAt(j)-48;return{byte:v&255,end:j}}if(c===\"x\"){let j=k+1,v=0,d=0;if(t[j]===\"{\"){for(j++;j<t.length&&h.test(t[j]);j++)v=(v*16+parseInt(t[j],16))&255;return t[j]===\"}\"&&j++,{byte:v,end:j}}for(;d<2&&j<t.length&&h.test(t[j]);j++,d++)v=v*16+parseInt(t[j],16);return d?{byte:v,end:j}:{text:\"\\\\x\",end:k+1}}if(c===\"u\"||c===\"U\"){let m=c===\"u\"?4:8,j=k+1,v=0,d=0;for(;d<m&&j<t.length&&h.test(t[j]);j++,d++)v=v*16+parseInt(t[j],16);return d?{text:v<=1114111&&(v<55296||v>57343)?String.fromCodePoint(v):\"\\ufffd\",end:j}:{text:\"\\\\\"+c,end:k+1}}if(c===\"c\"){if(k+1>=t.length||t[k+1]===\"'\")return{text:\"\\\\c\",end:k+1};let x=t[k+1],j=k+2;return x===\"\\\\\"&&t[j]===\"\\\\\"&&j++,{text:String.fromCharCode(x===\"?\"?127:x.toUpperCase().charCodeAt(0)&31),end:j}}return{text:\"\\\\\"+c,end:k+1}}function ul(e,t,n){let r=\"\",s=n,p=[];for(;s<t.length&&t[s]!==\"'\";){let i=t[s];if(i===\"\\\\\"&&s+1<t.length){let q=__jbAnsiEscape(t,s+1);q.byte!==void 0?p.push(q.byte):(p.length&&(r+=bd(p),p=[]),r+=q.text),s=q.end}else p.length&&(r+=bd(p),p=[]),r+=i,s++}p.length&&(r+=bd(p));",
    },
    {
      // An empty result (`$''`, `$'\0…'`) is still a word, as `''` is.
      find: "{part:M.literal(r.includes(\"\\0\")?r.slice(0,r.indexOf(\"\\0\")):r),endIndex:s}}",
      replace: "{part:(r=r.includes(\"\\0\")?r.slice(0,r.indexOf(\"\\0\")):r)===\"\"?M.singleQuoted(\"\"):M.literal(r),endIndex:s}}",
    },
  ],
};
