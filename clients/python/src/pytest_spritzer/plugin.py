"""The pytest side: options, ini keys, the `spritzer` fixture and the `spritzer_reset` marker.

| ini key / option              | env             | default   | meaning                                          |
|-------------------------------|-----------------|-----------|--------------------------------------------------|
| spritzer_scope / --spritzer-scope | SPRITZER_SCOPE | session  | one server per session, package, module, class or function |
| spritzer_engine / --spritzer-engine | SPRITZER_EXEC | shell  | the server's --exec engine                        |
| spritzer_reset                | SPRITZER_RESET  | false     | POST /_spritzer/reset before every test           |
| spritzer_command / --spritzer-command | SPRITZER_CMD | (found) | the command that starts spritzer (never npx) |
| spritzer_bin                  | SPRITZER_BIN    | (found)   | path of spritzer's bin/spritzer.mjs, run with node |
| spritzer_args                 | SPRITZER_ARGS   |           | more server flags, shell-quoted                  |
| spritzer_startup_timeout      |                 | 60        | seconds to wait for /_spritzer/health            |
"""
from __future__ import annotations

import os
import shlex
from typing import Optional

import pytest

from .server import SpritzerServer, resolve_command

SCOPES = ("session", "package", "module", "class", "function")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("spritzer", "spritzer (local Sprites API emulator)")
    group.addoption("--spritzer-scope", choices=SCOPES, help="lifetime of one spritzer server (default: session)")
    group.addoption("--spritzer-engine", help="spritzer exec engine: shell, interpreter, sandbox, container")
    group.addoption("--spritzer-command", help="command that starts spritzer (default: node .../bin/spritzer.mjs)")
    parser.addini("spritzer_scope", "lifetime of one spritzer server", default="")
    parser.addini("spritzer_engine", "spritzer exec engine", default="")
    parser.addini("spritzer_reset", "reset spritzer before every test", type="bool", default=False)
    parser.addini("spritzer_command", "command that starts spritzer", default="")
    parser.addini("spritzer_bin", "path of spritzer's bin/spritzer.mjs", default="")
    parser.addini("spritzer_args", "more spritzer flags, shell-quoted", default="")
    parser.addini("spritzer_startup_timeout", "seconds to wait for spritzer to be healthy", default="60")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "spritzer_reset: reset spritzer (POST /_spritzer/reset) before this test")


def _setting(config: pytest.Config, name: str, env: str) -> str:
    option = config.getoption(name, default=None) if name in ("spritzer_scope", "spritzer_engine", "spritzer_command") else None
    return option or os.environ.get(env) or config.getini(name) or ""


def _scope(fixture_name: str, config: pytest.Config) -> str:
    scope = _setting(config, "spritzer_scope", "SPRITZER_SCOPE") or "session"
    if scope not in SCOPES:
        raise pytest.UsageError(f"spritzer_scope {scope!r}: one of {', '.join(SCOPES)}")
    return scope


def _reset_each(config: pytest.Config) -> bool:
    env = os.environ.get("SPRITZER_RESET")
    if env is not None:
        return env.lower() in ("1", "true", "yes", "on")
    return bool(config.getini("spritzer_reset"))


@pytest.fixture(scope=_scope)
def spritzer_server(request: pytest.FixtureRequest):
    """The running server for the configured scope; prefer `spritzer`, which also resets when asked."""
    config = request.config
    argv = resolve_command(
        command=_setting(config, "spritzer_command", "SPRITZER_CMD") or None,
        script=_setting(config, "spritzer_bin", "SPRITZER_BIN") or None,
        start_dir=str(config.rootpath),
    )
    server = SpritzerServer(
        argv,
        engine=_setting(config, "spritzer_engine", "SPRITZER_EXEC") or "shell",
        extra_args=shlex.split(_setting(config, "spritzer_args", "SPRITZER_ARGS")),
        startup_timeout=float(config.getini("spritzer_startup_timeout")),
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def spritzer(spritzer_server: SpritzerServer, request: pytest.FixtureRequest) -> SpritzerServer:
    """A running spritzer: `.base_url`, `.token`, `.env`, `.client` (a sprites-py SpritesClient),
    `.async_client()`, `.reset()`, `.requests()`. Reset first when spritzer_reset is on or the test is marked
    `@pytest.mark.spritzer_reset`."""
    if _reset_each(request.config) or request.node.get_closest_marker("spritzer_reset") is not None:
        spritzer_server.reset()
    return spritzer_server
