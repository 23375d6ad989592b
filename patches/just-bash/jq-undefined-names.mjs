// jq compiles the whole filter before it reads any input: a syntax error, or a function or `$variable` the filter
// uses that neither jq 1.6's builtins nor the filter's own `def`s, bindings, parameters and `--arg`-style
// options define, is a compile error with status 3 and no output (`jq: error: $undefined is not defined at
// <top-level>, line 1:` … `jq: 1 compile error`; `ascii/0 is not defined` for a builtin jq 1.6 does not have)
// (src/main.c, jq_compile_args; src/compile.c, block_bind_referenced and the "is not defined" report). just-bash
// read an unknown variable as null, ran builtins jq 1.6 lacks, and called a syntax error a status-5 "parse error".
export default {
  title: 'jq syntax errors and undefined functions or variables are compile errors, status 3',
  upstream: 'src/commands/jq (before running): resolve every call and variable of the parsed filter against the builtins, defs, bindings and named arguments; report the unresolved ones and syntax errors as jq\'s compile errors, status 3',
  file: 'dist/bundle/chunks/chunk-UL6YJ7FT.js',
  edits: [
    {
      find: 'var re={name:"jq",summary:',
      replace:
        // jq 1.6's builtins, as its `builtins` lists them.
        'var __jq16Builtins=new Set("IN/1 IN/2 INDEX/1 INDEX/2 JOIN/2 JOIN/3 JOIN/4 acos/0 acosh/0 add/0 all/0 all/1 all/2 any/0 any/1 any/2 arrays/0 ascii_downcase/0 ascii_upcase/0 asin/0 asinh/0 atan/0 atan2/2 atanh/0 booleans/0 bsearch/1 builtins/0 capture/1 capture/2 cbrt/0 ceil/0 combinations/0 combinations/1 contains/1 copysign/2 cos/0 cosh/0 debug/0 del/1 delpaths/1 drem/2 empty/0 endswith/1 env/0 erf/0 erfc/0 error/0 error/1 exp/0 exp10/0 exp2/0 explode/0 expm1/0 fabs/0 fdim/2 finites/0 first/0 first/1 flatten/0 flatten/1 floor/0 fma/3 fmax/2 fmin/2 fmod/2 format/1 frexp/0 from_entries/0 fromdate/0 fromdateiso8601/0 fromjson/0 fromstream/1 gamma/0 get_jq_origin/0 get_prog_origin/0 get_search_list/0 getpath/1 gmtime/0 group_by/1 gsub/2 gsub/3 halt/0 halt_error/0 halt_error/1 has/1 hypot/2 implode/0 in/1 index/1 indices/1 infinite/0 input/0 input_filename/0 input_line_number/0 inputs/0 inside/1 isempty/1 isfinite/0 isinfinite/0 isnan/0 isnormal/0 iterables/0 j0/0 j1/0 jn/2 join/1 keys/0 keys_unsorted/0 last/0 last/1 ldexp/2 leaf_paths/0 length/0 lgamma/0 lgamma_r/0 limit/2 localtime/0 log/0 log10/0 log1p/0 log2/0 logb/0 ltrimstr/1 map/1 map_values/1 match/1 match/2 max/0 max_by/1 min/0 min_by/1 mktime/0 modf/0 modulemeta/0 nan/0 nearbyint/0 nextafter/2 nexttoward/2 normals/0 not/0 now/0 nth/1 nth/2 nulls/0 numbers/0 objects/0 path/1 paths/0 paths/1 pow/2 pow10/0 range/1 range/2 range/3 recurse/0 recurse/1 recurse/2 recurse_down/0 remainder/2 repeat/1 reverse/0 rindex/1 rint/0 round/0 rtrimstr/1 scalars/0 scalars_or_empty/0 scalb/2 scalbln/2 scan/1 select/1 setpath/2 significand/0 sin/0 sinh/0 sort/0 sort_by/1 split/1 split/2 splits/1 splits/2 sqrt/0 startswith/1 stderr/0 strflocaltime/1 strftime/1 strings/0 strptime/1 sub/2 sub/3 tan/0 tanh/0 test/1 test/2 tgamma/0 to_entries/0 todate/0 todateiso8601/0 tojson/0 tonumber/0 tostream/0 tostring/0 transpose/0 trunc/0 truncate_stream/1 type/0 unique/0 unique_by/1 until/2 utf8bytelength/0 values/0 walk/1 while/2 with_entries/1 y0/0 y1/0 yn/2".split(" "));' +
        // The variables a pattern binds (every alternative's, as `?//` binds them all); a computed key is an
        // expression of the enclosing scope.
        'function __jqPatternVars(p,vs,outer){if(!p)return;if(p.type==="var")vs.add(p.name);else if(p.type==="array")for(let x of p.elements)__jqPatternVars(x,vs,outer);else if(p.type==="object")for(let f of p.fields){typeof f.key=="object"&&outer(f.key);f.keyVar&&vs.add(f.keyVar);__jqPatternVars(f.pattern,vs,outer)}}' +
        // The names a parsed filter uses that nothing defines, in the order jq reports them.
        'function __jqUndefinedNames(ast,vars){let errs=[],walk=(n,fns,vs)=>{if(!n||typeof n!="object")return;if(Array.isArray(n)){for(let x of n)walk(x,fns,vs);return}switch(n.type){' +
        'case"VarRef":vs.has(n.name)||errs.push(n.name);return;' +
        'case"Call":{let k=`${n.name}/${n.args.length}`;fns.has(k)||__jq16Builtins.has(k)||n.name.startsWith("@")||errs.push(k);walk(n.args,fns,vs);return}' +
        'case"VarBind":{walk(n.value,fns,vs);let v2=new Set(vs);for(let p of [n.pattern??{type:"var",name:n.name},...n.alternatives??[]])__jqPatternVars(p,v2,x=>walk(x,fns,vs));walk(n.body,fns,v2);return}' +
        'case"Reduce":case"Foreach":{walk(n.expr,fns,vs);walk(n.init,fns,vs);let v2=new Set(vs);__jqPatternVars(n.pattern??{type:"var",name:n.varName},v2,x=>walk(x,fns,vs));walk(n.update,fns,v2);walk(n.extract,fns,v2);return}' +
        'case"Def":{let f2=new Set(fns).add(`${n.name}/${n.params.length}`),fb=new Set(f2),vb=new Set(vs);for(let p of n.params)p.startsWith("$")?(vb.add(p),fb.add(`${p.slice(1)}/0`)):fb.add(`${p}/0`);walk(n.funcBody,fb,vb);walk(n.body,f2,vs);return}' +
        'case"Break":return}for(let[k,x]of Object.entries(n))k!=="type"&&walk(x,fns,vs)};walk(ast,new Set,new Set(["$ENV","$__loc__","$ARGS",...vars]));return errs}' +
        // Parses and resolves the filter; a failure carries jq's compile-error report.
        'function __jqCompile(src,vars,parse){let ast,fail=(lines)=>Object.assign(new Error("compile error"),{jqCompile:lines.map(m=>`jq: error: ${m} at <top-level>, line 1:\n${src}\n`).join("")+`jq: ${lines.length} compile error${lines.length>1?"s":""}\n`});' +
        'try{ast=parse()}catch(err){if(err instanceof j)throw err;throw fail([`syntax error, ${B(err.message)} (Unix shell quoting issues?)`])}' +
        'let names=__jqUndefinedNames(ast,vars.map(v=>"$"+v));if(names.length)throw fail(names.map(m=>`${m} is not defined`));return ast}' +
        'var re={name:"jq",summary:',
    },
    {
      find: 'try{let r=Z(V,{maxDepth:t.limits.maxQueryDepth,maxTokens:t.limits.maxQueryTokens,maxSourceLength:t.limits.maxStringLength})',
      replace: 'try{let r=__jqCompile(V,[...$.keys()],()=>Z(V,{maxDepth:t.limits.maxQueryDepth,maxTokens:t.limits.maxQueryTokens,maxSourceLength:t.limits.maxStringLength}))',
    },
    {
      find: 'catch(r){if(r instanceof H)throw r;if(r instanceof j)return',
      replace: 'catch(r){if(r instanceof H)throw r;if(r?.jqCompile)return{stdout:"",stderr:r.jqCompile,exitCode:3};if(r instanceof j)return',
    },
  ],
};
