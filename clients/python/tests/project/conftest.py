"""A user's project for the plugin's own tests: each test records the server it got in $SPRITZER_PROBE_FILE."""
import json
import os

import pytest


@pytest.fixture
def probe(spritzer):
    def write(**extra):
        with open(os.environ["SPRITZER_PROBE_FILE"], "a") as f:
            f.write(json.dumps({"pid": spritzer.pid, "base_url": spritzer.base_url, "token": spritzer.token,
                                "namespace": spritzer.namespace, **extra}) + "\n")
    return write


def pytest_unconfigure(config):
    """Runs after every fixture's teardown, before pytest exits: records which probed servers still run, so the
    plugin's tests tell the fixture's own stop from the parent-death signal that backs it up."""
    path = os.environ.get("SPRITZER_PROBE_FILE")
    if not path or not os.path.exists(path):
        return
    alive = []
    with open(path) as f:
        for line in f:
            pid = json.loads(line).get("pid")
            try:
                os.kill(pid, 0)
                alive.append(pid)
            except (ProcessLookupError, TypeError):
                pass
    with open(path, "a") as f:
        f.write(json.dumps({"alive_at_exit": alive}) + "\n")
