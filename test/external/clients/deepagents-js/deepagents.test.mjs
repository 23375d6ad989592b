// LangChain's Deep Agents for JavaScript (npm deepagents 1.14.1), unchanged, against spritzer ($SPRITZER_EXEC): a
// deep agent whose backend is a sprite (./sprites-sandbox.mjs: deepagents' BaseSandbox with execute, uploadFiles and
// downloadFiles on @fly/sprites 0.1.0), driven by deepagents' own agent loop with a scripted chat model
// (@langchain/core's fakeModel: it only replays tool calls, so no model and no network). Each tool call is one model
// turn; the loop's tool node runs it as it runs a real model's, and the tests read the tool messages the model would
// read next. Every file tool is deepagents' shell command lines (find -printf, awk, grep -rHnF, test, rm) over
// execute, or its upload/download over the filesystem API.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SpritesClient } from '@fly/sprites';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createDeepAgent } from 'deepagents';
import { SpritesSandbox } from './sprites-sandbox.mjs';

const client = new SpritesClient(process.env.SPRITES_TOKEN, { baseURL: process.env.SPRITES_BASE_URL });
const SPRITE = 'deepagents-js';
let sandbox;

before(async () => {
  sandbox = new SpritesSandbox(await client.createSprite(SPRITE));
});

after(async () => {
  await client.deleteSprite(SPRITE);
  const names = (await client.listAllSprites()).map((s) => s.name);
  assert.ok(!names.includes(SPRITE), `delete of the sprite: it is still listed (${names.join(', ')})`);
});

/** The text a tool message carries (a string, or the text blocks of read_file's content list). */
function textOf(message) {
  if (message === undefined) return undefined;
  if (typeof message.content === 'string') return message.content;
  return message.content.map((block) => (block.type === 'text' ? block.text : `[${block.type} ${block.mimeType}]`)).join('');
}

/**
 * One agent run: the scripted model asks for `calls` ([toolName, args] pairs) one per turn, then answers "done".
 * Resolves with the tool message of each call, in order.
 */
async function agentRun(calls) {
  let model = fakeModel();
  calls.forEach(([name, args], i) => {
    model = model.respondWithTools([{ name, args, id: `call-${i}` }]);
  });
  model = model.respond(new AIMessage('done'));
  const agent = createDeepAgent({ model, backend: sandbox });
  const { messages } = await agent.invoke({ messages: [new HumanMessage('work in the sprite')] });
  const byId = new Map(messages.filter((m) => m.getType() === 'tool').map((m) => [m.tool_call_id, m]));
  return calls.map((_, i) => byId.get(`call-${i}`));
}

/** Runs `calls` and compares each tool's text with `want` (a string, or a function that checks it), naming the step. */
async function expectTools(steps) {
  const results = await agentRun(steps.map(([call]) => call));
  steps.forEach(([[name, args], want], i) => {
    const got = textOf(results[i]);
    const label = `step ${i + 1}, ${name} ${JSON.stringify(args)}`;
    if (typeof want === 'function') want(got, label);
    else assert.equal(got, want, `${label}: the tool answered ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  });
  return results;
}

/** A checker for output whose lines come in directory order: the same lines, in any order. */
const sameLines = (want) => (got, label) =>
  assert.deepEqual(String(got).split('\n').sort(), [...want].sort(), `${label}: the tool answered ${JSON.stringify(got)}, expected these lines in any order: ${JSON.stringify(want)}`);

const P = '/home/sprite/project';

test('write_file, then read_file with offsets and limits', async () => {
  await expectTools([
    [['write_file', { file_path: `${P}/notes.md`, content: 'alpha\n\tbeta\ngamma δ\ndelta\nepsilon\n' }], `Successfully wrote to '${P}/notes.md'`],
    [['read_file', { file_path: `${P}/notes.md` }], '@@ lines 1-5 of 5 @@\n     1\talpha\n     2\t\tbeta\n     3\tgamma δ\n     4\tdelta\n     5\tepsilon'],
    [['read_file', { file_path: `${P}/notes.md`, offset: 1, limit: 2 }], '@@ lines 2-3 of 5 | next offset 3 @@\n     2\t\tbeta\n     3\tgamma δ'],
    [['read_file', { file_path: `${P}/notes.md`, offset: 4, limit: 10 }], '@@ lines 5-5 of 5 @@\n     5\tepsilon'],
    [['read_file', { file_path: `${P}/missing.md` }], `Error: File '${P}/missing.md' not found`],
    [['write_file', { file_path: `${P}/empty.txt`, content: '' }], `Successfully wrote to '${P}/empty.txt'`],
    // deepagents' read command prints the reminder with a newline, which its read_file tool then treats as a line
    [['read_file', { file_path: `${P}/empty.txt` }], '@@ lines 1-1 @@\nSystem reminder: File exists but has empty contents'],
    [['write_file', { file_path: P, content: 'a directory is not a file' }], `Failed to write to ${P}: is_directory`],
    [['execute', { command: `cd ${P} && wc -c < notes.md && stat -c '%a %U' notes.md` }], '35\n644 sprite\n\n[Command succeeded with exit code 0]'],
  ]);
});

test('edit_file: a unique match, several matches, replace_all, no match; the script keeps its mode', async () => {
  const script = `${P}/run.sh`;
  await expectTools([
    [['write_file', { file_path: script, content: '#!/bin/bash\n# TODO: greet\necho hello\n# TODO: count\necho TODO\n' }], `Successfully wrote to '${script}'`],
    [['execute', { command: `chmod 755 ${script}` }], '\n[Command succeeded with exit code 0]'],
    [['edit_file', { file_path: script, old_string: '# TODO: greet', new_string: '# greet' }], `Successfully replaced 1 occurrence(s) in '${script}'`],
    [['edit_file', { file_path: script, old_string: 'TODO', new_string: 'DONE' }], `Multiple occurrences found in '${script}'. Use replaceAll=true to replace all.`],
    [['edit_file', { file_path: script, old_string: 'TODO', new_string: 'DONE', replace_all: true }], `Successfully replaced 2 occurrence(s) in '${script}'`],
    [['edit_file', { file_path: script, old_string: 'TODO', new_string: 'x' }], `String not found in file '${script}'`],
    [['edit_file', { file_path: `${P}/nope.sh`, old_string: 'a', new_string: 'b' }], `Error: File '${P}/nope.sh' not found`],
    [['execute', { command: `cd ${P} && ./run.sh && stat -c '%a %U' run.sh` }], 'hello\nDONE\n755 sprite\n\n[Command succeeded with exit code 0]'],
    [['read_file', { file_path: script }], '@@ lines 1-5 of 5 @@\n     1\t#!/bin/bash\n     2\t# greet\n     3\techo hello\n     4\t# DONE: count\n     5\techo DONE'],
  ]);
});

test('ls, glob and grep over a tree', async () => {
  const T = '/home/sprite/tree';
  const setup = [
    `mkdir -p ${T}/src/lib ${T}/docs`,
    `printf 'x = 1\\n' > ${T}/src/a.py`,
    `printf 'import a\\n# needle: a.b\\n' > ${T}/src/lib/b.py`,
    `printf '# needle\\n' > ${T}/docs/readme.md`,
    `printf 'a.b literal\\naxb is a regex match only\\n' > ${T}/docs/notes.txt`,
  ].join(' && ');
  await expectTools([
    [['execute', { command: setup }], '\n[Command succeeded with exit code 0]'],
    [['ls', { path: T }], sameLines([`${T}/docs/ (directory)`, `${T}/src/ (directory)`])],
    [['ls', { path: `${T}/src` }], sameLines([`${T}/src/a.py (6 bytes)`, `${T}/src/lib/ (directory)`])],
    [['ls', { path: `${T}/none` }], `No files found in ${T}/none`],
    [['glob', { pattern: '**/*.py', path: T }], sameLines(['src/a.py', 'src/lib/b.py'])],
    [['glob', { pattern: '*.md', path: `${T}/docs` }], 'readme.md'],
    [['glob', { pattern: '**/*.rs', path: T }], "No files found matching pattern '**/*.rs'"],
    [['grep', { pattern: 'needle', path: T, glob: '*.md' }], `${T}/docs/readme.md:\n  1: # needle`],
    [['grep', { pattern: 'a.b', path: T, output_mode: 'files_with_matches' }], sameLines([`${T}/docs/notes.txt`, `${T}/src/lib/b.py`])],
    [['grep', { pattern: 'a.b', path: `${T}/docs/notes.txt` }], `${T}/docs/notes.txt:\n  1: a.b literal`],
    [['grep', { pattern: 'nothing-here', path: T }], "No matches found for pattern 'nothing-here'"],
  ]);
  // What the listing carries besides names: sizes, directory flags, and times of now (find's %T@).
  const { files } = await sandbox.ls(`${T}/docs`);
  const infos = files.map((f) => `${f.path} ${f.is_dir} ${f.size}`).sort();
  assert.deepEqual(infos, [`${T}/docs/notes.txt false 38`, `${T}/docs/readme.md false 9`], `backend ls of ${T}/docs: ${JSON.stringify(files)}`);
  for (const f of files) {
    const age = Date.now() - Date.parse(f.modified_at);
    assert.ok(age > -120_000 && age < 600_000, `backend ls of ${T}/docs: ${f.path} was modified at ${f.modified_at}, not in the last minutes`);
  }
});

test('execute: output, stderr, exit codes, quoting, the working directory', async () => {
  await expectTools([
    [['execute', { command: 'echo out; echo err >&2; exit 3' }], 'out\nerr\n\n[Command failed with exit code 3]'],
    [['execute', { command: 'pwd; whoami' }], '/home/sprite\nsprite\n\n[Command succeeded with exit code 0]'],
    [['execute', { command: `printf '%s\\n' "it's" 'a "quoted" $HOME' "$((6 * 7))"` }], 'it\'s\na "quoted" $HOME\n42\n\n[Command succeeded with exit code 0]'],
    [['execute', { command: 'nosuchcommand-xyz' }], 'bash: line 1: nosuchcommand-xyz: command not found\n\n[Command failed with exit code 127]'],
    [['execute', { command: 'true' }], '\n[Command succeeded with exit code 0]'],
    [['execute', { command: 'seq 1 3 | while read n; do echo "line $n"; done; false' }], 'line 1\nline 2\nline 3\n\n[Command failed with exit code 1]'],
  ]);
});

test('delete, and the files the agent uploads and downloads', async () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 248 }, (_, i) => i)]);
  const uploaded = await sandbox.uploadFiles([
    [`${P}/img/logo.png`, png],
    [P, new TextEncoder().encode('a directory is not a file')],
  ]);
  assert.deepEqual(uploaded, [{ path: `${P}/img/logo.png`, error: null }, { path: P, error: 'is_directory' }], `uploadFiles: ${JSON.stringify(uploaded)}`);
  const downloaded = await sandbox.downloadFiles([`${P}/img/logo.png`, `${P}/img/none.png`, `${P}/img`]);
  assert.deepEqual(
    downloaded.map((d) => [d.path, d.content && Buffer.from(d.content).toString('hex'), d.error]),
    [[`${P}/img/logo.png`, Buffer.from(png).toString('hex'), null], [`${P}/img/none.png`, null, 'file_not_found'], [`${P}/img`, null, 'is_directory']],
    `downloadFiles: ${JSON.stringify(downloaded.map((d) => [d.path, d.content?.length, d.error]))}`,
  );

  const [image] = await expectTools([
    [['read_file', { file_path: `${P}/img/logo.png` }], '[image image/png]'],
    [['write_file', { file_path: `${P}/scratch.txt`, content: 'temporary\n' }], `Successfully wrote to '${P}/scratch.txt'`],
    [['delete', { file_path: `${P}/scratch.txt` }], `Deleted ${P}/scratch.txt`],
    [['delete', { file_path: `${P}/scratch.txt` }], `Error: '${P}/scratch.txt' not found`],
    [['delete', { file_path: `${P}/img` }], `Deleted ${P}/img`],
    [['ls', { path: P }], (got, label) => assert.ok(!got.includes('img') && !got.includes('scratch'), `${label}: deleted paths are still listed: ${got}`)],
  ]);
  assert.equal(image.content[0].data, Buffer.from(png).toString('base64'), `read_file of the image: its base64 data differs (${image.content[0].data.slice(0, 40)}…)`);
});
