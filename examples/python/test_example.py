"""What a test suite does with the pytest-spritzer plugin (pip install 'pytest-spritzer[sprites]', from
clients/python of spritzer): the `spritzer` fixture gives a running server and a sprites-py client for it."""


def test_create_exec_and_read_a_file(spritzer):
    sprite = spritzer.client.create_sprite("py-demo")
    assert sprite.command("sh", "-c", "echo hi > /tmp/out; cat /tmp/out").output() == b"hi\n"
    assert sprite.filesystem("/").path("tmp/out").read_text() == "hi\n"


def test_each_test_starts_empty(spritzer):
    assert spritzer.client.list_all_sprites() == []
