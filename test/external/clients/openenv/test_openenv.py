"""Fly's OpenEnv provider (openenv-sprites 0.2.0 with openenv), unchanged, against spritzer ($SPRITZER_EXEC):
SpritesProvider's lifecycle as OpenEnv drives it (start_container, wait_for_ready, the EnvClient over the provider's
WebSocket bridge, stop_container), no model: it creates a labelled sprite, registers the environment's server as a
sprite service with an HTTP port, env vars and a directory (reading the service's event stream for its exit),
polls /health through the sprite's URL with the SDK's authenticated client, relays OpenEnv's /ws to the sprite's URL
with the bearer token, and deletes the sprite. One step is not the provider's: its source bootstrap (git clone from an
HTTPS host, uv downloaded from astral.sh, uv sync) needs hosts outside this machine, so a subclass replaces
_bootstrap_source with writing a small stdlib OpenEnv server (echo_server.py) into the project directory over the
sprite's filesystem API (clients.json "unavailable" says so). A server that exits fails the start on every engine;
the lifecycle needs a listener, so it runs on sandbox and container."""
import os
from pathlib import Path

import pytest
from openenv.core.generic_client import GenericEnvClient
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from openenv_sprites import SpritesProvider, SpritesProviderError

SERVER = (Path(__file__).parent / "echo_server.py").read_bytes()

needs_listeners = pytest.mark.skipif(
    os.environ.get("SPRITZER_EXEC", "shell") in ("shell", "interpreter"),
    reason="the environment's server listens on a port; the shell engine runs no listeners (its python3 has no bind)")


class LocalSourceProvider(SpritesProvider):
    """SpritesProvider with the source bootstrap (git clone over HTTPS, uv from astral.sh) replaced by one upload."""

    def _bootstrap_source(self, sprite, source):
        sprite.filesystem("/").path(f"{self.project_dir}/echo_server.py").write_bytes(SERVER)


def provider_for(spritzer, **options):
    return LocalSourceProvider(
        token=spritzer.token, api_base_url=spritzer.base_url, sprite_name_prefix="openenv-test",
        server_command=("python3", "{project_dir}/echo_server.py", "{port}"), **options)


def sprite_names(spritzer):
    return [s.name for s in spritzer.client.list_all_sprites()]


@needs_listeners
def test_environment_lifecycle_over_the_bridge(spritzer):
    provider = provider_for(spritzer)
    with provider:
        base_url = provider.start_container("hf://openenv/echo_env", env_vars={"GREETING": "hello from env_vars"})
        diagnostics = provider.diagnostics
        name = diagnostics["sprite_name"]
        assert base_url.startswith("http://127.0.0.1:"), f"start_container answered {base_url}; diagnostics {diagnostics}"
        sprite = spritzer.client.get_sprite(name)
        assert sprite.labels == ["openenv"], f"labels of the created sprite: {sprite.labels}"
        assert diagnostics["upstream_url"] == sprite.url.rstrip("/"), f"the bridge relays to the sprite's url: {diagnostics}"
        service = sprite.get_service("openenv")
        # (its env and dir are request-only on the wire: the server's reset shows them)
        assert (service.cmd, service.args, service.http_port, service.state.status) == (
            "python3", ["/srv/openenv/echo_server.py", "8000"], 8000, "running"), f"registered service: {service}"

        provider.wait_for_ready(base_url, timeout_s=60)
        after = provider.diagnostics
        assert after["last_health_status"] == 200, f"health check through the sprite url: {after}"

        env = GenericEnvClient(base_url=base_url).sync()
        with env:
            first = env.reset()
            assert first.observation == {"echoed_message": "ready", "greeting": "hello from env_vars", "cwd": "/srv/openenv"}, \
                f"reset through the bridge: {first}"
            stepped = env.step({"message": "hi sprite"})
            assert (stepped.observation, stepped.reward, stepped.done) == ({"echoed_message": "hi sprite"}, 9.0, False), f"step: {stepped}"
            last = env.step({"message": "bye"})
            assert last.done, f"step bye: {last}"
            assert env.state() == {"step_count": 2}, "state"
        # the bridge is what carries the token: the sprite's url (auth "sprite") refuses the same WebSocket without it
        with pytest.raises(InvalidStatus) as refused:
            connect(sprite.url.replace("http://", "ws://").rstrip("/") + "/ws", open_timeout=10).close()
        assert refused.value.response.status_code == 401, f"/ws at the sprite's url without a token: {refused.value.response}"
    assert name not in sprite_names(spritzer), "stop_container deleted the sprite"
    assert provider.diagnostics["sprite_delete_outcome"] == "deleted", f"stop_container: {provider.diagnostics}"


def test_a_server_that_exits_fails_the_start_and_the_sprite_is_deleted(spritzer):
    provider = provider_for(spritzer)
    provider.server_command = ("sh", "-c", "echo 'no such environment' >&2; exit 3")
    with pytest.raises(SpritesProviderError, match="service exited with status 3"):
        provider.start_container("hf://openenv/echo_env")
    diagnostics = provider.diagnostics
    assert diagnostics["failed_stage"] == "service_register", f"failed start: {diagnostics}"
    assert diagnostics["sprite_name"] not in sprite_names(spritzer), "the failed start deleted its sprite"
