"""Native Network Encryption (NNE, the ANO encryption and data-integrity services):
the server side of the key exchange and of the per-packet transforms.

Facts from go-ora v2.9.0 (advanced_nego/*.go, network/data_packet.go,
network/security/*.go), our own implementation:

* The server's ANO reply names one algorithm per service (a ub1 sub-packet).
  When the data-integrity service reply has 8 sub-packets (version, ub1
  algorithm, ub2 generator bit length, ub2 prime bit length, bytes generator,
  bytes prime, bytes server public key, bytes IV) the client runs
  Diffie-Hellman: it checks that the public key and the prime have
  (bits + 7) // 8 bytes, answers with a second ANO packet (one service,
  type 3, one bytes sub-packet: its public key) and derives the shared secret
  g^(xy) mod p as a big-endian byte string of that length.  No reply to that
  packet: encryption starts with the client's next DATA packet (the PRO).
  The DH parameters come even when the integrity algorithm is 0 (none): the
  session key comes from them.  A real 2048-bit prime (RFC 3526 group 14,
  generator 2 left-padded to 256 bytes) is what a real server sent in a dump
  posted to go-ora issue 210; we use the same group.
* Every DATA packet after that: the 2 data-flag bytes stay clear; the payload
  P becomes  E(P || H) || pad || 0x00  where H is the integrity checksum (when
  integrity is on), E the cipher, pad the AES/DES trailer byte (zero-padding
  count + 1) and 0x00 the "folding key" byte go-ora always appends (JDBC: 01
  once it folded the logon key in, see NneSession.fold_in).  MARKER packets
  stay clear.
* AES128/192/256 (ids 15/16/17): key = first 16/24/32 bytes of the shared
  secret, CBC with an all-zero IV (JDBC with a 23 server: bytes 32..47 of the
  secret) restarted for every packet, the plaintext
  zero-padded to a multiple of 16 (nothing added when it already is one), then
  one byte = number of pad bytes + 1.
* Integrity MD5/SHA1 (ids 1/3): RC4 key generator seeded with the last 5 bytes
  of the shared secret, 0xFF and the IV; 5 bytes of its key stream + 90 seed
  the client->server stream, + 180 the server->client stream; each packet's
  checksum = hash(P || next hash-size bytes of that stream).  SHA256/384/512
  (ids 5/6/4): an AES-CBC key generator (first 5 bytes of the secret, 0xFF,
  zeros; IV = first 16 bytes of the IV) encrypts a 32-byte buffer whose halves
  become key and IV of two AES-CBC streams (key byte 5 = 90 client->server,
  180 server->client); each packet's checksum = hash(P || the stream's next
  encryption of its previous hash-size output block, which a re-initialisation
  keeps).  Both re-initialise (a new 5-byte / 32-byte draw) after a marker
  reset.
"""

from __future__ import annotations

import hashlib

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

ENCRYPTION_IDS = {"AES128": 15, "AES192": 16, "AES256": 17}
INTEGRITY_IDS = {None: 0, "MD5": 1, "SHA1": 3, "SHA512": 4, "SHA256": 5, "SHA384": 6}
ENCRYPTION_NAMES = {v: k for k, v in ENCRYPTION_IDS.items()}
INTEGRITY_NAMES = {v: k for k, v in INTEGRITY_IDS.items()}
AES_KEY_BYTES = {15: 16, 16: 24, 17: 32}

# RFC 3526 group 14 (2048-bit MODP), generator 2
DH_PRIME = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
    "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
    "15728E5A8AACAA68FFFFFFFFFFFFFFFF", 16)
DH_GENERATOR = 2
DH_BITS = 2048
DH_BYTES = (DH_BITS + 7) // 8


class DiffieHellman:
    def __init__(self, rng):
        self.private = rng.getrandbits(DH_BITS - 1) | 1
        self.public = pow(DH_GENERATOR, self.private, DH_PRIME).to_bytes(DH_BYTES, "big")
        self.generator = DH_GENERATOR.to_bytes(DH_BYTES, "big")
        self.prime = DH_PRIME.to_bytes(DH_BYTES, "big")

    def shared(self, client_public: bytes) -> bytes:
        y = int.from_bytes(client_public, "big")
        if not 1 < y < DH_PRIME - 1:
            raise ValueError("client DH public key out of range")
        return pow(y, self.private, DH_PRIME).to_bytes(DH_BYTES, "big")


class _RC4:
    """Plain RC4 (key streams of a few bytes per packet; the ARC4 of `cryptography`
    refuses the 22-byte seed)."""

    def __init__(self, key: bytes):
        s = list(range(256))
        j = 0
        for i in range(256):
            j = (j + s[i] + key[i % len(key)]) & 0xFF
            s[i], s[j] = s[j], s[i]
        self.s, self.i, self.j = s, 0, 0

    def stream(self, n: int) -> bytes:
        s, i, j = self.s, self.i, self.j
        out = bytearray(n)
        for k in range(n):
            i = (i + 1) & 0xFF
            j = (j + s[i]) & 0xFF
            s[i], s[j] = s[j], s[i]
            out[k] = s[(s[i] + s[j]) & 0xFF]
        self.i, self.j = i, j
        return bytes(out)


def _cbc(key: bytes, iv: bytes):
    """An AES-CBC encryptor whose chaining carries over from one update to the next
    (Go's cipher.BlockMode)."""
    return Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()


class _Integrity:
    HASHES = {1: hashlib.md5, 3: hashlib.sha1, 4: hashlib.sha512, 5: hashlib.sha256, 6: hashlib.sha384}

    def __init__(self, algo: int, key: bytes, iv: bytes):
        self.algo = algo
        self.hash = self.HASHES[algo]
        self.size = self.hash().digest_size
        self.rc4 = algo in (1, 3)
        if self.rc4:
            self.keygen = _RC4(key[-5:] + b"\xff" + iv)
        else:
            self.keygen = _cbc(key[:5] + b"\xff" + bytes(10), iv[:16])
            self.buffer = bytes(32)
            # the last output block of each stream: kept across a re-initialisation
            self.c2s_block = bytes(self.size)
            self.s2c_block = bytes(self.size)
        self.init()

    def init(self):
        if self.rc4:
            k = self.keygen.stream(5)
            self.c2s = _RC4(k + bytes((90,)))
            self.s2c = _RC4(k + bytes((180,)))
        else:
            self.buffer = self.keygen.update(self.buffer)
            key, iv = bytearray(self.buffer[:16]), self.buffer[16:]
            self.keygen = _cbc(bytes(key), iv)
            key[5] = 90
            self.c2s = _cbc(bytes(key), iv)
            key[5] = 180
            self.s2c = _cbc(bytes(key), iv)

    def _extra(self, server_to_client: bool) -> bytes:
        if self.rc4:
            return (self.s2c if server_to_client else self.c2s).stream(self.size)
        if server_to_client:
            self.s2c_block = self.s2c.update(self.s2c_block)
            return self.s2c_block
        self.c2s_block = self.c2s.update(self.c2s_block)
        return self.c2s_block

    def compute(self, data: bytes) -> bytes:
        """Checksum of a server->client payload."""
        return self.hash(data + self._extra(True)).digest()

    def validate(self, data: bytes) -> bytes:
        """Strip and check the checksum of a client->server payload."""
        if len(data) <= self.size:
            raise ValueError("integrity: payload shorter than the checksum")
        body, got = data[:-self.size], data[-self.size:]
        if self.hash(body + self._extra(False)).digest() != got:
            raise ValueError("integrity: checksum mismatch")
        return body


def weak_crypto(version: int) -> bool:
    """JDBC's rule (ClientProfile.setANOVersion) for a peer's ANO version: below
    23 (first byte) with the 12-bit-shifted byte 0, the peer uses the legacy
    ("weak") key schedule."""
    return (version >> 24) & 0xFF < 23 and (version >> 12) & 0xFF < 1


class NneSession:
    """The transforms of one connection once the key exchange is done.

    `strong`: the key schedule JDBC uses with a server whose ANO version is 23 or
    later (AESEncryption.init): the CBC IV is bytes 32..47 of the session key
    instead of zeros.  go-ora knows only the legacy one (zero IV)."""

    def __init__(self, encryption: int, integrity: int, shared: bytes, iv: bytes,
                 strong: bool = False):
        self.encryption = encryption
        self.strong = strong
        self.skey = bytearray(shared)
        self.folded = False
        self._rekey()
        self.integrity = _Integrity(integrity, shared, iv) if integrity else None
        self.checksum_bytes = self.integrity.size if self.integrity else 0

    def _rekey(self):
        self.key = bytes(self.skey[:AES_KEY_BYTES[self.encryption]])
        self.cbc_iv = bytes(self.skey[32:48]) if self.strong else bytes(16)

    def fold_in(self, auth_key: bytes):
        """Key fold-in after O5LOGON (JDBC's Ano.foldinKey): the client XORs the
        logon's combo key into the session key and re-keys; it marks every later
        packet with folding-key byte 1.  Legacy schedule: over the whole key;
        strong: the first 32 bytes into bytes 0..31 and again into 32..63."""
        if self.integrity is not None:
            raise ValueError("NNE key fold-in with data integrity is not scripted")
        if self.strong:
            n = min(32, len(auth_key))
            for i in range(n):
                self.skey[i] ^= auth_key[i]
                self.skey[32 + i] ^= auth_key[i]
        else:
            for i in range(min(len(self.skey), len(auth_key))):
                self.skey[i] ^= auth_key[i]
        self.folded = True
        self._rekey()

    def _cipher(self):
        return Cipher(algorithms.AES(self.key), modes.CBC(self.cbc_iv))

    def seal(self, plain: bytes) -> bytes:
        """Payload (after the data flags) of a server DATA packet carrying `plain`."""
        data = plain + (self.integrity.compute(plain) if self.integrity else b"")
        pad = (-len(data)) % 16
        enc = self._cipher().encryptor()
        return enc.update(data + bytes(pad)) + enc.finalize() + bytes((pad + 1, int(self.folded)))

    def open(self, payload: bytes, auth_key: bytes = b"") -> bytes:
        """Plaintext of a client DATA payload (after the data flags); the first packet
        with a non-zero folding-key byte makes the server fold `auth_key` in."""
        if len(payload) <= 1:
            return payload
        if payload[-1] and not self.folded:
            self.fold_in(auth_key)
        body = payload[:-1]                       # the folding-key byte
        pad = body[-1]
        ct = body[:-1]
        if len(ct) % 16 or not 1 <= pad <= 16:
            raise ValueError(f"NNE: bad ciphertext length {len(ct)} / pad byte {pad}")
        dec = self._cipher().decryptor()
        data = dec.update(ct) + dec.finalize()
        data = data[:len(data) - (pad - 1)]
        if self.integrity:
            data = self.integrity.validate(data)
        return data

    def max_plain(self, sdu: int) -> int:
        """Largest plaintext a DATA packet of at most `sdu` bytes carries:
        10-byte header + 16-byte blocks of (plain + checksum) + pad byte + folding byte."""
        return ((sdu - 12) // 16) * 16 - self.checksum_bytes

    def reset(self):
        """Marker reset: the integrity streams re-initialise (the cipher has no state)."""
        if self.integrity:
            self.integrity.init()


def sealed_length(plain_len: int, checksum_bytes: int) -> int:
    """Payload bytes after the data flags for `plain_len` plaintext bytes."""
    n = plain_len + checksum_bytes
    return n + (-n) % 16 + 2


def pick(offered: list[int], wanted: int) -> int:
    if wanted not in offered:
        raise ValueError(f"client does not offer algorithm {wanted} (offered {offered})")
    return wanted
