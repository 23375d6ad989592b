// `( … )` subshells nest at most 256 deep. Each copies the shell's state, the local scopes of every function call
// above it included, so a function that recurses through a subshell (`f() { (f); }`) grows memory with the square of
// its depth (600 levels: 128 MB); past 256 the command fails as just-bash's other depth limits do (`subshell:
// maximum depth (256) exceeded`, which the engine explains loudly). bash forks and has no such limit.
export default {
  title: "subshells nest at most 256 deep",
  upstream: "src/interpreter (executeSubshell): count nesting with the execution scope's depth counter",
  file: "dist/bundle/index.js",
  edits: [
    { find: "executeSubshell(t,n=\"\",r=!1){return Af(this.ctx,t,n,s=>this.executeStatement(s),r)}", replace: "executeSubshell(t,n=\"\",r=!1){let d=this.ctx.executionScope.enterDepth(\"subshell\",256,\"subshell\");return Af(this.ctx,t,n,s=>this.executeStatement(s),r).finally(()=>d.release())}" },
  ],
};
