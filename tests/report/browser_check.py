#!/usr/bin/env python3
"""Opens a scalefuzz report.html in real headless Chromium (DevTools protocol
over --remote-debugging-pipe, standard library only) at 1280 px and checks
what a reader sees: no console errors or exceptions, no horizontal overflow,
every nav section rendered, every chart drawn, the first bug headline (kind,
file:line, ranks), the replay command with its copy button, and run-file
links that resolve. Saves a full-page screenshot. Exit 0 ok, 1 a check
failed, 2 usage or browser failure."""
import argparse
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

WIDTH = 1280


class Browser:
    def __init__(self, profile):
        exe = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
        if not exe:
            raise RuntimeError("chromium not found on PATH (Debian package chromium: ci/setup.sh)")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        # Chromium reads commands on fd 3 and writes replies on fd 4.
        # (subprocess closes every fd not in pass_fds after preexec_fn runs,
        # so 3 and 4 are the ones to keep.)
        def child_fds():
            r, w = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(r, 3)
            os.dup2(w, 4)
        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-quic",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--hide-scrollbars", "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"],
            pass_fds=(3, 4), preexec_fn=child_fds,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            if time.time() > deadline:
                raise RuntimeError("timed out waiting for Chromium")
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(raw)

    def send(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method, timeout=60):
        deadline = time.time() + timeout
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                return self.events.pop(i)
        while True:
            e = self._read_message(deadline)
            if e.get("method") == method:
                return e
            self.events.append(e)

    def wait_loaded(self, session, url, timeout=60):
        """Until the page at `url` has finished loading (load event fired)."""
        deadline = time.time() + timeout
        probe = "document.readyState + ' ' + location.href"
        while time.time() < deadline:
            value = self.send("Runtime.evaluate", {"expression": probe, "returnByValue": True},
                              session=session)["result"].get("value", "")
            if value == "complete " + url:
                return
            time.sleep(0.1)
        raise RuntimeError(f"{url} did not finish loading within {timeout} s")

    def close(self):
        try:
            self.send("Browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# Everything measured inside the page; returns JSON.
PAGE_PROBE = r"""
(() => {
  const root = document.documentElement;
  const out = {scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, sections: [], charts: [], bugs: []};
  const wide = [];
  document.querySelectorAll('body *').forEach(el => {
    const r = el.getBoundingClientRect();
    if (r.right > root.clientWidth + 1 && getComputedStyle(el).position !== 'fixed') {
      // Inside a scrolling box is fine: that box scrolls, the page does not.
      let p = el.parentElement, clipped = false;
      while (p && p !== document.body) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll' || o === 'hidden') { clipped = true; break; }
        p = p.parentElement;
      }
      if (!clipped) wide.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && el.className.baseVal === undefined ? '.' + el.className : ''));
    }
  });
  out.wide = wide.slice(0, 10);
  document.querySelectorAll('nav.toc a').forEach(a => {
    const id = decodeURIComponent(a.getAttribute('href').slice(1));
    const el = document.getElementById(id);
    out.sections.push({id: id, present: !!el, height: el ? el.getBoundingClientRect().height : 0,
                       heading: el && el.querySelector('h2') ? el.querySelector('h2').textContent : ''});
  });
  document.querySelectorAll('figure.chart').forEach(f => {
    const c = f.querySelector('canvas');
    out.charts.push({id: f.dataset.chart, canvas: !!c, drawn: !!(c && window.Chart && Chart.getChart(c)),
                     width: c ? c.getBoundingClientRect().width : 0, height: c ? c.getBoundingClientRect().height : 0});
  });
  document.querySelectorAll('li.bug').forEach(li => {
    const q = s => li.querySelector(s);
    out.bugs.push({kind: li.dataset.kind, detector: li.dataset.detector,
                   what: q('.what') ? q('.what').textContent : '',
                   fileLine: q('.file-line') ? q('.file-line').textContent : '',
                   whereHref: q('a.where') ? q('a.where').getAttribute('href') : '',
                   ranks: q('.ranks b') ? q('.ranks b').textContent : '',
                   replay: q('.replay-cmd') ? q('.replay-cmd').textContent : '',
                   copy: !!q('button.copy'),
                   files: Array.from(li.querySelectorAll('a.run-file')).map(a => a.href)});
  });
  out.whereTargets = out.bugs.map(b => b.whereHref ? !!document.getElementById(b.whereHref.slice(1)) : false);
  out.allRunFiles = Array.from(document.querySelectorAll('a.run-file')).map(a => a.href);
  out.height = Math.max(root.scrollHeight, document.body.scrollHeight);
  return JSON.stringify(out);
})()
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("--screenshot", required=True)
    ap.add_argument("--kind", help="data-kind of the first bug headline (e.g. deadlock)")
    ap.add_argument("--file-line", help="substring of the first bug's file:line (e.g. deadlock_cycle.c:)")
    ap.add_argument("--ranks", help="the first bug's rank set text (e.g. 0-2)")
    ap.add_argument("--no-bugs", action="store_true", help="the report must show no bug headline")
    ap.add_argument("--charts", type=int, default=0, help="at least this many charts drawn")
    ap.add_argument("--section", action="append", default=[], help="nav section that must exist")
    args = ap.parse_args()

    report = os.path.abspath(args.report)
    if not os.path.isfile(report):
        print(f"browser_check: no report at {report}", file=sys.stderr)
        return 2
    failures = []
    with tempfile.TemporaryDirectory() as profile:
        try:
            b = Browser(profile)
        except Exception as e:
            print(f"browser_check: {e}", file=sys.stderr)
            return 2
        try:
            target = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
            session = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            for domain in ("Page", "Runtime", "Log"):
                b.send(domain + ".enable", session=session)
            b.send("Emulation.setDeviceMetricsOverride",
                   {"width": WIDTH, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session=session)
            url = "file://" + urllib.parse.quote(report)
            b.send("Page.navigate", {"url": url}, session=session)
            b.wait_loaded(session, url)
            time.sleep(0.5)  # charts draw at the end of the page; no animation
            probe = json.loads(b.send("Runtime.evaluate", {"expression": PAGE_PROBE, "returnByValue": True},
                                      session=session)["result"]["value"])
            # What a reader sees first: the top 1280x900 of the page.
            top = b.send("Page.captureScreenshot", {"format": "png"}, session=session, timeout=60)
            os.makedirs(os.path.dirname(os.path.abspath(args.screenshot)), exist_ok=True)
            with open(re.sub(r"\.png$", "", args.screenshot) + "-top.png", "wb") as f:
                f.write(base64.b64decode(top["data"]))
            # Full-page screenshot: the viewport as tall as the page.
            height = min(int(probe["height"]) + 20, 16000)
            b.send("Emulation.setDeviceMetricsOverride",
                   {"width": WIDTH, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=session)
            time.sleep(0.3)
            shot = b.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True},
                          session=session, timeout=120)
            os.makedirs(os.path.dirname(os.path.abspath(args.screenshot)), exist_ok=True)
            with open(args.screenshot, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
            errors = []
            for e in b.events:
                m, p = e.get("method"), e.get("params", {})
                if m == "Runtime.exceptionThrown":
                    errors.append(p["exceptionDetails"].get("exception", {}).get("description")
                                  or p["exceptionDetails"].get("text"))
                elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                    errors.append(" ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
                elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
                    errors.append(p["entry"].get("text"))
        except Exception as e:
            print(f"browser_check: {e}", file=sys.stderr)
            return 2
        finally:
            b.close()

    if errors:
        failures.append(f"console errors: {errors}")
    if probe["scrollWidth"] > probe["clientWidth"]:
        failures.append(f"horizontal overflow at {WIDTH} px: scrollWidth {probe['scrollWidth']} > "
                        f"clientWidth {probe['clientWidth']}; too wide: {probe['wide']}")
    for s in probe["sections"]:
        if not s["present"] or s["height"] < 20:
            failures.append(f"nav section #{s['id']} missing or empty ({s})")
    ids = [s["id"] for s in probe["sections"]]
    for want in args.section:
        if want not in ids:
            failures.append(f"nav has no section #{want} (has {ids})")
    drawn = [c for c in probe["charts"] if c["drawn"] and c["width"] > 50 and c["height"] > 50]
    if len(drawn) < args.charts:
        failures.append(f"expected at least {args.charts} drawn charts, got {probe['charts']}")
    bugs = probe["bugs"]
    if args.no_bugs and bugs:
        failures.append(f"expected no bug headline, got {bugs[0]}")
    if args.kind or args.file_line or args.ranks:
        if not bugs:
            failures.append("no bug headline")
        else:
            first = bugs[0]
            if args.kind and first["kind"] != args.kind:
                failures.append(f"first bug kind {first['kind']!r}, expected {args.kind!r} ({first})")
            if args.file_line and args.file_line not in first["fileLine"]:
                failures.append(f"first bug file:line {first['fileLine']!r} lacks {args.file_line!r}")
            if args.file_line and not probe["whereTargets"][0]:
                failures.append("the first bug's file:line link has no target in the page")
            if args.ranks and first["ranks"] != args.ranks:
                failures.append(f"first bug ranks {first['ranks']!r}, expected {args.ranks!r}")
            if not first["replay"].strip() or " exec " not in first["replay"]:
                failures.append(f"first bug has no replay command: {first['replay']!r}")
            if not first["copy"]:
                failures.append("first bug has no copy button")
            if not first["files"]:
                failures.append("first bug has no run-file links")
    links = set(probe["allRunFiles"])
    if (args.kind or args.no_bugs) and not links:
        failures.append("no run-file links in the page")
    for href in sorted(links):
        path = urllib.parse.unquote(urllib.parse.urlparse(href).path)
        if not os.path.exists(path):
            failures.append(f"run-file link does not resolve: {href}")
    summary = {"report": report, "screenshot": args.screenshot, "bugs": bugs[:3],
               "charts": probe["charts"], "sections": ids, "links": len(links)}
    print(json.dumps(summary, indent=1))
    for f in failures:
        print("FAIL: " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
