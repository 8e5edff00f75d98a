#!/usr/bin/env python3
"""A webhook receiver for cuff-forward's HTTP sink (docs/forwarding.md, "The HTTP sink"), with Python's http.server and
hmac — implementations other than cuff-forward's. Listens on 127.0.0.1 at a free port and prints `listening PORT`.
For each POST it checks `X-Cuffd-Signature` against the HMAC-SHA256 of the body under the key in KEY_FILE (its first
line, read at each request), answers as the next word of the file ANSWERS says (read at each request; the last word
repeats): a status such as `200`, `500`, `400`, or `slow`, which answers 200 only once the client has closed the
connection — after the test's `Timeout=1` gave up, however late that is. Each accepted body (a 2xx, signature good)
is appended to RECEIVED; each request is logged on stdout as `request N: STATUS signature=good|bad lines=K`. With CERT and KEY (PEM), it speaks HTTPS only (Python's ssl).

    webhook_receiver.py KEY_FILE ANSWERS RECEIVED [CERT KEY]
"""
import hashlib
import hmac
import select
import ssl
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

key_file, answers_file, received_file = sys.argv[1:4]
requests = 0


def next_answer():
    with open(answers_file) as answers:
        words = answers.read().split()
    return words[min(requests - 1, len(words) - 1)]


class Receiver(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as libcurl reuses the connection

    def do_POST(self):
        global requests
        requests += 1
        body = self.rfile.read(int(self.headers["Content-Length"]))
        with open(key_file, "rb") as keys:
            key = keys.read().split(b"\n")[0]
        expected = "sha256=" + hmac.new(key, body, hashlib.sha256).hexdigest()
        good = hmac.compare_digest(expected, self.headers.get("X-Cuffd-Signature", ""))
        answer = next_answer()
        if answer == "slow":
            # The slow receiver under test: it answers only once the forwarder has given up on it and closed the
            # connection (its Timeout=1), however long either process is kept off the CPU; a minute at most.
            select.select([self.connection], [], [], 60)
            answer = "200"
        status = int(answer) if good else 401
        reply = b"ok\n" if status < 300 else (b"signature mismatch\n" if not good else b"line 1: refused by the test\nsecond line\n")
        lines = body.count(b"\n")
        # Logged before the body is kept: a test that sees the body in RECEIVED finds its request in the log too.
        print(f"request {requests}: {status} signature={'good' if good else 'bad'} lines={lines}", flush=True)
        if status < 300:
            with open(received_file, "ab") as received:
                received.write(body)
        try:
            self.send_response(status)
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the forwarder gave up waiting (the slow answer)

    def log_message(self, *arguments):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
if len(sys.argv) > 5:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[4], sys.argv[5])
    server.socket = context.wrap_socket(server.socket, server_side=True)
print(f"listening {server.server_address[1]}", flush=True)
server.serve_forever()
