"""The plugin's guarantees, checked from outside: a pytest run of tests/project starts one spritzer, and after a
pass, a failure, Ctrl-C (SIGINT to pytest's process group) or a SIGKILL of pytest, `ps` shows no process of that
server and `ss` no listener on its port."""
import json
import os
import signal
import subprocess
import sys
import time
import urllib.parse

import pytest

from pytest_spritzer import SpritzerError, SpritzerServer, resolve_command

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
ENGINE = os.environ.get("SPRITZER_EXEC", "shell")


def run_project(tmp_path, mode, *args, wait=None):
    """Runs pytest on tests/project in its own session; returns (Popen, probe file)."""
    probe = tmp_path / "probe.jsonl"
    env = {**os.environ, "SPRITZER_PROBE_FILE": str(probe), "PROJECT_MODE": mode,
           "SPRITZER_BIN": os.path.join(REPO, "bin", "spritzer.mjs"), "SPRITZER_EXEC": ENGINE}
    env.pop("SPRITZER_CMD", None)
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *args,
                             os.path.join(HERE, "project")],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    return proc, probe


def probes(path):
    """The servers the project's tests saw, in order (the last line, written at exit, is left out)."""
    lines = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    return [p for p in lines if "pid" in p]


def alive_at_exit(path):
    """The probed server pids still running when pytest unconfigured (after every fixture teardown)."""
    return [p["alive_at_exit"] for p in map(json.loads, path.read_text().splitlines()) if "alive_at_exit" in p]


def wait_for_probe(path, proc, timeout=120):
    deadline = time.monotonic() + timeout
    while not probes(path):
        assert proc.poll() is None, proc.stdout.read()
        assert time.monotonic() < deadline, "the project's test never started"
        time.sleep(0.1)
    return probes(path)[0]


def leftovers(server):
    """What `ps` and `ss` still show of a server: processes of its group or carrying its token, listeners on its port;
    and on the container engine, what `docker ps -a` shows of its namespace's containers."""
    port = urllib.parse.urlsplit(server["base_url"]).port
    ps = subprocess.run(["ps", "-eo", "pid=,pgid=,args="], capture_output=True, text=True, check=True).stdout
    procs = [line.strip() for line in ps.splitlines()
             if line.split()[1] == str(server["pid"]) or server["token"] in line]
    ss = subprocess.run(["ss", "-Hltn", f"sport = :{port}"], capture_output=True, text=True, check=True).stdout
    containers = []
    if ENGINE == "container":
        assert server["namespace"], "a server on the container engine says its namespace"
        names = subprocess.run(["docker", "ps", "-a", "--format", "{{.Names}}"], capture_output=True, text=True,
                               check=True).stdout
        containers = [n for n in names.split() if n.startswith(server["namespace"] + "-")]
    return {"processes": procs, "listeners": [l for l in ss.splitlines() if l.strip()], "containers": containers}


def assert_gone(server, timeout=5):
    """The server is stopped by the time pytest exited; the grace covers only the kernel's reaping of a SIGKILL."""
    deadline = time.monotonic() + timeout
    while (left := leftovers(server)) != {"processes": [], "listeners": [], "containers": []}:
        assert time.monotonic() < deadline, f"left behind: {left}"
        time.sleep(0.1)


def wait_for_sprite_container(server, timeout=60):
    """On the container engine: waits until the test's sprite has its container (so that its removal is tested)."""
    if ENGINE != "container":
        return
    deadline = time.monotonic() + timeout
    while not leftovers(server)["containers"]:
        assert time.monotonic() < deadline, "the test's sprite never got a container"
        time.sleep(0.2)


def test_a_passing_run_leaves_nothing(tmp_path):
    proc, probe = run_project(tmp_path, "pass")
    out = proc.communicate(timeout=300)[0]
    assert proc.returncode == 0, out
    seen = probes(probe)
    assert [p["test"] for p in seen] == ["create", "reset"]
    assert seen[0]["pid"] == seen[1]["pid"], "session scope: one server for both tests"
    assert alive_at_exit(probe) == [[]], "stopped by the fixture's teardown"
    assert_gone(seen[0])


def test_a_failing_run_leaves_nothing(tmp_path):
    proc, probe = run_project(tmp_path, "fail")
    out = proc.communicate(timeout=300)[0]
    assert proc.returncode == 1, out
    assert "this test fails on purpose" in out
    assert alive_at_exit(probe) == [[]], "stopped by the fixture's teardown"
    assert_gone(probes(probe)[0])


def test_ctrl_c_leaves_nothing(tmp_path):
    proc, probe = run_project(tmp_path, "hang")
    server = wait_for_probe(probe, proc)
    time.sleep(1)  # inside the test's sleep
    assert leftovers(server)["listeners"], "the server listens while the test runs"
    wait_for_sprite_container(server)
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does to the foreground group
    out = proc.communicate(timeout=60)[0]
    assert proc.returncode == 2, out  # pytest's "interrupted"
    assert "KeyboardInterrupt" in out
    assert alive_at_exit(probe) == [[]], "stopped by the fixture's teardown"
    assert_gone(server)


def test_a_killed_pytest_takes_the_server_with_it(tmp_path):
    proc, probe = run_project(tmp_path, "hang")
    server = wait_for_probe(probe, proc)
    wait_for_sprite_container(server)
    os.kill(proc.pid, signal.SIGKILL)  # no teardown runs: the server's parent-death signal stops it
    proc.communicate(timeout=60)
    assert_gone(server, timeout=20)


def test_function_scope_gives_each_test_its_own_server(tmp_path):
    proc, probe = run_project(tmp_path, "pass", "-o", "spritzer_scope=function")
    out = proc.communicate(timeout=300)[0]
    assert proc.returncode == 0, out
    seen = probes(probe)
    assert len({p["pid"] for p in seen}) == 2
    assert alive_at_exit(probe) == [[]]
    for server in seen:
        assert_gone(server)


def test_finds_the_installed_package_and_a_checkout_from_below(tmp_path, monkeypatch):
    """`npm install` of the packed tarball puts the command under node_modules/spritzer-emulator; a checkout is the
    directory whose package.json names spritzer-emulator. Either is found from a directory below it."""
    monkeypatch.setenv("PATH", "")
    installed = tmp_path / "project" / "node_modules" / "spritzer-emulator" / "bin" / "spritzer.mjs"
    installed.parent.mkdir(parents=True)
    installed.write_text("")
    (tmp_path / "project" / "tests").mkdir()
    assert resolve_command(start_dir=str(tmp_path / "project" / "tests"))[1:] == [str(installed)]
    checkout = tmp_path / "checkout"
    (checkout / "bin").mkdir(parents=True)
    (checkout / "bin" / "spritzer.mjs").write_text("")
    (checkout / "package.json").write_text(json.dumps({"name": "spritzer-emulator"}))
    assert resolve_command(start_dir=str(checkout / "bin"))[1:] == [str(checkout / "bin" / "spritzer.mjs")]
    (checkout / "package.json").write_text(json.dumps({"name": "spritzer"}))  # npm's unrelated package of that name
    with pytest.raises(SpritzerError, match="npm install --save-dev PATH/spritzer-emulator-"):
        resolve_command(start_dir=str(checkout / "bin"))


def test_npx_is_refused_with_the_reason():
    with pytest.raises(SpritzerError, match="does not pass SIGINT/SIGTERM"):
        resolve_command(command="npx spritzer")


def test_a_server_that_exits_at_once_is_reported_as_such():
    """A spritzer that refuses its flags exits at once: the error says it exited, with its code and its own words,
    and does not claim to have waited the start-up timeout."""
    server = SpritzerServer(["node", os.path.join(REPO, "bin", "spritzer.mjs")], extra_args=["--no-such-flag"])
    started = time.monotonic()
    with pytest.raises(SpritzerError) as err:
        server.start()
    assert time.monotonic() - started < 30
    message = str(err.value)
    assert "exited with 1 before printing its ready line" in message, message
    assert "no-such-flag" in message, message
    assert "within" not in message.splitlines()[0], message
