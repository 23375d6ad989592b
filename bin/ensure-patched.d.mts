/** Types of bin/ensure-patched.mjs (see its docstrings). */
export function ensurePatched(root?: string): void;
