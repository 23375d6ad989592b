"""Fly's Strands sandbox (strands-sprites 0.1.1 with strands-agents), unchanged, against spritzer ($SPRITZER_EXEC):
SpritesSandbox attached to an existing sprite through an AsyncSpritesClient, the two tools it vends to a Strands
Agent (sandbox_file_editor, sandbox_shell) run as the agent's tool executor runs them after a model chose them (no
model), and the sandbox's own calls: files over the filesystem API (create, view, str_replace, insert, directory
listing, list_files, read/write/remove, missing paths), commands through its python3 supervisor (output, stderr, exit
codes, cwd, env, code, streaming, the remote deadline)."""
import asyncio
import json
import os

import pytest
from strands import Agent, SandboxTimeoutError
from strands.sandbox import ExecutionResult, StreamChunk
from strands.types._events import ToolResultEvent
from strands_sprites import SpritesSandbox

WORKDIR = "/home/sprite"

# strands-sprites runs each command through a python3 supervisor that starts it with subprocess.Popen; the shell
# engine's python3 (CPython in WebAssembly) starts no subprocess and says so (docs/fidelity.md, "python3 ... starting a
# subprocess"), so its commands run on the engines with real processes only.
NO_SUBPROCESS = os.environ.get("SPRITZER_EXEC", "shell") in ("shell", "interpreter")
needs_processes = pytest.mark.skipif(
    NO_SUBPROCESS, reason="strands-sprites runs commands through python3's subprocess, which the shell engine's python3 does not run")


async def use_tool(agent, name, **arguments):
    """Runs one tool of the agent as its tool executor does after a model asked for it; returns the ToolResult."""
    tool = agent.tool_registry.registry[name]
    tool_use = {"toolUseId": f"call-{name}", "name": name, "input": arguments}
    result = None
    async for event in tool.stream(tool_use, {"agent": agent}):
        if isinstance(event, ToolResultEvent):
            result = event.tool_result
    assert result is not None, f"{name}({arguments}) gave no result"
    return result


def text_of(result):
    return "".join(block.get("text", "") for block in result["content"])


def ok_text(result, step):
    assert result["status"] == "success", f"{step}: {result}"
    return text_of(result)


async def attached(spritzer, name):
    """A sprite made for the test and an AsyncSpritesClient (control_mode off, as the extension requires)."""
    client = spritzer.async_client()
    await client.create_sprite(name)
    return client, SpritesSandbox(client.sprite(name), working_dir=WORKDIR)


def test_control_mode_client_is_refused(spritzer):
    async def scenario():
        client = spritzer.async_client(control_mode=True)
        try:
            with pytest.raises(ValueError, match="control_mode=False"):
                SpritesSandbox(client.sprite("st-any"), working_dir=WORKDIR)
        finally:
            await client.aclose()

    asyncio.run(scenario())


def test_file_editor_and_files(spritzer):
    async def scenario():
        client, sandbox = await attached(spritzer, "st-files")
        try:
            agent = Agent(sandbox=sandbox)
            assert {"sandbox_file_editor", "sandbox_shell"} <= set(agent.tool_names), agent.tool_names
            spec = agent.tool_registry.registry["sandbox_shell"].tool_spec
            assert 'Runs in Sprite "st-files"' in spec["description"], f"sandbox_shell description: {spec['description']!r}"

            path = f"{WORKDIR}/proj/notes.md"
            created = await use_tool(agent, "sandbox_file_editor", command="create", path=path, file_text="alpha\nbeta\n")
            assert ok_text(created, "create") == f"File created successfully at: {path}"
            again = await use_tool(agent, "sandbox_file_editor", command="create", path=path, file_text="x")
            assert again["status"] == "error" and "File already exists" in text_of(again), f"create over a file: {again}"

            viewed = ok_text(await use_tool(agent, "sandbox_file_editor", command="view", path=path), "view")
            assert viewed == f"Here's the result of running `cat -n` on {path}:\n     1  alpha\n     2  beta\n     3  \n", f"view: {viewed!r}"

            replaced = ok_text(await use_tool(agent, "sandbox_file_editor", command="str_replace", path=path,
                                              old_str="beta", new_str="gamma"), "str_replace")
            assert f"The file {path} has been edited." in replaced, f"str_replace: {replaced!r}"
            ok_text(await use_tool(agent, "sandbox_file_editor", command="insert", path=path, insert_line=0,
                                   new_str="# title"), "insert")
            edited = await sandbox.read_text(path)
            assert edited == "# title\nalpha\ngamma\n", f"file after str_replace and insert: {edited!r}"
            ranged = ok_text(await use_tool(agent, "sandbox_file_editor", command="view", path=path, view_range=[2, 3]), "view range")
            assert ranged.endswith("     2  alpha\n     3  gamma\n"), f"view with view_range [2, 3]: {ranged!r}"

            await sandbox.write_file(f"{WORKDIR}/proj/src/app.py", b"print('app')\n")
            listing = ok_text(await use_tool(agent, "sandbox_file_editor", command="view", path=f"{WORKDIR}/proj"), "view dir")
            assert listing.splitlines()[1:] == ["notes.md", "src", "src/app.py"], f"view of a directory: {listing!r}"

            entries = {e.name: e for e in await sandbox.list_files(f"{WORKDIR}/proj")}
            assert sorted(entries) == ["notes.md", "src"], f"list_files: {entries}"
            assert entries["src"].is_dir and not entries["notes.md"].is_dir, f"list_files directory flags: {entries}"
            assert entries["notes.md"].size == len("# title\nalpha\ngamma\n"), f"list_files size: {entries}"

            # relative paths resolve against working_dir
            relative = await sandbox.read_file("proj/src/app.py")
            assert relative == b"print('app')\n", f"read_file of a path relative to working_dir: {relative!r}"
            big = bytes(range(256)) * 4096
            await sandbox.write_file("blob.bin", big)
            back = await sandbox.read_file(f"{WORKDIR}/blob.bin")
            assert back == big, f"1 MiB round trip: {len(back)} bytes back, first difference at {next((i for i, (a, b) in enumerate(zip(back, big)) if a != b), None)}"

            missing = await use_tool(agent, "sandbox_file_editor", command="view", path=f"{WORKDIR}/nope.txt")
            assert missing["status"] == "error" and "does not exist" in text_of(missing), f"view of a missing file: {missing}"
            with pytest.raises(FileNotFoundError, match="Sprite file not found"):
                await sandbox.read_file("nope.txt")
            await sandbox.remove_file("blob.bin")
            with pytest.raises(FileNotFoundError):
                await sandbox.read_file("blob.bin")

            # a file written through the API belongs to the sprite user; an edit keeps an executable's mode
            sprite = spritzer.client.sprite("st-files")
            await sandbox.write_file("run.sh", b"#!/bin/sh\necho one\n")
            chmod = sprite.run("chmod", "755", f"{WORKDIR}/run.sh", capture_output=True)
            assert chmod.returncode == 0, f"chmod 755 run.sh: {chmod.returncode} {chmod.stderr!r}"
            ok_text(await use_tool(agent, "sandbox_file_editor", command="str_replace", path=f"{WORKDIR}/run.sh",
                                   old_str="one", new_str="two"), "str_replace in run.sh")
            stat = sprite.run("stat", "-c", "%a %U", f"{WORKDIR}/run.sh", f"{WORKDIR}/proj/notes.md", capture_output=True)
            assert stat.stdout.decode().split("\n")[:2] == ["755 sprite", "644 sprite"], f"modes and owners: {stat.stdout!r} {stat.stderr!r}"
        finally:
            await client.aclose()

    asyncio.run(scenario())


@needs_processes
def test_shell_tool_and_commands(spritzer):
    async def scenario():
        client, sandbox = await attached(spritzer, "st-shell")
        try:
            agent = Agent(sandbox=sandbox)
            ran = json.loads(ok_text(await use_tool(agent, "sandbox_shell", command="pwd; echo out; echo err >&2; exit 3"), "shell"))
            assert ran == {"output": f"{WORKDIR}\nout\n", "error": "err\n", "exit_code": 3}, f"sandbox_shell: {ran}"

            # files persist between commands and tools; shell state does not
            json.loads(ok_text(await use_tool(agent, "sandbox_shell", command="mkdir -p made && echo from-shell > made/f.txt && cd /tmp"), "write"))
            made = await sandbox.read_text("made/f.txt")
            assert made == "from-shell\n", f"a file the shell tool wrote, read over the filesystem API: {made!r}"
            again = json.loads(ok_text(await use_tool(agent, "sandbox_shell", command="pwd"), "pwd again"))
            assert again["output"] == f"{WORKDIR}\n", f"pwd after a command that ran cd: {again}"

            placed = await sandbox.execute('pwd; echo "$GREETING"; echo "$HOME"', cwd="/tmp", env={"GREETING": "hi there"})
            assert (placed.exit_code, placed.stdout) == (0, f"/tmp\nhi there\n{WORKDIR}\n"), f"execute with cwd and env: {placed}"
            quoted = await sandbox.execute("printf '%s|' \"a b\" 'c$d' \"$(echo e)\"")
            assert quoted.stdout == "a b|c$d|e|", f"execute with quotes and a substitution: {quoted}"
            bad_dir = await sandbox.execute("true", cwd="/no/such/dir")
            assert bad_dir.exit_code == 1 and "Sprite command could not start" in bad_dir.stderr, f"execute in a missing cwd: {bad_dir}"

            code = await sandbox.execute_code("import sys\nprint(6 * 7)\nprint('warn', file=sys.stderr)", "python3")
            assert (code.exit_code, code.stdout, code.stderr) == (0, "42\n", "warn\n"), f"execute_code python3: {code}"

            chunks = [c async for c in sandbox.execute_streaming("echo one; sleep 0.3; echo two >&2; echo three")]
            assert isinstance(chunks[-1], ExecutionResult), f"execute_streaming ends with its result: {chunks}"
            streamed = [(c.stream_type, c.data) for c in chunks[:-1] if isinstance(c, StreamChunk)]
            assert "".join(d for s, d in streamed if s == "stdout") == "one\nthree\n", f"streamed stdout: {streamed}"
            assert "".join(d for s, d in streamed if s == "stderr") == "two\n", f"streamed stderr: {streamed}"
            assert chunks[-1].stdout == "one\nthree\n" and chunks[-1].stderr == "two\n", f"streamed result: {chunks[-1]}"

            # a deadline the supervisor enforces is a timeout; an ordinary `exit 124` is an exit code
            with pytest.raises(SandboxTimeoutError) as timed_out:
                await sandbox.execute("echo started; sleep 30", timeout=2)
            assert timed_out.value.stdout == "started\n", f"SandboxTimeoutError's partial output: {vars(timed_out.value)}"
            plain = await sandbox.execute("exit 124", timeout=10)
            assert plain.exit_code == 124, f"an ordinary exit 124: {plain}"
            via_tool = await use_tool(agent, "sandbox_shell", command="echo partial; sleep 30", timeout=2)
            assert via_tool["status"] == "error" and '"exit_code": 124' in text_of(via_tool), f"shell tool past its timeout: {via_tool}"
            assert '"output": "partial\\n"' in text_of(via_tool), f"sandbox_shell past its timeout keeps the partial output: {via_tool}"
        finally:
            await client.aclose()

    asyncio.run(scenario())
