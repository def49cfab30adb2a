#!/usr/bin/env python3
"""A local notification sink: where Alertmanager delivers on the demo and test stacks.

A real SMTP server (aiosmtpd) and a webhook receiver (HTTP) on 127.0.0.1. Each message is stored
under --dir and announced on stdout as it arrives:

  <dir>/mail/<n>.eml        each email as received (RFC 5322)
  <dir>/mail.jsonl          one line per email: received (epoch s), from, to, subject, file
  <dir>/webhook.jsonl       one line per webhook call: received, path, payload (Alertmanager's JSON)

A real site points Alertmanager at its own smarthost and webhook instead (alerting/README.md).
"""

import argparse
import email
import email.policy
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from aiosmtpd.controller import Controller

MAX_BODY = 4 << 20  # a webhook call larger than this is refused (413), never read whole


class Store:
    """Appends messages under one folder; one lock so lines never interleave."""

    def __init__(self, root):
        self.root = root
        self.lock = threading.Lock()
        os.makedirs(os.path.join(root, "mail"), exist_ok=True)
        self.mails = len(os.listdir(os.path.join(root, "mail")))

    def append(self, name, record):
        with self.lock, open(os.path.join(self.root, name), "a", encoding="utf-8") as f:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")

    def mail(self, envelope_from, rcpt, data):
        msg = email.message_from_bytes(data, policy=email.policy.default)
        subject = str(msg.get("Subject", ""))
        with self.lock:
            self.mails += 1
            name = os.path.join("mail", f"{self.mails:06d}.eml")
            with open(os.path.join(self.root, name), "wb") as f:
                f.write(data)
        self.append(
            "mail.jsonl",
            {"received": time.time(), "from": envelope_from, "to": rcpt, "subject": subject, "file": name},
        )
        print(f"MAIL {subject}", flush=True)


class SMTPHandler:
    def __init__(self, store):
        self.store = store

    async def handle_DATA(self, server, session, envelope):
        self.store.mail(envelope.mail_from, list(envelope.rcpt_tos), envelope.content)
        return "250 Message accepted for delivery"


def webhook_handler(store):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY:
                self.send_error(413, "payload too large")
                return
            body = self.rfile.read(length)
            try:
                payload = json.loads(body)
            except ValueError as e:
                self.send_error(400, f"not JSON: {e}")
                return
            store.append("webhook.jsonl", {"received": time.time(), "path": self.path, "payload": payload})
            if isinstance(payload, dict):
                print(
                    f"WEBHOOK {self.path} {payload.get('status')} {payload.get('groupKey')} "
                    f"alerts={len(payload.get('alerts') or [])}",
                    flush=True,
                )
            self.send_response(200)
            self.end_headers()

        def do_GET(self):  # a health check
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"ok\n")

        def log_message(self, *args):
            pass

    return Handler


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dir", required=True, help="where messages are stored")
    p.add_argument("--smtp-port", type=int, required=True)
    p.add_argument("--http-port", type=int, required=True)
    p.add_argument("--host", default="127.0.0.1")
    a = p.parse_args(argv)
    store = Store(a.dir)
    smtp = Controller(SMTPHandler(store), hostname=a.host, port=a.smtp_port)
    smtp.start()
    http = ThreadingHTTPServer((a.host, a.http_port), webhook_handler(store))
    threading.Thread(target=http.serve_forever, daemon=True).start()
    print(
        f"notify-sink: SMTP on {a.host}:{a.smtp_port}, webhooks on http://{a.host}:{a.http_port}/, "
        f"storing under {a.dir}",
        flush=True,
    )
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    stop.wait()
    http.shutdown()
    smtp.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
