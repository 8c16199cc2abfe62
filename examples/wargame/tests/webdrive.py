"""Drives `wargame serve` and headless Chromium from the Python standard library.

The server is started with --port 0 (it prints its links); Chromium is driven
over the DevTools protocol on a WebSocket (a minimal RFC 6455 client below).
Nothing is downloaded: Chromium is Debian's `chromium` package.
"""

import base64
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import tempfile
import time
import urllib.request

SKIP = 77  # ctest SKIP_RETURN_CODE
TIMEOUT = 60.0  # seconds for any one wait (generous: the machine may be busy)


def stop(proc):
    """Ends a process this module started: SIGTERM, then SIGKILL after 10 s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class Server:
    """`wargame serve ARGS --port 0`; .links maps a side name to its URL."""

    def __init__(self, wargame, args):
        port = [] if "--port" in args else ["--port", "0"]
        self.proc = subprocess.Popen([wargame, "serve", *args, *port, "--ai-delay", "50"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.links = {}
        self.base = None
        deadline = time.time() + TIMEOUT
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("wargame serve ended: " + self.proc.stderr.read())
            m = re.match(r"serving on (http://[0-9.]+:\d+)/", line)
            if m:
                self.base = m.group(1)
            m = re.match(r"(.+): (http://\S+\?token=([0-9a-f]+))$", line.strip())
            if m:
                self.links[m.group(1)] = m.group(2)
                if len(self.links) == self.expected_links(args):
                    return
        raise RuntimeError("wargame serve printed no links")

    @staticmethod
    def expected_links(args):
        players = args[args.index("--players") + 1] if "--players" in args else "human,ai"
        kinds = players.split(",")
        return kinds.count("remote") + (1 if "human" in kinds else 0)

    def token(self, who):
        return self.links[who].rsplit("=", 1)[1]

    def http(self, path, body=None, method=None):
        """(status, text) of a request; never raises on an HTTP error status."""
        req = urllib.request.Request(self.base + path, data=body.encode() if isinstance(body, str) else body,
                                     method=method)
        try:
            with urllib.request.urlopen(req, timeout=TIMEOUT) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def state(self, who):
        status, text = self.http("/api/state?token=" + self.token(who))
        assert status == 200, (status, text)
        return json.loads(text)

    def message(self, who, msg):
        status, text = self.http("/api?token=" + self.token(who), json.dumps(msg), "POST")
        assert status == 200, (status, text)
        return json.loads(text)

    def alive(self):
        return self.proc.poll() is None

    def close(self):
        stop(self.proc)
        self.proc.stdout.close()
        self.proc.stderr.close()


class WebSocket:
    """A minimal client WebSocket (text frames, client masking, no extensions)."""

    def __init__(self, url, timeout=TIMEOUT):
        m = re.match(r"ws://([^/:]+):(\d+)(/.*)", url)
        host, port, path = m.group(1), int(m.group(2)), m.group(3)
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            head += chunk
        head, self.rest = head.split(b"\r\n\r\n", 1)
        self.status = int(head.split(b" ")[1])
        if self.status != 101:
            raise ConnectionError("handshake refused: " + head.decode(errors="replace"))

    def _read(self, n):
        while len(self.rest) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.rest += chunk
        out, self.rest = self.rest[:n], self.rest[n:]
        return out

    def send_frame(self, payload, opcode=1, fin=True, length_override=None):
        n = len(payload) if length_override is None else length_override
        head = bytes([(0x80 if fin else 0) | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + body)

    def send(self, text):
        self.send_frame(text.encode() if isinstance(text, str) else text)

    def recv(self):
        data = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(n)
            opcode = b0 & 0x0F
            if opcode == 8:
                raise ConnectionError("closed by the peer")
            if opcode == 9:  # ping
                continue
            data += payload
            if b0 & 0x80:
                return data.decode()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """Headless Chromium with a fresh profile; .page(url) opens a tab."""

    def __init__(self, chromium):
        self.profile = tempfile.mkdtemp(prefix="wargame_chromium_")
        self.proc = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-dev-shm-usage", "--user-data-dir=" + self.profile, "--remote-debugging-port=0",
             "--window-size=1600,1000", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + TIMEOUT
        self.port = None
        while time.time() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                raise RuntimeError("chromium ended before DevTools was listening")
            m = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            if m:
                self.port = int(m.group(1))
                break
        if not self.port:
            raise RuntimeError("chromium printed no DevTools address")

    def page(self, url):
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}/json/new?{url}", method="PUT")
        with urllib.request.urlopen(req, timeout=TIMEOUT) as r:
            target = json.loads(r.read().decode())
        return Page(target["webSocketDebuggerUrl"])

    def close(self):
        stop(self.proc)
        self.proc.stderr.close()
        shutil.rmtree(self.profile, ignore_errors=True)


class Page:
    """One tab: evaluate JavaScript, wait for a condition, take a screenshot."""

    def __init__(self, ws_url):
        self.ws = WebSocket(ws_url)
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        my_id = self.next_id
        self.ws.send(json.dumps({"id": my_id, "method": method, "params": params}))
        while True:
            m = json.loads(self.ws.recv())
            if m.get("id") == my_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m["result"]

    def js(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"JavaScript error in {expr!r}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def wait(self, expr, what=None):
        deadline = time.time() + TIMEOUT
        error = ""
        while time.time() < deadline:
            try:
                v = self.js(expr)
                if v:
                    return v
            except RuntimeError as e:  # the page is still loading
                error = str(e)
            time.sleep(0.05)
        raise AssertionError("timed out waiting for " + (what or expr) + (" (" + error[:300] + ")" if error else ""))

    def click(self, selector):
        """A click on the element, as the page's own handlers receive it."""
        ok = self.js(f"(() => {{ const e = document.querySelector({json.dumps(selector)}); if (!e) return false;"
                     " e.dispatchEvent(new MouseEvent('click', {bubbles: true})); return true; })()")
        assert ok, "no element " + selector

    def mouse(self, kind, x, y):
        """A real mouse event at page coordinates (CSS pixels): pressed, moved or released."""
        self.call("Input.dispatchMouseEvent", type="mouse" + kind.capitalize(), x=x, y=y, button="left",
                  buttons=0 if kind == "released" else 1, clickCount=1)

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        self.ws.close()
