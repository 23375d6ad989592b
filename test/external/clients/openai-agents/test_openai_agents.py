"""Fly's OpenAI Agents sandbox provider (sprites-openai-agents 0.2.1, with openai-agents 0.22.3), unchanged,
against spritzer ($SPRITZER_EXEC), through the provider's own classes and no model: SpritesSandboxClient creates a
sandbox session, which runs commands, writes and reads workspace files, persists the workspace and hydrates it
into a second session, resolves an exposed port, takes and restores a checkpoint through the SpritesCheckpoints
tools, and shuts down (deleting the sprite it created). The provider talks to the sprite over the control socket."""
import asyncio
import io
import json
import re
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from agents.sandbox.manifest import Manifest
from agents.tool_context import ToolContext
from sprites_openai_agents import SpritesCheckpoints, SpritesSandboxClient, SpritesSandboxClientOptions


async def call_tool(tool, **arguments):
    """Runs a function tool as the agent loop would after a model asked for it (no model involved)."""
    args = json.dumps(arguments)
    ctx = ToolContext(context=None, tool_name=tool.name, tool_call_id="call-1", tool_arguments=args)
    return await tool.on_invoke_tool(ctx, args)


# The provider's default workspace root is /workspace, made with `mkdir -p` as the exec user: the `sprite` user, whose
# exec sessions hold CAP_DAC_OVERRIDE (docs/fidelity.md "Root-level writes"), as on Sprites; a root in the home is
# checked too.
ROOTS = [
    pytest.param(None, id="default-root"),
    pytest.param("/home/sprite/workspace", id="home-root"),
]


@pytest.mark.parametrize("root", ROOTS)
def test_sandbox_session_through_the_provider(spritzer, root):
    manifest = Manifest(root=root) if root else None

    async def scenario():
        client = SpritesSandboxClient(token=spritzer.token, base_url=spritzer.base_url)
        session = await client.create(manifest=manifest, options=SpritesSandboxClientOptions(exposed_ports=(8080,), idle_close_seconds=0))
        sprite_name = session._inner.state.sprite_name
        try:
            await session.start()
            assert await session.running()

            result = await session.exec("echo hello from the sandbox && pwd")
            assert result.ok(), result
            assert result.stdout.decode().splitlines()[0] == "hello from the sandbox"
            failed = await session.exec("exit 7")
            assert failed.exit_code == 7

            await session.write(Path("notes/todo.txt"), io.BytesIO(b"write the tests\n"))
            assert (await session.read(Path("notes/todo.txt"))).read() == b"write the tests\n"
            listed = await session.exec("cat notes/todo.txt")
            assert listed.stdout == b"write the tests\n"

            archive = await session.persist_workspace()
            data = archive.read()
            assert len(data) > 0

            # a port a service of the sprite serves is exposed at the sprite's URL
            sprite = session._inner._sprite
            list(sprite.create_service("web", "python3", ["-m", "http.server", "8080"], http_port=8080, duration=0))
            endpoint = await session.resolve_exposed_port(8080)
            # The provider keeps only the host and port of the sprite's url. By default that url is a port of the
            # sprite's own on spritzer's address (docs/fidelity.md "Sprite URL: address"), so the endpoint names the
            # sprite itself, not spritzer's API.
            req = urllib.request.Request(f"{spritzer.base_url}/v1/sprites/{sprite.name}", headers={"Authorization": f"Bearer {spritzer.token}"})
            with urllib.request.urlopen(req) as res:
                url = urlsplit(json.load(res)["url"])
            assert (endpoint.host, endpoint.port) == (url.hostname, url.port), endpoint
            assert endpoint.port != urlsplit(spritzer.base_url).port, endpoint

            # checkpoint, change, restore: the provider's tools, invoked as the agent loop would
            capability = SpritesCheckpoints(allow_restore=True)
            capability.bind(session)
            tools = {t.name: t for t in capability.tools()}
            created = await call_tool(tools["create_sprite_checkpoint"], comment="before edit")
            match = re.match(r"checkpoint created: id='([^']+)', comment='before edit'", created)
            assert match, created
            checkpoint_id = match.group(1)
            listed_cps = await call_tool(tools["list_sprite_checkpoints"])
            assert f"- {checkpoint_id} " in listed_cps and ": before edit" in listed_cps, listed_cps
            await session.write(Path("notes/todo.txt"), io.BytesIO(b"changed\n"))
            restored = await call_tool(tools["restore_sprite_checkpoint"], checkpoint_id=checkpoint_id)
            assert restored == f"restored checkpoint {checkpoint_id!r}", restored
            assert (await session.read(Path("notes/todo.txt"))).read() == b"write the tests\n"
            transports = {(r["path"].split("?")[0].rsplit("/", 1)[-1], r["status"]) for r in spritzer.requests()
                          if r["path"].startswith(f"/v1/sprites/{sprite_name}/") and r["kind"] == "ws"}
            assert ("control", 101) in transports, transports
        finally:
            await session.shutdown()
        assert sprite_name not in [s.name for s in spritzer.client.list_all_sprites()], "shutdown deleted the sprite"

        # hydrate the persisted workspace into a fresh session
        second = await client.create(manifest=manifest, options=SpritesSandboxClientOptions(idle_close_seconds=0))
        try:
            await second.start()
            await second.hydrate_workspace(io.BytesIO(data))
            assert (await second.read(Path("notes/todo.txt"))).read() == b"write the tests\n"
        finally:
            await second.shutdown()

    asyncio.run(scenario())
