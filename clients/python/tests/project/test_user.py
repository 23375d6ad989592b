"""What a user writes: sprites-py against the fixture's server. PROJECT_MODE picks how the run ends."""
import os
import time

import pytest


def test_create_exec_and_read(spritzer, probe):
    probe(test="create")
    sprite = spritzer.client.create_sprite("pytest-demo")
    assert sprite.command("sh", "-c", "echo hi > /tmp/out; cat /tmp/out").output() == b"hi\n"
    assert sprite.filesystem("/").path("tmp/out").read_text() == "hi\n"
    mode = os.environ.get("PROJECT_MODE", "pass")
    if mode == "fail":
        assert False, "this test fails on purpose"
    if mode == "hang":
        time.sleep(120)  # interrupted from outside before this ends


@pytest.mark.spritzer_reset
def test_reset_marker_starts_empty(spritzer, probe):
    probe(test="reset")
    assert [s.name for s in spritzer.client.list_all_sprites()] == []
