"""What a test suite does with the fixtures: create a sprite, run a command, read a file back.

Plain urllib keeps the example runnable without extra packages; with sprites-py, pass
sprites_env["SPRITES_BASE_URL"] and sprites_env["SPRITES_TOKEN"] to its client instead.
"""
import json
import urllib.parse
import urllib.request


def call(env, method, path, body=None, raw=None):
    data = json.dumps(body).encode() if body is not None else raw
    req = urllib.request.Request(env["SPRITES_BASE_URL"] + path, data=data, method=method)
    req.add_header("Authorization", "Bearer " + env["SPRITES_TOKEN"])
    if body is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req) as res:
        return res.status, res.read()


def test_create_exec_and_read_a_file(sprites_env):
    status, body = call(sprites_env, "POST", "/v1/sprites", {"name": "py-demo"})
    assert status == 201
    assert json.loads(body)["name"] == "py-demo"

    query = urllib.parse.urlencode([("cmd", "sh"), ("cmd", "-c"), ("cmd", "echo hi > /tmp/out; cat /tmp/out")])
    status, body = call(sprites_env, "POST", "/v1/sprites/py-demo/exec?" + query, raw=b"")
    assert status == 200
    assert b"hi" in body

    status, body = call(sprites_env, "GET", "/v1/sprites/py-demo/fs/read?path=/tmp/out")
    assert (status, body) == (200, b"hi\n")


def test_each_test_starts_empty(sprites_env):
    status, body = call(sprites_env, "GET", "/v1/sprites")
    assert status == 200
    assert json.loads(body)["sprites"] == []
