"""TCPS for the scripted server: a throwaway CA and server certificate (and,
for JDBC thin, a PKCS12 truststore holding the CA), the server's SSL context (TLS version pinned, key log written by the server so the
secrets do not depend on the client), a socket-like wrapper that counts the
TLS records and ciphertext bytes the server writes, and the pcapng step that
embeds the key log (editcap --inject-secrets).

The wrapper runs the TLS session through ssl.SSLObject over memory BIOs, so
the server knows where each of its responses starts and ends in the
ciphertext stream (`raw_wpos`, like Connection.wpos for plaintext): the
manifest then counts the TCP segments of a response from the bytes on the
wire, and the TLS records and bytes that an estimate without keys can see.
"""

from __future__ import annotations

import datetime
import ipaddress
import socket
import ssl
import subprocess
from pathlib import Path

VERSIONS = {"1.2": ssl.TLSVersion.TLSv1_2, "1.3": ssl.TLSVersion.TLSv1_3}
TLS_HEADER = 5
APP_DATA = 23


def make_certificates(outdir: Path, server_addr: str) -> dict:
    """A CA and a server certificate for server_addr (IP SAN and CN), valid for a day."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.timezone.utc)
    start, end = now - datetime.timedelta(hours=1), now + datetime.timedelta(days=1)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "sqlnetgen throwaway CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(start).not_valid_after(end)
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False),
                         critical=True)
          # key identifiers: Python 3.13+ verifies strictly (VERIFY_X509_STRICT) and wants them
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, server_addr)])
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(ca_name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(start).not_valid_after(end)
            .add_extension(x509.SubjectAlternativeName([
                x509.IPAddress(ipaddress.ip_address(server_addr)), x509.DNSName("localhost")]),
                critical=False)
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]),
                           critical=False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
                           critical=False)
            .sign(ca_key, hashes.SHA256()))
    outdir.mkdir(parents=True, exist_ok=True)
    paths = {"ca": outdir / "ca.pem", "cert": outdir / "server.pem", "key": outdir / "server.key"}
    paths["ca"].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths["cert"].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths["key"].write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                               serialization.PrivateFormat.PKCS8,
                                               serialization.NoEncryption()))
    return {k: str(v) for k, v in paths.items()}


TRUSTSTORE_PASSWORD = "sqlnetgen"     # a throwaway truststore holding only the throwaway CA


def make_truststore(ca_pem: str, out: Path) -> str:
    """A PKCS12 truststore with the CA as a trusted certificate entry (keytool
    -importcert), for JDBC thin: javax.net.ssl.trustStore/-Type/-Password."""
    out = Path(out)
    if out.exists():
        out.unlink()
    r = subprocess.run(["keytool", "-importcert", "-noprompt", "-storetype", "PKCS12",
                        "-keystore", str(out), "-storepass", TRUSTSTORE_PASSWORD,
                        "-alias", "sqlnetgen-ca", "-file", str(ca_pem)],
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise RuntimeError(f"keytool -importcert failed: {r.stderr or r.stdout}")
    return str(out)


def server_context(cfg: dict) -> ssl.SSLContext:
    """cfg["tls"]: cert, key, keylog, version ("1.2" or "1.3")."""
    t = cfg["tls"]
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(t["cert"], t["key"])
    ver = VERSIONS[str(t.get("version", "1.3"))]
    ctx.minimum_version = ctx.maximum_version = ver
    # no TLS 1.3 session tickets: they would be server records before the first
    # TNS response (one less thing for the record-size estimate to explain)
    ctx.num_tickets = 0
    ctx.keylog_filename = t["keylog"]
    return ctx


def record_lengths(data: bytes) -> list[tuple[int, int]]:
    """(content type, length incl. the 5-byte header) of each TLS record in data,
    which holds whole records (what an SSLObject writes at a time)."""
    out, off = [], 0
    while off + TLS_HEADER <= len(data):
        n = int.from_bytes(data[off + 3:off + 5], "big")
        out.append((data[off], TLS_HEADER + n))
        off += TLS_HEADER + n
    return out


class TlsSocket:
    """The server side of a TLS session over a connected TCP socket, with the
    socket methods Connection uses (recv with MSG_PEEK, sendall, settimeout,
    close).  Counts the ciphertext bytes and records written and read."""

    def __init__(self, raw: socket.socket, ctx: ssl.SSLContext):
        self.raw = raw
        self.inc, self.out = ssl.MemoryBIO(), ssl.MemoryBIO()
        self.obj = ctx.wrap_bio(self.inc, self.out, server_side=True)
        self.plain = bytearray()
        self.rawbuf = bytearray()      # ciphertext received, not yet fed (whole records are fed)
        self.plain_pos = 0             # plaintext bytes decrypted so far
        # (plaintext end, ciphertext start, ciphertext end) of each record that carried plaintext
        self.read_map: list[tuple[int, int, int]] = []
        self.eof = False
        self.fed = (0, 0)              # ciphertext range of the record last fed
        self.raw_wpos = 0              # ciphertext bytes written (server->client stream offset)
        self.raw_rpos = 0              # ciphertext bytes read
        self.app_records_sent = 0      # application-data records written after the handshake
        self.app_bytes_sent = 0        # their bytes, headers included
        self.version = None
        self.cipher = None
        self._handshake()

    def _flush(self, app: bool = False):
        data = self.out.read()
        if not data:
            return
        self.raw.sendall(data)
        self.raw_wpos += len(data)
        if app:
            for ctype, n in record_lengths(data):
                if ctype == APP_DATA:
                    self.app_records_sent += 1
                    self.app_bytes_sent += n

    def _read_raw(self) -> bool:
        """Feed the next whole TLS record to the TLS object (reading the socket
        as needed), so that the plaintext it yields maps to that record."""
        while True:
            if len(self.rawbuf) >= TLS_HEADER:
                n = TLS_HEADER + int.from_bytes(self.rawbuf[3:5], "big")
                if len(self.rawbuf) >= n:
                    self.inc.write(bytes(self.rawbuf[:n]))
                    self.fed = (self.raw_rpos - len(self.rawbuf), self.raw_rpos - len(self.rawbuf) + n)
                    del self.rawbuf[:n]
                    return True
            chunk = self.raw.recv(65536)
            if not chunk:
                self.eof = True
                return False
            self.raw_rpos += len(chunk)
            self.rawbuf += chunk

    def cipher_range(self, lo: int, hi: int) -> list[int] | None:
        """Ciphertext [start, end) of the records that carried plaintext [lo, hi)."""
        start = end = None
        prev_end = 0
        for pend, cs, ce in self.read_map:
            pstart = prev_end
            prev_end = pend
            if pend <= lo or pstart >= hi:
                continue
            start = cs if start is None else start
            end = ce
        return None if start is None else [start, end]

    def _handshake(self):
        while True:
            try:
                self.obj.do_handshake()
                break
            except ssl.SSLWantReadError:
                self._flush()
                if not self._read_raw():
                    raise ConnectionError("client closed during the TLS handshake")
        self._flush()
        self.version = self.obj.version()
        self.cipher = self.obj.cipher()[0] if self.obj.cipher() else None

    def _fill(self) -> bool:
        """Decrypt at least one byte into self.plain; False at EOF."""
        while True:
            try:
                data = self.obj.read(65536)
                self._flush()
                if data:
                    self.plain += data
                    self.plain_pos += len(data)
                    self.read_map.append((self.plain_pos, self.fed[0], self.fed[1]))
                    return True
                self.eof = True
                return False
            except ssl.SSLWantReadError:
                self._flush()
            except ssl.SSLZeroReturnError:         # close_notify from the client
                self.eof = True
                return False
            if self.eof or not self._read_raw():
                return False

    # socket-like interface --------------------------------------------------
    def recv(self, n: int, flags: int = 0) -> bytes:
        if not self.plain and not self.eof:
            self._fill()
        out = bytes(self.plain[:n])
        if not flags & socket.MSG_PEEK:
            del self.plain[:n]
        return out

    def sendall(self, data: bytes):
        self.obj.write(data)
        self._flush(app=True)

    def settimeout(self, t):
        self.raw.settimeout(t)

    def setsockopt(self, *a):
        self.raw.setsockopt(*a)

    def close(self):
        # no close_notify: the server just closes, so that the last server
        # records of the capture are its last response
        self.raw.close()


def inject_secrets(pcap: Path, keylog: Path, out: Path):
    """Embed the key log into the pcapng (a Decryption Secrets Block)."""
    r = subprocess.run(["editcap", "--inject-secrets", f"tls,{keylog}", str(pcap), str(out)],
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise RuntimeError(f"editcap --inject-secrets failed: {r.stderr}")
