// `hash -l` lists the table as commands to rebuild it, so an empty table lists nothing (status 0); only the plain
// `hash` says `hash: hash table empty` (bash's hash.c: the message is for the non-portable listing). just-bash said
// it for both.
export default {
  title: '`hash -l` of an empty table prints nothing',
  upstream: 'src/interpreter/builtins/hash.ts: print "hash table empty" only without -l',
  file: 'dist/bundle/index.js',
  edits: [{ find: 'if(e.state.hashTable.size===0)return ee(`hash: hash table empty\n`);let h="";if(s)', replace: 'if(e.state.hashTable.size===0)return ee(s?"":`hash: hash table empty\n`);let h="";if(s)' }],
};
