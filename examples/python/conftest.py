"""pytest fixtures that run spritzer for a test session.

`spritzer` starts `npx spritzer --addr 127.0.0.1:0` (or the command in SPRITZER_CMD), reads the port from the
line it prints when ready ("spritzer listening on http://127.0.0.1:PORT ..."), and stops it at the end.
`sprites_env` gives SPRITES_BASE_URL / SPRITES_TOKEN for an SDK (sprites-py reads them from its arguments).
See docs/testing.md.
"""
import os
import re
import shlex
import subprocess
import urllib.request

import pytest

READY = re.compile(r"spritzer listening on (http://\S+)")


@pytest.fixture(scope="session")
def spritzer():
    """Yields {"base_url", "token"} of a spritzer running for the whole session."""
    token = "pytest-token"
    cmd = shlex.split(os.environ.get("SPRITZER_CMD", "npx spritzer")) + ["--addr", "127.0.0.1:0", "--token", token]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base_url = None
    for line in proc.stdout:  # log lines may come first; the ready line names the URL
        m = READY.search(line)
        if m:
            base_url = m.group(1)
            break
    if base_url is None:
        proc.kill()
        raise RuntimeError(f"spritzer exited before it was ready (exit {proc.wait()})")
    try:
        yield {"base_url": base_url, "token": token}
    finally:
        proc.terminate()
        proc.wait(timeout=15)


@pytest.fixture
def sprites_env(spritzer):
    """Resets spritzer before each test (POST /_spritzer/reset) and gives the SDK's environment."""
    req = urllib.request.Request(
        spritzer["base_url"] + "/_spritzer/reset",
        method="POST",
        headers={"Authorization": "Bearer " + spritzer["token"]},
    )
    urllib.request.urlopen(req).close()
    return {"SPRITES_BASE_URL": spritzer["base_url"], "SPRITES_TOKEN": spritzer["token"]}
