"""Start and stop one spritzer server process, for any Python test runner (pytest uses it through plugin.py).

The server runs as `node <spritzer>/bin/spritzer.mjs --addr 127.0.0.1:0 ...` in a process group of its own, so
that stopping it stops everything it started. `npx` is refused: it neither obeys SIGINT/SIGTERM nor passes them
on, so a server started through it outlives the test run.
See docs/testing.md of spritzer for the options of the server itself.
"""
from __future__ import annotations

import atexit
import collections
import ctypes
import json
import os
import re
import secrets
import shlex
import shutil
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request
from typing import Any, Deque, Dict, List, Optional, Sequence

READY = re.compile(r"spritzer listening on (http://\S+)")
# The npm package that holds the `spritzer` command (`spritzer` on npm is an unrelated package).
PACKAGE = "spritzer-emulator"
# How to install it before it is published: pack a checkout, install the tarball.
INSTALL = ("npm ci && npm pack in a checkout of spritzer, then npm install --save-dev PATH/spritzer-emulator-*.tgz: "
           "the package spritzer-emulator, found under node_modules/")
_RUNNING: "set[SpritzerServer]" = set()


class SpritzerError(RuntimeError):
    """spritzer could not be found, started, reset or stopped; the message says why and what to change."""


def _spritzer_script_in(directory: str) -> Optional[str]:
    """`<dir>/node_modules/spritzer-emulator/bin/spritzer.mjs` (the npm package spritzer-emulator), or
    `<dir>/bin/spritzer.mjs` in a checkout of spritzer (its package.json names spritzer-emulator)."""
    installed = os.path.join(directory, "node_modules", PACKAGE, "bin", "spritzer.mjs")
    if os.path.isfile(installed):
        return installed
    own = os.path.join(directory, "bin", "spritzer.mjs")
    package = os.path.join(directory, "package.json")
    if os.path.isfile(own) and os.path.isfile(package):
        try:
            with open(package, encoding="utf-8") as f:
                if json.load(f).get("name") == PACKAGE:
                    return own
        except (OSError, ValueError):
            return None
    return None


def resolve_command(command: Optional[str] = None, script: Optional[str] = None, start_dir: Optional[str] = None) -> List[str]:
    """The argv that starts spritzer, without the listen, token and engine flags.

    In order: `command` (a shell-quoted command line, e.g. from SPRITZER_CMD), `script` (a path to
    bin/spritzer.mjs, run with `node`, or SPRITZER_NODE), the first `node_modules/spritzer-emulator` (or spritzer checkout)
    found from `start_dir` upwards, then a `spritzer` on PATH (its link resolved and run with node).
    Raises SpritzerError when none is found, or when the command goes through npx.
    """
    node = os.environ.get("SPRITZER_NODE", "node")
    if command:
        argv = shlex.split(command)
        if argv and os.path.basename(argv[0]) in ("npx", "npm"):
            raise SpritzerError(
                f"spritzer command {command!r} goes through {argv[0]}, which does not pass SIGINT/SIGTERM on, so the "
                "server would outlive the tests; give `node <path>/bin/spritzer.mjs` (spritzer_command) or the "
                "script's path (spritzer_bin / SPRITZER_BIN) instead")
        return argv
    if script:
        if not os.path.isfile(script):
            raise SpritzerError(f"spritzer script {script!r} (spritzer_bin / SPRITZER_BIN) does not exist")
        return [node, os.path.abspath(script)]
    directory = os.path.abspath(start_dir or os.getcwd())
    while True:
        found = _spritzer_script_in(directory)
        if found:
            return [node, found]
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    on_path = shutil.which("spritzer")
    if on_path:
        real = os.path.realpath(on_path)
        return [node, real] if real.endswith((".mjs", ".js")) else [real]
    raise SpritzerError(
        f"spritzer not found: install it ({INSTALL}) or set SPRITZER_BIN to its bin/spritzer.mjs, or SPRITZER_CMD "
        "to the command that starts it")


def _die_with_parent() -> None:
    """In the child, before exec: receive SIGTERM if the test process dies without stopping us (Linux only)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class SpritzerServer:
    """One spritzer process: `start()` returns once `GET /_spritzer/health` answers 200; `stop()` ends its group.

    Attributes once started: `base_url` (e.g. `http://127.0.0.1:40123`, what SPRITES_BASE_URL holds), `token`
    (the bearer token the server requires), `pid` (also the process group id), `env` (SPRITES_BASE_URL and
    SPRITES_TOKEN), `namespace` (on the container engine, the prefix of its containers' names; else None). `log`
    holds the server's last 200 output lines, for error messages.
    """

    def __init__(self, argv: Sequence[str], engine: str = "shell", token: Optional[str] = None,
                 extra_args: Sequence[str] = (), startup_timeout: float = 60.0, stop_timeout: float = 15.0,
                 env: Optional[Dict[str, str]] = None):
        self.argv = list(argv)
        self.engine = engine
        self.token = token or f"spritzer-pytest-{secrets.token_hex(8)}"
        self.extra_args = list(extra_args)
        self.startup_timeout = startup_timeout
        self.stop_timeout = stop_timeout
        self.env_overrides = dict(env or {})
        self.base_url: Optional[str] = None
        self.namespace: Optional[str] = None
        self.log: Deque[str] = collections.deque(maxlen=200)
        self._proc: Optional[subprocess.Popen] = None
        self._ready = threading.Event()
        self._clients: List[Any] = []

    @property
    def pid(self) -> Optional[int]:
        return self._proc.pid if self._proc else None

    @property
    def env(self) -> Dict[str, str]:
        return {"SPRITES_BASE_URL": self.base_url or "", "SPRITES_TOKEN": self.token}

    def _drain(self) -> None:
        assert self._proc and self._proc.stdout
        for line in self._proc.stdout:
            self.log.append(line.rstrip("\n"))
            if self.base_url is None:
                m = READY.search(line)
                if m:
                    self.base_url = m.group(1)
                    self._ready.set()
        self._ready.set()  # exited: wake start() so it reports the exit

    def start(self) -> "SpritzerServer":
        """Starts the server on a free loopback port. Raises SpritzerError, after stopping it, if it is not healthy
        within `startup_timeout` seconds or exits first (the message carries its last output lines)."""
        argv = self.argv + ["--addr", "127.0.0.1:0", "--token", self.token, "--exec", self.engine] + self.extra_args
        argv += self._namespace_args()
        main_thread = threading.current_thread() is threading.main_thread()
        try:
            self._proc = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                errors="replace", start_new_session=True, env={**os.environ, **self.env_overrides},
                preexec_fn=_die_with_parent if main_thread else None)
        except OSError as e:
            raise SpritzerError(f"cannot start spritzer ({shlex.join(argv)}): {e}") from e
        _RUNNING.add(self)
        threading.Thread(target=self._drain, name="spritzer-log", daemon=True).start()
        deadline = time.monotonic() + self.startup_timeout
        try:
            self._ready.wait(self.startup_timeout)
            if self.base_url is None:
                # The log thread also wakes start() when the server's output ends: it exited (or is exiting).
                try:
                    code = self._proc.wait(2)
                except subprocess.TimeoutExpired:
                    raise SpritzerError(self._failure("did not print its ready line", timed=True)) from None
                raise SpritzerError(self._failure(f"exited with {code} before printing its ready line"))
            while True:
                if self._proc.poll() is not None:
                    raise SpritzerError(self._failure(f"exited with {self._proc.returncode}"))
                try:
                    with urllib.request.urlopen(self.base_url + "/_spritzer/health", timeout=2) as res:
                        if res.status == 200:
                            return self
                except (urllib.error.URLError, OSError):
                    pass
                if time.monotonic() > deadline:
                    raise SpritzerError(self._failure("did not answer /_spritzer/health", timed=True))
                time.sleep(0.05)
        except BaseException:
            self.stop()
            raise

    def _namespace_args(self) -> List[str]:
        """On the container engine sprites outlive a server and the next one of the same namespace adopts them
        (spritzer's docs/container.md "Restarts"). A test server's sprites end with it (`--ephemeral`, also when the
        test process dies and the kernel sends the server SIGTERM), and it gets a namespace of its own, so that servers
        started one after another or side by side on one Docker daemon never see each other's sprites; unless the
        caller chose a namespace (`--namespace` among the extra arguments, or SPRITZER_NAMESPACE)."""
        if self.engine != "container":
            return []
        for i, a in enumerate(self.extra_args):
            if a == "--namespace" and i + 1 < len(self.extra_args):
                self.namespace = self.extra_args[i + 1]
                return ["--ephemeral"]
            if a.startswith("--namespace="):
                self.namespace = a.split("=", 1)[1]
                return ["--ephemeral"]
        chosen = self.env_overrides.get("SPRITZER_NAMESPACE", os.environ.get("SPRITZER_NAMESPACE"))
        self.namespace = chosen or f"spritzer-test-{secrets.token_hex(4)}"
        return ["--ephemeral"] + ([] if chosen else ["--namespace", self.namespace])

    def _failure(self, what: str, timed: bool = False) -> str:
        """The message of a failed start: what happened (`timed`: within the start-up timeout), then the server's
        last 30 lines of output."""
        tail = "\n".join(list(self.log)[-30:])
        within = f" within {self.startup_timeout:g} s" if timed else ""
        return f"spritzer ({shlex.join(self.argv)} --exec {self.engine}) {what}{within}:\n{tail}"

    def reset(self) -> None:
        """Forgets every sprite, session, service and fault rule (POST /_spritzer/reset, 204)."""
        req = urllib.request.Request(self.base_url + "/_spritzer/reset", method="POST",
                                     headers={"Authorization": "Bearer " + self.token})
        try:
            with urllib.request.urlopen(req, timeout=30) as res:
                if res.status != 204:
                    raise SpritzerError(f"spritzer reset answered {res.status}")
        except urllib.error.HTTPError as e:
            raise SpritzerError(f"spritzer reset answered {e.code}: {e.read()[:500]!r}") from e

    def requests(self) -> List[Dict[str, Any]]:
        """The inspector's request log (GET /_spritzer/requests), newest first."""
        req = urllib.request.Request(self.base_url + "/_spritzer/requests",
                                     headers={"Authorization": "Bearer " + self.token})
        with urllib.request.urlopen(req, timeout=30) as res:
            return json.load(res)["requests"]

    @property
    def client(self):
        """A `sprites.SpritesClient` for this server (sprites-py; `pip install sprites-py`)."""
        if not self._clients:
            self._clients.append(self.sync_client())
        return self._clients[0]

    def sync_client(self, **options: Any):
        """A new `sprites.SpritesClient(token, base_url=..., **options)`, closed by `stop()`."""
        sprites = _import_sprites()
        c = sprites.SpritesClient(self.token, base_url=self.base_url, **options)
        self._clients.append(c)
        return c

    def async_client(self, **options: Any):
        """A new `sprites.AsyncSpritesClient(token, base_url=..., **options)`; the caller closes it (in its loop)."""
        return _import_sprites().AsyncSpritesClient(self.token, base_url=self.base_url, **options)

    def stop(self) -> None:
        """SIGTERM to the server's process group, SIGKILL to what is left after `stop_timeout` s (and to any
        member of the group still there once the server exited). Safe to call twice."""
        for c in self._clients:
            try:
                c.close()
            except Exception:  # a client of a server that is going away may fail to close; nothing is leaked by it
                pass
        self._clients.clear()
        proc = self._proc
        if proc is None:
            return
        pgid = proc.pid
        if proc.poll() is None:
            _signal_group(pgid, signal.SIGTERM)
            try:
                proc.wait(self.stop_timeout)
            except subprocess.TimeoutExpired:
                _signal_group(pgid, signal.SIGKILL)
                proc.wait()
        _signal_group(pgid, signal.SIGKILL)  # whatever the server started in its group and left behind
        if proc.stdout:
            proc.stdout.close()
        _RUNNING.discard(self)

    def __enter__(self) -> "SpritzerServer":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _import_sprites():
    try:
        import sprites  # type: ignore[import-not-found]
    except ImportError as e:
        raise SpritzerError("spritzer.client needs sprites-py: pip install sprites-py "
                            "(or install this plugin with its extra: pip install 'PATH/clients/python[sprites]')") from e
    return sprites


@atexit.register
def _stop_all() -> None:
    for server in list(_RUNNING):
        server.stop()
