"""Attack 6 of issue 14 at full size, against a running `tidings-sandbox` binary: one message whose
DATA is a single line of N MiB with no line break, then the sandbox process's peak RSS (VmHWM).

    python3 sandbox/tests/peers/smtp_long_line.py --binary target/debug/tidings-sandbox --mib 1024

Prints the SMTP reply (or how the connection ended), the seconds taken and VmHWM before/after.
"""

import argparse
import re
import smtplib
import socket
import ssl
import subprocess
import time


def vm_hwm_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return -1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--mib", type=int, default=1024)
    args = parser.parse_args()

    sandbox = subprocess.Popen([args.binary], stdout=subprocess.PIPE, text=True)
    try:
        smtp_port = key = None
        for line in sandbox.stdout:
            match = re.match(r"email SMTP [\d.]+:(\d+)", line)
            if match:
                smtp_port = int(match.group(1))
            if line.startswith("export COMMS_EMAIL_API_KEY="):
                key = line.strip().split("=", 1)[1]
                break
        before = vm_hwm_kib(sandbox.pid)
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        client = smtplib.SMTP("127.0.0.1", smtp_port, timeout=120)
        client.starttls(context=context)
        client.login("apikey", key)
        client.mail("ada@example.com")
        client.rcpt("grace@example.com")
        client.putcmd("data")
        code, _ = client.getreply()
        assert code == 354, code
        chunk = b"A" * (1024 * 1024)
        started = time.monotonic()
        outcome = None
        try:
            client.sock.sendall(b"Subject: long line\r\n\r\n")
            for _ in range(args.mib):
                client.sock.sendall(chunk)
            client.sock.sendall(b"\r\n.\r\n")
            outcome = client.getreply()
        except (OSError, smtplib.SMTPException) as error:
            outcome = f"connection ended: {error!r}"
        elapsed = time.monotonic() - started
        after = vm_hwm_kib(sandbox.pid)
        print(f"line of {args.mib} MiB: {outcome} in {elapsed:.1f} s")
        print(f"sandbox VmHWM: {before / 1024:.1f} MiB before, {after / 1024:.1f} MiB after")
    finally:
        sandbox.terminate()
        sandbox.wait()


if __name__ == "__main__":
    main()
