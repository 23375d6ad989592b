"""LlamaIndex's Sprites tools (llama-index-tools-sprites 0.1.0 with llama-index-core), unchanged, against spritzer
($SPRITZER_EXEC): SpritesToolSpec's five tools, called as a LlamaIndex agent calls them after a model chose them
(FunctionTool.acall with the model's arguments; no model): list with a prefix and pages, create with labels, get,
run_command (argv without a shell, an explicit `bash -lc`, cwd, env, exit codes, stderr, output truncation), delete."""
import asyncio

import pytest
from llama_index.tools.sprites import SpritesToolSpec
from sprites.exceptions import NotFoundError


def run(coro):
    return asyncio.run(coro)


async def call(tools, tool, **arguments):
    """One tool call as LlamaIndex's agent workflow makes it; returns the tool's raw output (its dict)."""
    output = await tools[tool].acall(**arguments)
    assert not output.is_error, f"{tool}({arguments}) failed: {output.content}"
    return output.raw_output


@pytest.fixture
def spec(spritzer):
    spec = SpritesToolSpec(token=spritzer.token, base_url=spritzer.base_url, max_output_chars=256)
    yield spec
    spec.close()


def test_tool_list_and_sprite_lifecycle(spritzer, spec):
    tools = {t.metadata.name: t for t in spec.to_tool_list()}
    assert sorted(tools) == ["create_sprite", "delete_sprite", "get_sprite", "list_sprites", "run_command"], sorted(tools)

    async def scenario():
        empty = await call(tools, "list_sprites", prefix="li-")
        assert empty == {"sprites": [], "has_more": False, "next_continuation_token": None}, f"list before create: {empty}"

        for name in ("li-alpha", "li-beta"):
            created = await call(tools, "create_sprite", name=name, labels=["llamaindex"])
            assert created == {"created": True, "name": name}, f"create_sprite {name}: {created}"

        got = await call(tools, "get_sprite", name="li-alpha")
        assert got["name"] == "li-alpha" and got["id"], f"get_sprite: {got}"
        assert got["labels"] == ["llamaindex"], f"get_sprite labels: {got}"
        assert got["url"].startswith("http"), f"get_sprite url: {got}"
        assert got["status"] in ("cold", "warm", "running"), f"get_sprite status: {got}"
        assert "T" in got["created_at"], f"get_sprite created_at (ISO text): {got}"

        # one sprite a page: the first page says there is more and gives the token of the next
        first = await call(tools, "list_sprites", prefix="li-", max_results=1)
        assert [s["name"] for s in first["sprites"]] == ["li-alpha"] and first["has_more"], f"list page 1: {first}"
        assert first["next_continuation_token"], f"list page 1 token: {first}"
        second = await call(tools, "list_sprites", prefix="li-", max_results=1,
                            continuation_token=first["next_continuation_token"])
        assert [s["name"] for s in second["sprites"]] == ["li-beta"], f"list page 2: {second}"
        everything = await call(tools, "list_sprites", prefix="li-")
        assert [s["name"] for s in everything["sprites"]] == ["li-alpha", "li-beta"], f"list all: {everything}"

        deleted = await call(tools, "delete_sprite", name="li-beta")
        assert deleted == {"deleted": True, "name": "li-beta"}, f"delete_sprite: {deleted}"
        # the agent workflow hands a tool's exception to the model as an error output: here the SDK's NotFoundError
        with pytest.raises(NotFoundError):
            await tools["get_sprite"].acall(name="li-beta")

    run(scenario())
    left = [s.name for s in spritzer.client.list_all_sprites()]
    assert left == ["li-alpha"], f"sprites left after delete_sprite: {left}"


def test_run_command(spritzer, spec):
    tools = {t.metadata.name: t for t in spec.to_tool_list()}

    async def scenario():
        await call(tools, "create_sprite", name="li-runner")

        hello = await call(tools, "run_command", sprite_name="li-runner", command="python3",
                           args=["-c", "print('hello from a Sprite')"])
        assert hello == {"exit_code": 0, "stdout": "hello from a Sprite\n", "stderr": "",
                         "stdout_truncated": False, "stderr_truncated": False}, f"python3 -c: {hello}"

        # argv, no shell: the operators are plain arguments
        literal = await call(tools, "run_command", sprite_name="li-runner", command="echo", args=["a", "|", "$(b)", ">", "c"])
        assert literal["stdout"] == "a | $(b) > c\n", f"echo with operators as arguments: {literal}"

        # a shell only when asked for; a non-zero exit comes back as data, with stderr
        shell = await call(tools, "run_command", sprite_name="li-runner", command="bash",
                           args=["-lc", "printf '%s\\n' hello; echo oops >&2; exit 3"])
        assert (shell["exit_code"], shell["stdout"], shell["stderr"]) == (3, "hello\n", "oops\n"), f"bash -lc: {shell}"

        placed = await call(tools, "run_command", sprite_name="li-runner", command="sh",
                            args=["-c", "pwd; echo \"$GREETING\""], cwd="/tmp", env={"GREETING": "hi there"})
        assert placed["stdout"] == "/tmp\nhi there\n", f"cwd and env: {placed}"

        missing = await call(tools, "run_command", sprite_name="li-runner", command="ls", args=["/no/such/dir"])
        assert missing["exit_code"] == 2 and "No such file or directory" in missing["stderr"], f"ls of a missing dir: {missing}"

        # output past max_output_chars keeps its head and tail around a marker
        long = await call(tools, "run_command", sprite_name="li-runner", command="seq", args=["1", "2000"])
        out = long["stdout"]
        assert long["stdout_truncated"] and len(out) == 256, f"seq 1 2000 truncated to 256 characters: {long}"
        assert out.startswith("1\n2\n3\n") and out.endswith("1999\n2000\n") and "... truncated " in out, f"seq head/tail: {long}"

    run(scenario())
