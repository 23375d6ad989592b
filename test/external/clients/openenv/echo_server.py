"""A small OpenEnv environment server for the openenv-sprites suite, run inside the sprite by the provider's own
service registration: GET /health, and OpenEnv's /ws protocol (JSON messages `reset`, `step`, `state`, `close`; the
answers `{"type": "observation"|"state", "data": ...}` that openenv's EnvClient parses). Python's standard library
only (the sprite has no openenv installed), with the WebSocket framing of RFC 6455 written out: text frames, masked
from the client, unmasked to it, up to 64 KiB each; ping is answered with pong. It echoes each step's message and
reports the variables the provider passed (env_vars) and the directory it runs in.
Usage: python3 echo_server.py PORT"""
import base64
import hashlib
import json
import os
import socketserver
import struct
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def read_exact(stream, n):
    data = b""
    while len(data) < n:
        chunk = stream.read(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def read_frame(stream):
    head = read_exact(stream, 2)
    opcode, length = head[0] & 0x0F, head[1] & 0x7F
    if length == 126:
        length = struct.unpack(">H", read_exact(stream, 2))[0]
    elif length == 127:
        length = struct.unpack(">Q", read_exact(stream, 8))[0]
    mask = read_exact(stream, 4) if head[1] & 0x80 else b"\0\0\0\0"
    payload = bytes(b ^ mask[i % 4] for i, b in enumerate(read_exact(stream, length)))
    return opcode, payload


def write_frame(stream, opcode, payload):
    n = len(payload)
    head = bytes([0x80 | opcode]) + (bytes([n]) if n < 126 else bytes([126]) + struct.pack(">H", n))
    stream.write(head + payload)
    stream.flush()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path == "/health":
            body = json.dumps({"status": "healthy"}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif self.path == "/ws" and self.headers.get("Upgrade", "").lower() == "websocket":
            accept = base64.b64encode(hashlib.sha1((self.headers["Sec-WebSocket-Key"] + GUID).encode()).digest()).decode()
            self.send_response(101)
            self.send_header("Upgrade", "websocket")
            self.send_header("Connection", "Upgrade")
            self.send_header("Sec-WebSocket-Accept", accept)
            self.end_headers()
            self.wfile.flush()
            self.session()
            self.close_connection = True
        else:
            self.send_error(404)

    def session(self):
        steps = 0
        while True:
            try:
                opcode, payload = read_frame(self.rfile)
            except EOFError:
                return
            if opcode == 0x8:
                write_frame(self.wfile, 0x8, payload[:2])
                return
            if opcode == 0x9:
                write_frame(self.wfile, 0xA, payload)
                continue
            if opcode != 0x1:
                continue
            message = json.loads(payload)
            kind, data = message.get("type"), message.get("data") or {}
            if kind == "reset":
                steps = 0
                reply = {"type": "observation", "data": {"observation": {
                    "echoed_message": "ready", "greeting": os.environ.get("GREETING"), "cwd": os.getcwd()},
                    "reward": 0.0, "done": False}}
            elif kind == "step":
                steps += 1
                text = data.get("message", "")
                reply = {"type": "observation", "data": {"observation": {"echoed_message": text},
                         "reward": float(len(text)), "done": text == "bye"}}
            elif kind == "state":
                reply = {"type": "state", "data": {"step_count": steps}}
            elif kind == "close":
                return
            else:
                reply = {"type": "error", "data": {"message": f"unknown message {kind!r}", "code": "UNKNOWN_TYPE"}}
            write_frame(self.wfile, 0x1, json.dumps(reply).encode())


class Server(socketserver.ThreadingMixIn, HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


if __name__ == "__main__":
    Server(("0.0.0.0", int(sys.argv[1])), Handler).serve_forever()
