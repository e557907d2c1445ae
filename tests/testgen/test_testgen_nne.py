"""Unit tests of the scripted server's native network encryption (sqlnetgen/nne.py,
the NNE parts of sqlnetgen/ano.py).

Evidence: published test vectors (FIPS-197 appendix C.3 for AES-256, the
classic RC4 "Key"/"Plaintext" vector), the packet layout go-ora v2.9.0 writes
and reads (network/security/general.go: zero padding to 16 bytes plus one byte
= pad count + 1; network/data_packet.go: one 0x00 folding-key byte after it),
and a Diffie-Hellman computation done here on the client's side.  That go-ora
accepts what the server seals is shown by the committed nne_goora captures
(tests/test_nne.py)."""

import random
import struct
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "testgen"))

from sqlnetgen import ano, nne  # noqa: E402


def h(s: str) -> bytes:
    return bytes.fromhex(s.replace(" ", ""))


def session(key=bytes(range(32)), integrity=0):
    return nne.NneSession(17, integrity, key + bytes(256 - len(key)), bytes(16))


def test_aes256_block_fips197():
    """FIPS-197 C.3: key 00..1f, plaintext 00112233..ff -> 8ea2b7ca...; with the
    all-zero IV the first CBC block is the bare AES block; a full block gets no
    padding, so the trailer is 01 (pad count 0 + 1) and the folding byte 00."""
    sealed = session().seal(h("00112233445566778899aabbccddeeff"))
    assert sealed == h("8ea2b7ca516745bfeafc49904b496089") + b"\x01\x00"


@pytest.mark.parametrize("n, sealed_len, pad_byte", [(0, 2, 1), (5, 18, 12), (16, 18, 1),
                                                      (17, 34, 16), (18, 34, 15), (3072, 3074, 1)])
def test_sealed_layout(n, sealed_len, pad_byte):
    """go-ora's layout: ciphertext of the zero-padded plaintext, pad count + 1, 0x00."""
    s = session()
    sealed = s.seal(bytes(range(256)) * (n // 256) + bytes(range(n % 256)))
    assert len(sealed) == sealed_len == nne.sealed_length(n, 0)
    assert sealed[-2:] == bytes((pad_byte, 0))
    assert s.open(sealed) == bytes(range(256)) * (n // 256) + bytes(range(n % 256))


def test_cbc_restarts_every_packet():
    """go-ora builds a new CBC encrypter from the same IV for every packet: the same
    plaintext twice gives the same ciphertext twice."""
    s = session()
    assert s.seal(b"abc") == s.seal(b"abc")


def test_max_plain_fills_the_sdu():
    """Largest plaintext per packet: 10-byte header, whole 16-byte blocks, 2 trailer bytes."""
    for integ, size in ((0, 0), (3, 20), (5, 32)):
        s = session(integrity=integ)
        n = s.max_plain(8192)
        assert 10 + nne.sealed_length(n, size) <= 8192 < 10 + nne.sealed_length(n + 16, size)
    assert session().max_plain(8192) == 8176


def test_rc4_vector():
    assert nne._RC4(b"Key").stream(9) == bytes(a ^ b for a, b in zip(h("bbf316e8d940af0ad3"), b"Plaintext"))


def test_diffie_hellman_shared_secret():
    """The client side computed here from the server's public key gives the same
    2048-bit secret as the server's side from the client's public key."""
    dh = nne.DiffieHellman(random.Random(1))
    x = random.Random(2).getrandbits(2047)
    client_pub = pow(2, x, nne.DH_PRIME).to_bytes(256, "big")
    want = pow(int.from_bytes(dh.public, "big"), x, nne.DH_PRIME).to_bytes(256, "big")
    assert dh.shared(client_pub) == want
    with pytest.raises(ValueError):
        dh.shared(bytes(256))


def test_ano_reply_with_key_exchange():
    """The data-integrity service of the reply: 8 sub-packets as go-ora reads them
    (version, ub1 algorithm, ub2 bits twice, generator, prime, public key, IV), the
    public key and the prime of (bits + 7) // 8 bytes; encryption's ub1 = 17."""
    dh = nne.DiffieHellman(random.Random(1))
    r = ano.ano_reply(b"", 17, 5, dh, bytes(16))
    assert struct.unpack(">IH", r[:6]) == (0xDEADBEEF, len(r))
    svc = ano.parse_services(r)
    assert [t for t, _ in svc[ano.ENCRYPTION]] == [5, 2] and svc[ano.ENCRYPTION][1][1] == b"\x11"
    integ = svc[ano.DATAINTEGRITY]
    assert [t for t, _ in integ] == [5, 2, 3, 3, 1, 1, 1, 1]
    assert integ[1][1] == b"\x05" and integ[2][1] == integ[3][1] == struct.pack(">H", 2048)
    assert len(integ[5][1]) == len(integ[6][1]) == (2048 + 7) // 8
    assert int.from_bytes(integ[4][1], "big") == 2 and integ[7][1] == bytes(16)


def test_client_public_key_packet():
    """go-ora's second ANO packet: header, service 3 with one sub-packet, the key."""
    key = bytes(range(256))
    body = struct.pack(">HHI", 3, 1, 0) + struct.pack(">HH", 256, 1) + key
    pkt = struct.pack(">IHIHB", 0xDEADBEEF, 13 + len(body), 0x0B200200, 1, 0) + body
    assert ano.client_public_key(pkt) == key


def test_key_schedule_rule():
    """JDBC (ClientProfile.setANOVersion) keeps the legacy schedule for a peer below 23:
    go-ora sends 11.2.0.2 (0x0B200200), ojdbc11 23.26 sends 0x17A00000 (its ANO
    request in nne_jdbc.pcapng)."""
    assert nne.weak_crypto(0x0B200200) and nne.weak_crypto(0x13000000)
    assert not nne.weak_crypto(0x17A00000) and not nne.weak_crypto(0x17400000)


@pytest.mark.parametrize("strong", [False, True])
def test_fold_in(strong):
    """After O5LOGON the combo key is XORed into the session key (legacy: over its
    length; strong: into bytes 0..31 and 32..63, the IV being bytes 32..47); the
    packets then carry folding-key byte 1.  Checked against an AES-CBC computed here
    from the folded key."""
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    shared = bytes(range(256))
    combo = bytes(range(100, 132))
    s = nne.NneSession(17, 0, shared, bytes(16), strong)
    assert s.seal(b"x" * 16)[-1] == 0
    s.fold_in(combo)
    key = bytes(a ^ b for a, b in zip(shared[:32], combo))
    iv = bytes(a ^ b for a, b in zip(shared[32:48], combo)) if strong else bytes(16)
    enc = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    assert s.seal(b"x" * 16) == enc.update(b"x" * 16) + enc.finalize() + b"\x01\x01"
