// jq assigns to a slice of an array as one value: `.[1:3] = ["x"]` replaces those elements by the array's elements
// ([1,"x",4] from [1,2,3,4]), `.[2:] |= map(.*10)` updates the slice as an array, with bounds as slicing takes them
// (negative from the end, clamped to the array; null is the empty array). Assigning a non-array is jq's error `A
// slice of an array can only be assigned another array`; a string's slice cannot be updated (`Cannot update field
// at object index of string`). just-bash's assignment walk had no slice case: it set the whole array.
// jq 1.6 src/jv_aux.c jv_set (slice keys), parse_slice.
export default {
  title: 'jq assignment to a slice of an array (.[a:b] = array, |=, op=) replaces those elements',
  upstream: 'src/commands/query-engine (update walk): a Slice case that clamps the bounds and splices in the new array',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'case"Pipe":{let h=p(f,i.left,a=>a);return p(h,i.right,c)}default:return c(f)}}',
      replace:
        'case"Slice":{let h=a=>{if(typeof a=="string")throw new Error("Cannot update field at object index of string");if(a==null)a=[];if(!Array.isArray(a))throw new Error(`Cannot index ${typeof a} with object`);let L=a.length,at=(x,dflt)=>{let v=x?d(e,x,s)[0]:dflt;if(v==null)v=dflt;v=Math.floor(v);return v<0?Math.max(0,L+v):Math.min(L,v)},st=at(i.start,0),en=Math.max(st,at(i.end,L)),nv=c(a.slice(st,en));if(!Array.isArray(nv))throw new Error("A slice of an array can only be assigned another array");return[...a.slice(0,st),...nv,...a.slice(en)]};return i.base?p(f,i.base,h):h(f)}case"Pipe":{let h=p(f,i.left,a=>a);return p(h,i.right,c)}default:return c(f)}}',
    },
  ],
};
