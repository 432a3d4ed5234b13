"""A throwaway certificate authority for TLS tests: CA, server and client certificates."""

from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


@dataclass(frozen=True)
class TlsFiles:
    """PEM files: the CA, a server certificate for 127.0.0.1, a client certificate."""

    ca: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path


def make_tls_files(folder: Path) -> TlsFiles:
    """Write a fresh CA and two certificates it signed into ``folder``."""
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "lodam test CA")])
    ca = _sign(_builder(ca_name, ca_name, ca_key.public_key())
               .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True),
               ca_key)
    files = TlsFiles(*(folder / name for name in (
        "ca.pem", "server.pem", "server.key", "client.pem", "client.key")))
    files.ca.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    san = x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))])
    _issue(ca_name, ca_key, "127.0.0.1", san,
           cert_path=files.server_cert, key_path=files.server_key)
    _issue(ca_name, ca_key, "lodam player", None,
           cert_path=files.client_cert, key_path=files.client_key)
    return files


def _issue(issuer: x509.Name, issuer_key: ec.EllipticCurvePrivateKey, common_name: str,
           san: x509.SubjectAlternativeName | None, *, cert_path: Path, key_path: Path
           ) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    builder = _builder(name, issuer, key.public_key())
    if san is not None:
        builder = builder.add_extension(san, critical=False)
    cert_path.write_bytes(_sign(builder, issuer_key).public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))


def _builder(subject: x509.Name, issuer: x509.Name, public_key: ec.EllipticCurvePublicKey
             ) -> x509.CertificateBuilder:
    now = datetime.datetime.now(datetime.UTC)
    return (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer)
            .public_key(public_key).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1)))


def _sign(builder: x509.CertificateBuilder, key: ec.EllipticCurvePrivateKey
          ) -> x509.Certificate:
    return builder.sign(key, hashes.SHA256())
