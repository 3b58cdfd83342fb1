#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Load one local file in headless Chromium over the DevTools protocol
# (--remote-debugging-pipe: NUL-ended JSON on fds 3 and 4, no port), and
# report what tests/e2e/browser.sh asserts: the rendered text, every
# network request the page made besides its own file, every console
# message of level error or warning, exceptions and log entries of level
# error (a blocked fetch is one); then save a full-page PNG screenshot.
#   browser-cdp.py CHROMIUM FILE PNG
# Prints one JSON object: {"text", "requests", "errors", "title", "height",
# "load_ms", "task_ms"} (load_ms: from the navigation to the load event;
# task_ms: the renderer's main-thread time for the page, from the
# Performance domain's TaskDuration, which a busy machine inflates less).
import base64
import fcntl
import json
import os
import select
import subprocess
import sys
import tempfile
import time


class Browser:
    def __init__(self, exe, profile):
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def fds():
            # the pipes may be on fds 3 and 4 already, crossed: move them
            # out of the way first
            r = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10)
            w = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
            os.dup2(r, 3)
            os.dup2(w, 4)
            os.close(r)
            os.close(w)
            os.close(self.to_chrome) if self.to_chrome > 4 else None

        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-dev-shm-usage", "--hide-scrollbars", "--user-data-dir=" + profile,
             "about:blank"],
            preexec_fn=fds, close_fds=False, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=open(os.environ.get("BT_CHROMIUM_LOG", os.devnull), "w"))
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def read(self, timeout):
        end = time.time() + timeout
        while b"\0" not in self.buf:
            left = end - time.time()
            if left <= 0 or not select.select([self.from_chrome], [], [], left)[0]:
                return None
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, timeout=30):
        want = self.send(method, params, session)
        end = time.time() + timeout
        while time.time() < end:
            m = self.read(end - time.time())
            if m is None:
                break
            if m.get("id") == want:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)
        raise RuntimeError("%s: no answer in %d s" % (method, timeout))

    def wait_event(self, name, timeout):
        end = time.time() + timeout
        for i, m in enumerate(self.events):
            if m.get("method") == name:
                return m
        while time.time() < end:
            m = self.read(end - time.time())
            if m is None:
                break
            self.events.append(m)
            if m.get("method") == name:
                return m
        return None

    def drain(self, secs):
        end = time.time() + secs
        while time.time() < end:
            m = self.read(end - time.time())
            if m is None:
                break
            self.events.append(m)


def main():
    exe, path, png = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
    url = "file://" + path
    with tempfile.TemporaryDirectory(prefix="bt-chromium-") as profile:
        b = Browser(exe, profile)
        try:
            target = b.call("Target.createTarget", {"url": "about:blank"})["targetId"]
            s = b.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            for dom in ("Network", "Runtime", "Log", "Page", "Performance"):
                b.call(dom + ".enable", session=s)
            b.call("Emulation.setDeviceMetricsOverride",
                   {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session=s)
            t0 = time.time()
            b.call("Page.navigate", {"url": url}, session=s)
            if not b.wait_event("Page.loadEventFired", 30):
                raise RuntimeError("the page did not load in 30 s")
            load_ms = int((time.time() - t0) * 1000)
            b.drain(0.5)
            metrics = {m["name"]: m["value"] for m in
                       b.call("Performance.getMetrics", session=s)["metrics"]}
            # the renderer's main thread busy with this page (parse, style,
            # layout, paint, script): the open time without the waits of a
            # loaded machine
            task_ms = int(metrics.get("TaskDuration", 0) * 1000)
            ev = b.call("Runtime.evaluate", {"expression":
                        "JSON.stringify({text: (document.body || document.documentElement).innerText || document.documentElement.textContent,"
                        " title: document.title, height: Math.max(document.documentElement.scrollHeight, 200),"
                        " resources: performance.getEntriesByType('resource').map(function(e){return e.name;})})",
                        "returnByValue": True}, session=s)
            page = json.loads(ev["result"]["value"])
            h = min(int(page["height"]), 6000)
            b.call("Emulation.setDeviceMetricsOverride",
                   {"width": 1280, "height": h, "deviceScaleFactor": 1, "mobile": False}, session=s)
            b.drain(0.3)
            shot = b.call("Page.captureScreenshot", {"format": "png"}, session=s)
            with open(png, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
            b.drain(0.2)
        finally:
            try:
                b.send("Browser.close")
                b.proc.wait(10)
            except Exception:
                b.proc.kill()
                b.proc.wait()
    requests = [m["params"]["request"]["url"] for m in b.events
                if m.get("method") == "Network.requestWillBeSent" and m["params"]["request"]["url"] != url]
    requests += [r for r in page["resources"] if r not in requests]
    errors = []
    for m in b.events:
        p = m.get("params", {})
        if m.get("method") == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
            errors.append("console.%s: %s" % (p["type"], " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))))
        elif m.get("method") == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            errors.append("exception: %s" % d.get("exception", {}).get("description", d.get("text")))
        elif m.get("method") == "Log.entryAdded" and p.get("entry", {}).get("level") in ("error", "warning"):
            errors.append("log %s: %s" % (p["entry"]["level"], p["entry"].get("text")))
    print(json.dumps({"text": page["text"], "title": page["title"], "height": page["height"], "load_ms": load_ms, "task_ms": task_ms,
                      "requests": requests, "errors": errors}))
    return 0


sys.exit(main())
