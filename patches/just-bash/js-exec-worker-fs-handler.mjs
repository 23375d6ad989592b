// The main thread's side of js-exec-worker-fs: operation 500 of the sync bridge goes to the file system's
// `spzNodeFs(cwd, requestJson)`; its answer (a string) is the result, a thrown error the operation's error.
export default {
  title: "js-exec: the main thread serves the embedder fs call (operation 500) with its file system's spzNodeFs",
  upstream: 'src/commands/worker-bridge/bridge-handler.ts handleOperation: dispatch an extension operation to the embedder',
  file: 'dist/bundle/chunks/chunk-YJKHREBZ.js',
  edits: [
    {
      find: 'case n.INVOKE_TOOL:await this.handleInvokeTool();break;',
      replace: 'case n.INVOKE_TOOL:await this.handleInvokeTool();break;case 500:await this.spzHandleFs();break;',
    },
    {
      find: 'resolvePath(t){return this.fs.resolvePath(this.cwd,t)}',
      replace: 'async spzHandleFs(){if(typeof this.fs.spzNodeFs!=="function")throw new Error("EINVAL: invalid argument, fs");let t=await this.fs.spzNodeFs(this.cwd,this.protocol.getDataAsString());this.protocol.setResultFromString(t),this.protocol.setStatus(r.SUCCESS)}resolvePath(t){return this.fs.resolvePath(this.cwd,t)}',
    },
  ],
};
