/** Types of scripts/patch-just-bash.mjs (see its docstrings). */
export interface SnippetEdit { find: string; replace: string }
export interface InterpreterPatch { name: string; file: string; title: string; upstream: string; edits: SnippetEdit[] }
export function applyEdits(text: string, patch: Pick<InterpreterPatch, 'name' | 'edits'>): string;
export function loadPatches(dir: string): Promise<InterpreterPatch[]>;
export function patchSetDigest(patches: InterpreterPatch[]): string;
export function patchInstalled(o: { pkgDir: string; pristineDir: string; patches: InterpreterPatch[]; check?: boolean }): { changed: boolean; files: string[] };
