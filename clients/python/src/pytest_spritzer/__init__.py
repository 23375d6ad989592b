"""pytest-spritzer: a `spritzer` fixture that runs a local Sprites API emulator for the tests, and stops it.

See README.md beside pyproject.toml, and docs/testing.md of spritzer.
"""
from .server import SpritzerError, SpritzerServer, resolve_command

__all__ = ["SpritzerError", "SpritzerServer", "resolve_command"]
