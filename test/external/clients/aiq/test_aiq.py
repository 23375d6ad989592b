"""NVIDIA AI-Q's Sprites sandbox (aiq-sandbox-sprites 0.1.1 with deepagents), unchanged, against spritzer
($SPRITZER_EXEC): SpriteSandbox, the LangChain Deep Agents session its provider hands AI-Q for a job, attached to a
sprite carrying the provider's labels, driven as the deep-research agent drives its backend (no model): execute
through its bounded login-shell runner (combined output, exit codes, the in-sprite deadline, head/tail truncation),
Deep Agents' file tools built on it (write, read, edit, ls, grep, glob, delete), per-file upload and download
results over the filesystem API (partial failures, directories, the download byte cap), and close(), which destroys
only a sprite that still carries the job's label. The provider class itself needs AI-Q's aiq_agent package, which
PyPI does not have (clients.json "unavailable")."""
import os

import pytest
from aiq_sprites.sandbox import SpriteOwnershipError, SpriteSandbox

LABEL = "aiq-job-0123456789abcdef01234567"

# SpriteSandbox.execute runs every command through a python3 runner that starts it with subprocess.Popen and drains it
# from a thread; the shell engine's python3 (CPython in WebAssembly) starts neither and says so (docs/fidelity.md).
NO_SUBPROCESS = os.environ.get("SPRITZER_EXEC", "shell") in ("shell", "interpreter")
needs_processes = pytest.mark.skipif(
    NO_SUBPROCESS, reason="aiq-sandbox-sprites runs commands through python3's subprocess and a thread, which the shell engine's python3 does not run")


def session(spritzer, name, *, max_output_bytes=1_000_000, max_download_bytes=50_000_000):
    """What the provider's _create_session builds for a job: a labelled sprite and a session that owns it."""
    spritzer.client.create_sprite(name, labels=["aiq-sandbox", LABEL])
    client = spritzer.sync_client(timeout=30.0)
    return SpriteSandbox(sprite=client.get_sprite(name), client=client, ownership_label=LABEL,
                         max_output_bytes=max_output_bytes, max_download_bytes=max_download_bytes, api_timeout_seconds=30.0)


def names(spritzer):
    return [s.name for s in spritzer.client.list_all_sprites()]


def test_files_and_close(spritzer):
    box = session(spritzer, "aiq-files", max_download_bytes=1000)
    assert box.id == "aiq-files", f"session id: {box.id}"

    uploaded = box.upload_files([
        ("/home/sprite/job/data/input.csv", b"a,b\n1,2\n"),
        ("/home/sprite/job/bin.dat", bytes(range(256))),
        ("/home/sprite/job/data", b"a directory is not a file"),
    ])
    assert [(u.path, u.error) for u in uploaded] == [
        ("/home/sprite/job/data/input.csv", None), ("/home/sprite/job/bin.dat", None), ("/home/sprite/job/data", "is_directory"),
    ], f"upload_files: {uploaded}"

    sized = box.upload_files([("/home/sprite/job/big.txt", b"x" * 1001), ("/home/sprite/job/edge.txt", b"y" * 1000)])
    assert [u.error for u in sized] == [None, None], f"upload_files of 1001 and 1000 bytes: {sized}"
    downloaded = box.download_files([
        "/home/sprite/job/data/input.csv", "/home/sprite/job/bin.dat", "/home/sprite/job/missing.txt",
        "/home/sprite/job/data", "/home/sprite/job/big.txt", "/home/sprite/job/edge.txt",
    ])
    got = [(d.path, d.content, d.error) for d in downloaded]
    assert got == [
        ("/home/sprite/job/data/input.csv", b"a,b\n1,2\n", None),
        ("/home/sprite/job/bin.dat", bytes(range(256)), None),
        ("/home/sprite/job/missing.txt", None, "file_not_found"),
        ("/home/sprite/job/data", None, "is_directory"),
        ("/home/sprite/job/big.txt", None, "file_too_large"),
        ("/home/sprite/job/edge.txt", b"y" * 1000, None),
    ], f"download_files: {got}"

    box.close()
    assert "aiq-files" not in names(spritzer), "close() destroys the job's sprite"
    box.close()  # a second close does nothing

    # a sprite whose ownership label changed is refused, and kept
    other = session(spritzer, "aiq-relabelled")
    spritzer.client.update_sprite("aiq-relabelled", labels=["aiq-sandbox", "someone-else"])
    with pytest.raises(SpriteOwnershipError, match="ownership label changed"):
        other.close()
    assert "aiq-relabelled" in names(spritzer), "close() kept a sprite whose label changed"

    # a sprite already gone counts as cleaned up
    gone = session(spritzer, "aiq-gone")
    spritzer.client.delete_sprite("aiq-gone")
    gone.close()


@needs_processes
def test_execute_and_deep_agents_file_tools(spritzer):
    box = session(spritzer, "aiq-exec", max_output_bytes=4096)
    try:
        ran = box.execute("echo out; echo err >&2; exit 3")
        assert (ran.output, ran.exit_code, ran.truncated) == ("out\nerr\n", 3, False), f"execute: {ran}"
        where = box.execute("pwd; whoami")
        assert (where.output, where.exit_code) == ("/home/sprite\nsprite\n", 0), f"execute pwd/whoami: {where}"

        timed_out = box.execute("echo started; sleep 30", timeout=2)
        assert timed_out.exit_code == 124, f"execute past its timeout: {timed_out}"
        assert timed_out.output == "started\n\nCommand timed out after 2s.\n", f"execute past its timeout: {timed_out}"

        long = box.execute("seq 1 3000")
        assert long.truncated and long.exit_code == 0, f"execute of long output: {long.truncated} {long.exit_code}"
        assert len(long.output.encode()) == 4096, f"bounded to max_output_bytes: {len(long.output)}"
        assert long.output.startswith("1\n2\n3\n") and long.output.endswith("2999\n3000\n"), f"head and tail of the bounded output: {long.output[:40]!r} … {long.output[-40:]!r}"
        assert "\n...[AI-Q Sprites output truncated]...\n" in long.output, f"truncation marker: {long.output!r}"

        # Deep Agents' file tools over execute and the filesystem API
        wrote = box.write("/home/sprite/report/analysis.py", "import math\n# TODO: plot\nprint(math.pi)\n")
        assert (wrote.error, wrote.path) == (None, "/home/sprite/report/analysis.py"), f"write: {wrote}"
        read = box.read("/home/sprite/report/analysis.py")
        assert read.error is None and read.file_data["content"] == "import math\n# TODO: plot\nprint(math.pi)", f"read: {read}"
        assert read.total_lines == 3, f"read: {read}"
        edited = box.edit("/home/sprite/report/analysis.py", "# TODO: plot", "# done")
        assert (edited.error, edited.occurrences) == (None, 1), f"edit: {edited}"
        missing = box.edit("/home/sprite/report/analysis.py", "not there", "x")
        assert missing.error, f"edit of a string that is not there: {missing}"
        ran_it = box.execute("python3 /home/sprite/report/analysis.py")
        assert (ran_it.output, ran_it.exit_code) == ("3.141592653589793\n", 0), f"running the edited script: {ran_it}"

        box.write("/home/sprite/report/notes.md", "pi is done\n")
        listed = box.ls("/home/sprite/report")
        assert listed.error is None and sorted(e["path"] for e in listed.entries) == [
            "/home/sprite/report/analysis.py", "/home/sprite/report/notes.md"], f"ls: {listed}"
        found = box.grep("done", "/home/sprite/report")
        assert sorted((m["path"], m["line"], m["text"]) for m in found.matches) == [
            ("/home/sprite/report/analysis.py", 2, "# done"), ("/home/sprite/report/notes.md", 1, "pi is done")], f"grep: {found}"
        globbed = box.glob("**/*.py", "/home/sprite")
        assert [m["path"] for m in globbed.matches] == ["/home/sprite/report/analysis.py"], f"glob: {globbed}"
        deleted = box.delete("/home/sprite/report/notes.md")
        assert deleted.error is None, f"delete: {deleted}"
        again = box.delete("/home/sprite/report/notes.md")
        assert again.error, f"delete of a file already deleted: {again}"
        after = box.download_files(["/home/sprite/report/notes.md"])
        assert [d.error for d in after] == ["file_not_found"], f"download of the deleted file: {after}"
    finally:
        box.close()
    assert "aiq-exec" not in names(spritzer), f"close() destroys the job's sprite: {names(spritzer)}"
