"""Google ADK's Sprites plugin (sprites-adk 0.2.0 with google-adk 2.13.0), unchanged, against spritzer
($SPRITZER_EXEC): its seven tools, invoked as ADK's runner would after a model asked for them (no model), and the
checkpoint flow they give an agent: write, checkpoint, change, list, restore (refused without confirm), read back;
close() destroys the sprite the plugin created."""
import asyncio

from sprites_adk import SpritesPlugin


def test_tools_and_checkpoint_flow(spritzer):
    async def scenario():
        plugin = SpritesPlugin(token=spritzer.token, base_url=spritzer.base_url)
        tools = {t.name: t for t in plugin.get_tools()}
        assert sorted(tools) == sorted([
            "execute_command_in_sprite", "execute_code_in_sprite", "write_file_to_sprite", "read_file_from_sprite",
            "create_sprite_checkpoint", "list_sprite_checkpoints", "restore_sprite_checkpoint"])

        async def call(name, **args):
            return await tools[name].run_async(args=args, tool_context=None)

        try:
            ran = await call("execute_command_in_sprite", command="echo hi; echo err >&2; exit 2", cwd="/tmp")
            assert (ran["success"], ran["exit_code"], ran["stdout"], ran["stderr"]) == (False, 2, "hi\n", "err\n")
            code = await call("execute_code_in_sprite", language="python", code="print(6 * 7)")
            assert code["success"] and code["stdout"].strip() == "42", code

            wrote = await call("write_file_to_sprite", path="/home/sprite/plan.md", content="step 1\n")
            assert wrote == {"success": True, "path": "/home/sprite/plan.md", "bytes_written": 7}
            assert (await call("read_file_from_sprite", path="/home/sprite/plan.md"))["content"] == "step 1\n"

            checkpoint = await call("create_sprite_checkpoint", comment="plan v1")
            assert checkpoint["success"] and checkpoint["checkpoint_id"], checkpoint
            await call("write_file_to_sprite", path="/home/sprite/plan.md", content="step 2\n")
            listed = await call("list_sprite_checkpoints")
            assert [c["comment"] for c in listed["checkpoints"] if c["checkpoint_id"] == checkpoint["checkpoint_id"]] == ["plan v1"]

            refused = await call("restore_sprite_checkpoint", checkpoint_id=checkpoint["checkpoint_id"])
            assert refused["success"] is False and "confirm" in refused["error"]
            restored = await call("restore_sprite_checkpoint", checkpoint_id=checkpoint["checkpoint_id"], confirm=True)
            assert restored == {"success": True, "checkpoint_id": checkpoint["checkpoint_id"], "restored": True}
            assert (await call("read_file_from_sprite", path="/home/sprite/plan.md"))["content"] == "step 1\n"
        finally:
            await plugin.close()
        assert plugin.sprite_name not in [s.name for s in spritzer.client.list_all_sprites()]

    asyncio.run(scenario())
