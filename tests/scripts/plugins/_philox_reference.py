"""A host reference of Philox4x32-10 (pure Python integers), used by the
plugin tests to check the philox plugin bit for bit on every backend."""
import math

M0, M1 = 0xD2511F53, 0xCD9E8D57
W0, W1 = 0x9E3779B9, 0xBB67AE85
MASK = 0xFFFFFFFF


def philox4x32_10(key, counter):
    k0, k1 = key & MASK, (key >> 32) & MASK
    c = [counter & MASK, (counter >> 32) & MASK, 0, 0]
    for _ in range(10):
        p0 = M0 * c[0]
        p1 = M1 * c[2]
        hi0, lo0 = p0 >> 32, p0 & MASK
        hi1, lo1 = p1 >> 32, p1 & MASK
        c = [hi1 ^ c[1] ^ k0, lo1, hi0 ^ c[3] ^ k1, lo0]
        k0 = (k0 + W0) & MASK
        k1 = (k1 + W1) & MASK
    return c


def uniform(key, counter):
    return (philox4x32_10(key, counter)[0] >> 8) * (1.0 / 16777216.0)


def normal(key, counter):
    w = philox4x32_10(key, counter)
    u1 = (w[0] + 1.0) / 4294967296.0
    u2 = w[1] / 4294967296.0
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(6.283185307179586 * u2)
