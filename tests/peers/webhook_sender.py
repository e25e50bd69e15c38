"""Sends one signed (or unsigned) webhook delivery over HTTP, signing it independently of the
Rust code under test, for tests/tests/webhooks_spec.rs.

Usage: webhook_sender.py MODE URL SECRET PAYLOAD [--signed-url URL] [--tamper] [--age SECONDS]
  MODE twilio:    PAYLOAD is a JSON object of form parameters, posted form-encoded; the
                  X-Twilio-Signature header is base64(HMAC-SHA1(secret, url + each parameter's
                  name and value, sorted by name)), computed here with hmac/hashlib/base64.
  MODE standard:  PAYLOAD is a JSON body, signed with the `standardwebhooks` package.
  MODE ping:      PAYLOAD is a JSON body, posted unsigned with `X-Hook-Event: ping`.
--signed-url signs another URL than the one posted to; --tamper changes the body after signing;
--age signs with a timestamp that many seconds in the past. Prints the HTTP status.
"""

import base64
import datetime
import hashlib
import hmac
import json
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


def twilio_signature(token: str, url: str, params: dict) -> str:
    data = url + "".join(name + params[name] for name in sorted(params))
    digest = hmac.new(token.encode("utf-8"), data.encode("utf-8"), hashlib.sha1).digest()
    return base64.b64encode(digest).decode("ascii")


def main() -> None:
    mode, url, secret, payload = sys.argv[1:5]
    rest = sys.argv[5:]
    signed_url = rest[rest.index("--signed-url") + 1] if "--signed-url" in rest else url
    tamper = "--tamper" in rest
    age = int(rest[rest.index("--age") + 1]) if "--age" in rest else 0
    headers = {}
    if mode == "twilio":
        params = json.loads(payload)
        headers["X-Twilio-Signature"] = twilio_signature(secret, signed_url, params)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        if tamper:
            params["To"] = params.get("To", "") + "0"
        body = urllib.parse.urlencode(params).encode("utf-8")
    elif mode == "standard":
        from standardwebhooks.webhooks import Webhook

        at = datetime.datetime.fromtimestamp(int(time.time()) - age, tz=datetime.timezone.utc)
        msg_id = "msg_" + str(int(time.time() * 1000))
        headers["webhook-id"] = msg_id
        headers["webhook-timestamp"] = str(int(at.timestamp()))
        headers["webhook-signature"] = Webhook(secret).sign(msg_id, at, payload)
        headers["Content-Type"] = "application/json"
        body = (payload.replace("}", ', "x": 1}', 1) if tamper else payload).encode("utf-8")
    elif mode == "ping":
        headers["X-Hook-Event"] = "ping"
        headers["Content-Type"] = "application/json"
        body = payload.encode("utf-8")
    else:
        raise SystemExit(f"unknown mode {mode}")
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            print(response.status)
    except urllib.error.HTTPError as refused:
        print(refused.code)


if __name__ == "__main__":
    main()
