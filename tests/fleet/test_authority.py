"""The fleet's certificates pass OpenSSL's strict checks, which Python 3.13 (the Pi's
Debian 13) turns on by default and the cabinet's TLS turns on everywhere (``Join``'s
context): a TLS handshake over a socket pair, with the real certificates, succeeds; one
with a server certificate that lacks the Authority Key Identifier is refused, as the
virtual Pi's card refused the fleet's before."""

from __future__ import annotations

import datetime
import ipaddress
import socket
import ssl
import threading
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from fleet.authority import KeyPair, make_ca, make_server
from fleet.join_file import Join

NOW = datetime.datetime(2026, 12, 6, tzinfo=datetime.UTC)
HOST = "10.0.2.100"


def handshake(ca: KeyPair, server: KeyPair, tmp_path: Path) -> str:
    """A TLS handshake from a cabinet (its join's context) to a server with ``server``'s
    certificate; "" when it succeeds, else the cabinet's error."""
    (tmp_path / "cert.pem").write_bytes(server.cert)
    (tmp_path / "key.pem").write_bytes(server.key)
    served = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    served.load_cert_chain(tmp_path / "cert.pem", tmp_path / "key.pem")
    join = Join("Route", "bar-1", "The Anchor", HOST, 8883, "pw", ca.cert.decode())
    ours, theirs = socket.socketpair()

    def serve() -> None:
        try:
            with served.wrap_socket(theirs, server_side=True) as tls:
                tls.recv(1)
        except (ssl.SSLError, OSError):
            pass  # the cabinet refused: its side says why

    server_thread = threading.Thread(target=serve)
    server_thread.start()
    try:
        with join.tls_context().wrap_socket(ours, server_hostname=HOST) as tls:
            tls.sendall(b"x")
        return ""
    except ssl.SSLError as exc:
        theirs.close()
        return str(exc)
    finally:
        server_thread.join(10)


def test_the_fleet_s_certificates_pass_the_strict_checks(tmp_path: Path) -> None:
    ca = make_ca("Route", NOW)
    assert handshake(ca, make_server(ca, [HOST, "127.0.0.1"], NOW), tmp_path) == ""


def without_key_identifiers(ca: KeyPair) -> KeyPair:
    """A server certificate as the fleet made them before: no key identifiers."""
    ca_cert = x509.load_pem_x509_certificate(ca.cert)
    ca_key = serialization.load_pem_private_key(ca.key, password=None)
    assert isinstance(ca_key, ec.EllipticCurvePrivateKey)
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, HOST)]))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(NOW - datetime.timedelta(days=1))
        .not_valid_after(NOW + datetime.timedelta(days=30))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(HOST))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    return KeyPair(
        cert.public_bytes(serialization.Encoding.PEM),
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                          serialization.NoEncryption()),
    )  # fmt: skip


def test_a_certificate_without_key_identifiers_is_refused(tmp_path: Path) -> None:
    ca = make_ca("Route", NOW)
    said = handshake(ca, without_key_identifiers(ca), tmp_path)
    assert "Missing Authority Key Identifier" in said


@pytest.mark.parametrize("kind", ["ca", "server"])
def test_each_certificate_names_its_keys(kind: str) -> None:
    ca = make_ca("Route", NOW)
    pem = ca.cert if kind == "ca" else make_server(ca, [HOST], NOW).cert
    cert = x509.load_pem_x509_certificate(pem)
    ski = cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
    assert ski == x509.SubjectKeyIdentifier.from_public_key(cert.public_key())
    if kind == "server":
        aki = cert.extensions.get_extension_for_class(x509.AuthorityKeyIdentifier).value
        ca_cert = x509.load_pem_x509_certificate(ca.cert)
        ca_ski = ca_cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
        assert aki.key_identifier == ca_ski.digest
