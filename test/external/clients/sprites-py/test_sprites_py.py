"""sprites-py 0.7.2, unchanged, against spritzer (the engine is $SPRITZER_EXEC): what an app does with a sprite,
through the SDK's sync client and its async client, each with control_mode off and on. With control_mode on, the
SDK multiplexes exec and filesystem calls over one WebSocket to /control; the request log shows which was used."""
import asyncio

import pytest
import sprites

CONTROL = [pytest.param(False, id="control-off"), pytest.param(True, id="control-on")]


def assert_used_control(spritzer, name):
    """The request log shows the control socket upgraded (101) and no exec on a WebSocket of its own (each run
    uses a sprite name of its own, so the log tells the runs apart)."""
    log = [r for r in spritzer.requests() if r.get("path", "").startswith(f"/v1/sprites/{name}/")]
    control = [r for r in log if r["path"].startswith(f"/v1/sprites/{name}/control")]
    assert control and all(r["status"] == 101 for r in control), [(r["path"], r["status"]) for r in control]
    assert not [r["path"] for r in log if r["path"].startswith(f"/v1/sprites/{name}/exec")], "exec went over /control"


@pytest.mark.parametrize("control_mode", CONTROL)
def test_sync_client_lifecycle(spritzer, control_mode):
    client = spritzer.sync_client(control_mode=control_mode)
    name = f"py-sync-{'on' if control_mode else 'off'}"  # a name of its own, so the request log tells the runs apart
    sprite = client.create_sprite(name)
    assert client.get_sprite(name).name == name
    assert [s.name for s in client.list_all_sprites()] == [name]

    # exec: output, exit status, env and working directory, stdin
    assert sprite.command("echo", "hello").output() == b"hello\n"
    with pytest.raises(sprites.ExecError) as failed:
        sprite.command("sh", "-c", "echo oops >&2; exit 3").output()
    assert failed.value.exit_code() == 3
    done = sprite.run("sh", "-c", 'echo "$GREETING from $(pwd)"', env={"GREETING": "hi"}, cwd="/tmp", capture_output=True)
    assert (done.returncode, done.stdout) == (0, b"hi from /tmp\n")

    # filesystem: write, read, list, stat, rename, delete
    fs = sprite.filesystem("/home/sprite")
    (fs / "app").mkdir(parents=True, exist_ok=True)
    (fs / "app" / "config.json").write_text('{"debug": true}')
    assert (fs / "app" / "config.json").read_text() == '{"debug": true}'
    assert sorted((fs / "app").listdir()) == ["config.json"]
    assert (fs / "app" / "config.json").stat().size == 15
    (fs / "app" / "config.json").rename(fs / "app" / "settings.json")
    assert sprite.command("cat", "/home/sprite/app/settings.json").output() == b'{"debug": true}'
    (fs / "app" / "settings.json").unlink()
    assert not (fs / "app" / "settings.json").exists()

    # checkpoint and restore: a file written after the checkpoint is gone after the restore
    sprite.command("sh", "-c", "echo before > /home/sprite/state").run()
    messages = list(sprite.create_checkpoint("before the change"))
    assert messages, "the checkpoint stream says something"
    checkpoint = next(c for c in sprite.list_checkpoints() if c.comment == "before the change")
    sprite.command("sh", "-c", "echo after > /home/sprite/state").run()
    list(sprite.restore_checkpoint(checkpoint.id))
    assert sprite.command("cat", "/home/sprite/state").output() == b"before\n"

    # services and network policy
    list(sprite.create_service("ticker", "sh", ["-c", "while true; do echo tick; sleep 1; done"], duration=0))
    assert [s.name for s in sprite.list_services()] == ["ticker"]
    list(sprite.stop_service("ticker"))
    sprite.delete_service("ticker")
    assert sprite.list_services() == []
    sprite.update_network_policy(sprites.NetworkPolicy(rules=[sprites.PolicyRule(domain="example.com", action="allow")]))
    assert [r.domain for r in sprite.get_network_policy().rules] == ["example.com"]

    if control_mode:
        assert_used_control(spritzer, name)
    client.delete_sprite(name)
    with pytest.raises(sprites.NotFoundError):
        client.get_sprite(name)


@pytest.mark.parametrize("control_mode", CONTROL)
def test_async_client_lifecycle(spritzer, control_mode):
    async def scenario():
        client = spritzer.async_client(control_mode=control_mode)
        name = f"py-async-{'on' if control_mode else 'off'}"
        try:
            sprite = await client.create_sprite(name)
            assert await sprite.command("sh", "-c", "echo async; echo err >&2").output() == b"async\n"
            results = await asyncio.gather(*(sprite.command("sh", "-c", f"echo {i}").output() for i in range(4)))
            assert results == [f"{i}\n".encode() for i in range(4)]
            fs = sprite.filesystem("/tmp")
            await (fs / "a.txt").write_text("from async")
            assert await (fs / "a.txt").read_text() == "from async"
            await (fs / "a.txt").write_text("checkpointed")
            assert list(await sprite.create_checkpoint("async")), "the checkpoint stream says something"
            checkpoint = next(c for c in await sprite.list_checkpoints() if c.comment == "async")
            await (fs / "a.txt").write_text("changed")
            list(await sprite.restore_checkpoint(checkpoint.id))
            assert await (fs / "a.txt").read_text() == "checkpointed"
            assert [s.name for s in await client.list_all_sprites()] == [name]
            if control_mode:
                assert_used_control(spritzer, name)
            await client.delete_sprite(name)
        finally:
            await client.aclose()

    asyncio.run(scenario())
