"""The library's canonical summation order (include/vkscan/vkscan.hpp), in
numpy, as test/lib/reference.cpp has it in C++: a radix-16 tree of serial
sums, every "+" one IEEE addition in the accumulation type. Vectorised over
lines, serial within each group of 16, so its floats are the device's bits."""

import numpy as np

B = 16
_ACCUMULATION = {np.dtype(np.float16): np.float32, np.dtype(np.float32): np.float32,
                 np.dtype(np.float64): np.float64}


def _groups(v):
    """v (lines, m) padded with -0.0, the exact identity, to (lines, g, 16)."""
    lines, m = v.shape
    g = -(-m // B)
    padded = np.full((lines, g * B), -0.0, v.dtype)
    padded[:, :m] = v
    return padded.reshape(lines, g, B)


def _group_sums(v):
    groups = _groups(v)
    total = np.full(groups.shape[:2], -0.0, v.dtype)
    for j in range(B):
        total = total + groups[:, :, j]
    return total


def _group_prefixes(v, inclusive):
    """Serial sums of each element's group up to it (inclusive) or before it."""
    groups = _groups(v)
    out = np.empty_like(groups)
    running = np.full(groups.shape[:2], -0.0, v.dtype)
    for j in range(B):
        if inclusive:
            running = running + groups[:, :, j]
        out[:, :, j] = running
        if not inclusive:
            running = running + groups[:, :, j]
    return out.reshape(v.shape[0], -1)[:, :v.shape[1]]


def _spread(carry, m):
    """carry[p // 16] for p < m."""
    return np.repeat(carry, B, axis=1)[:, :m]


def scan_lines(x, exclusive):
    """The canonical scan of each row of x (lines, n), in its accumulation type."""
    levels = [x]
    while True:
        levels.append(_group_sums(levels[-1]))
        if levels[-1].shape[1] <= 1:
            break
    carry = np.full((x.shape[0], 1), -0.0, x.dtype)  # X at the top level
    for k in range(len(levels) - 2, 0, -1):
        carry = _spread(carry, levels[k].shape[1]) + _group_prefixes(levels[k], False)
    out = _spread(carry, x.shape[1]) + _group_prefixes(x, not exclusive)
    if exclusive:
        out[:, 0] = 0.0
    return out


def cumsum(a, axis, exclusive=False, reverse=False):
    """The library's float result for array `a` along `axis`, in a's dtype."""
    acc = _ACCUMULATION[a.dtype]
    moved = np.moveaxis(a, axis, -1)
    lines = moved.reshape(-1, moved.shape[-1]).astype(acc)
    if reverse:
        lines = lines[:, ::-1]
    out = scan_lines(np.ascontiguousarray(lines), exclusive) if lines.size else lines
    if reverse:
        out = out[:, ::-1]
    return np.moveaxis(out.astype(a.dtype).reshape(moved.shape), -1, axis)


def bits(a):
    """a's bytes as unsigned integers, for bit-for-bit comparison."""
    return np.ascontiguousarray(a).view(f"u{a.itemsize}")


def bfloat16_to_float32(a):
    """bfloat16 bits (uint16) as float32 values: exact, the top half."""
    return (np.asarray(a).astype(np.uint32) << 16).view(np.float32)


def float32_to_bfloat16(x):
    """float32 values as bfloat16 bits, rounded to nearest even; every NaN
    the quiet NaN 0x7FC0 of its sign (the library's rule)."""
    b = np.ascontiguousarray(x, np.float32).view(np.uint32)
    rounded = (b + np.uint32(0x7FFF) + ((b >> 16) & 1)) >> 16
    nan = ((b >> 16) & 0x8000) | 0x7FC0
    return np.where(np.isnan(x), nan, rounded).astype(np.uint16)


def cumsum_bfloat16(a, axis, exclusive=False, reverse=False):
    """The library's BFLOAT16 result for bits `a` (uint16) along `axis`."""
    return float32_to_bfloat16(cumsum(bfloat16_to_float32(a), axis, exclusive, reverse))
