#!/usr/bin/env python3
"""A real SMTP relay on loopback for the email tests (aiosmtpd).

It makes a throwaway CA and a server certificate for 127.0.0.1 with `cryptography`, writes the
CA to DIR/ca.pem, listens on a free port with STARTTLS (required) or implicit TLS, requires AUTH
as user `apikey` with the password in $SMTP_PEER_PASSWORD, and prints `READY <port>` once
listening. Each accepted message is appended to DIR/messages.jsonl as JSON: envelope, auth user,
whether TLS was on, the raw message and its parsed parts.

Scripted answers, by recipient address:
  tempfail-*@...   RCPT answered `452 4.3.1 Insufficient system storage` (transient)
  reject-*@...     RCPT answered `550 5.1.1 User unknown` (permanent)
Every RCPT is logged to DIR/rcpt.log, so tests can count attempts.
"""

import argparse
import asyncio
import datetime
import email
import email.policy
import ipaddress
import json
import logging
import os
import ssl
import sys
import warnings

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def make_certificates(directory):
    """A CA, and a server certificate for 127.0.0.1 / localhost signed by it."""
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "tidings test CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True, content_commitment=False, key_encipherment=False,
                data_encipherment=False, key_agreement=False, key_cert_sign=True,
                crl_sign=True, encipher_only=False, decipher_only=False,
            ),
            critical=True,
        )
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    paths = {name: os.path.join(directory, name) for name in ("ca.pem", "cert.pem", "key.pem")}
    with open(paths["ca.pem"], "wb") as f:
        f.write(ca.public_bytes(serialization.Encoding.PEM))
    with open(paths["cert.pem"], "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))
    with open(paths["key.pem"], "wb") as f:
        f.write(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(paths["cert.pem"], paths["key.pem"])
    return context


def parse(raw):
    """Headers, bodies and attachments of a message, as the tests check them."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    parts = []
    for part in message.walk():
        if part.is_multipart():
            parts.append({"multipart": part.get_content_type()})
            continue
        payload = part.get_payload(decode=True) or b""
        parts.append(
            {
                "content_type": part.get_content_type(),
                "disposition": part.get_content_disposition(),
                "filename": part.get_filename(),
                "content_id": part.get("Content-ID"),
                "payload_hex": payload.hex(),
            }
        )
    headers = {}
    for name, value in message.items():
        headers.setdefault(name.lower(), []).append(str(value))
    return {"headers": headers, "parts": parts}


class Relay:
    def __init__(self, directory):
        self.directory = directory

    def log_rcpt(self, address):
        with open(os.path.join(self.directory, "rcpt.log"), "a") as f:
            f.write(address + "\n")

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        self.log_rcpt(address)
        if address.startswith("tempfail-"):
            return "452 4.3.1 Insufficient system storage"
        if address.startswith("reject-"):
            return "550 5.1.1 User unknown"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        record = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "auth_user": session.auth_data.login.decode() if session.auth_data else None,
            "tls": session.ssl is not None
            or server.transport.get_extra_info("ssl_object") is not None,
            "raw": raw.decode("utf-8", errors="replace"),
            **parse(raw),
        }
        with open(os.path.join(self.directory, "messages.jsonl"), "a") as f:
            f.write(json.dumps(record) + "\n")
        return "250 2.0.0 Ok: queued as TEST1"


def authenticator(password):
    def check(server, session, envelope, mechanism, auth_data):
        ok = (
            isinstance(auth_data, LoginPassword)
            and auth_data.login == b"apikey"
            and auth_data.password == password.encode()
        )
        # handled=False: aiosmtpd answers 235 or 535 itself; auth_data is kept on the session.
        return AuthResult(success=ok, handled=False, auth_data=auth_data if ok else None)

    return check


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--mode", choices=["starttls", "implicit"], default="starttls")
    args = parser.parse_args()
    # Keep test output clean: the implicit-TLS mode trips aiosmtpd's plaintext-AUTH warning.
    warnings.simplefilter("ignore")
    logging.getLogger("mail.log").setLevel(logging.ERROR)
    password = os.environ.get("SMTP_PEER_PASSWORD", "")
    if not password:
        sys.exit("SMTP_PEER_PASSWORD is not set")
    context = make_certificates(args.dir)
    relay = Relay(args.dir)
    loop = asyncio.get_running_loop()

    def factory():
        if args.mode == "starttls":
            return SMTP(
                relay,
                hostname="relay.test",
                tls_context=context,
                require_starttls=True,
                auth_required=True,
                authenticator=authenticator(password),
            )
        return SMTP(
            relay,
            hostname="relay.test",
            auth_required=True,
            auth_require_tls=False,  # the whole connection is TLS
            authenticator=authenticator(password),
        )

    server = await loop.create_server(
        factory, "127.0.0.1", 0, ssl=context if args.mode == "implicit" else None
    )
    port = server.sockets[0].getsockname()[1]
    print(f"READY {port}", flush=True)
    # Stop when the test closes our stdin (or dies), so no peer outlives its test.
    await loop.run_in_executor(None, sys.stdin.read)
    server.close()


if __name__ == "__main__":
    asyncio.run(main())
