"""The library's canonical order (include/vkscan/vkscan.hpp), in numpy, as
test/lib/reference.cpp has it in C++: a radix-16 tree of serial folds, every
"+" one IEEE operation in the accumulation type, for each operation of the
scan family (SUM, PRODUCT, MAXIMUM, MINIMUM) with its identity in place of
-0.0. Vectorised over lines, serial within each group of 16, so its floats
are the device's bits."""

import numpy as np

B = 16
_ACCUMULATION = {np.dtype(np.float16): np.float32, np.dtype(np.float32): np.float32,
                 np.dtype(np.float64): np.float64}


def identity(op, dtype):
    """The operation's identity in `dtype`: -0.0 (the exact additive
    identity) or 0, 1, -inf or the least integer, +inf or the greatest."""
    dtype = np.dtype(dtype)
    floating = dtype.kind == "f"
    if op == "PRODUCT":
        return dtype.type(1)
    if op == "MAXIMUM":
        return dtype.type(-np.inf) if floating else np.iinfo(dtype).min
    if op == "MINIMUM":
        return dtype.type(np.inf) if floating else np.iinfo(dtype).max
    return dtype.type(-0.0) if floating else dtype.type(0)


def combine(op, earlier, later):
    """One "+" of the canonical order for `op`, elementwise. Maximum and
    minimum take the later operand on a tie, and a NaN always wins."""
    if op == "SUM":
        return earlier + later
    if op == "PRODUCT":
        return earlier * later
    later_wins = later >= earlier if op == "MAXIMUM" else later <= earlier
    if earlier.dtype.kind == "f":
        later_wins = np.isnan(later) | (~np.isnan(earlier) & later_wins)
    return np.where(later_wins, later, earlier)


def _groups(v, op):
    """v (lines, m) padded with the identity to (lines, g, 16)."""
    lines, m = v.shape
    g = -(-m // B)
    padded = np.full((lines, g * B), identity(op, v.dtype), v.dtype)
    padded[:, :m] = v
    return padded.reshape(lines, g, B)


def _group_folds(v, op):
    groups = _groups(v, op)
    total = np.full(groups.shape[:2], identity(op, v.dtype), v.dtype)
    for j in range(B):
        total = combine(op, total, groups[:, :, j])
    return total


def _group_prefixes(v, op, inclusive):
    """Serial folds of each element's group up to it (inclusive) or before it."""
    groups = _groups(v, op)
    out = np.empty_like(groups)
    running = np.full(groups.shape[:2], identity(op, v.dtype), v.dtype)
    for j in range(B):
        if inclusive:
            running = combine(op, running, groups[:, :, j])
        out[:, :, j] = running
        if not inclusive:
            running = combine(op, running, groups[:, :, j])
    return out.reshape(v.shape[0], -1)[:, :v.shape[1]]


def _spread(carry, m):
    """carry[p // 16] for p < m."""
    return np.repeat(carry, B, axis=1)[:, :m]


def scan_lines(x, exclusive, op="SUM"):
    """The canonical scan of each row of x (lines, n), in its accumulation type."""
    with np.errstate(over="ignore", invalid="ignore"):
        levels = [x]
        while True:
            levels.append(_group_folds(levels[-1], op))
            if levels[-1].shape[1] <= 1:
                break
        carry = np.full((x.shape[0], 1), identity(op, x.dtype), x.dtype)  # X at the top level
        for k in range(len(levels) - 2, 0, -1):
            carry = combine(op, _spread(carry, levels[k].shape[1]),
                            _group_prefixes(levels[k], op, False))
        out = combine(op, _spread(carry, x.shape[1]), _group_prefixes(x, op, not exclusive))
    if exclusive:
        # DML's exclusive sum starts with +0.0; the other operations with their identity.
        out[:, 0] = 0 if op == "SUM" else identity(op, x.dtype)
    return out


def _quiet_half_nans(h):
    """Every FLOAT16 NaN as the quiet NaN of its sign, 0x7E00 (the library's rule)."""
    b = h.view(np.uint16)
    return np.where(np.isnan(h), (b & 0x8000) | 0x7E00, b).astype(np.uint16).view(np.float16)


def scan(a, axis, op="SUM", exclusive=False, reverse=False):
    """The library's result of operation `op` for array `a` along `axis`, in
    a's dtype: floats in their accumulation type, integers wrapping."""
    acc = _ACCUMULATION.get(a.dtype, a.dtype)
    moved = np.moveaxis(a, axis, -1)
    lines = moved.reshape(-1, moved.shape[-1]).astype(acc)
    if reverse:
        lines = lines[:, ::-1]
    out = scan_lines(np.ascontiguousarray(lines), exclusive, op) if lines.size else lines
    if reverse:
        out = out[:, ::-1]
    with np.errstate(over="ignore", invalid="ignore"):
        out = out.astype(a.dtype)
    if a.dtype == np.float16:
        out = _quiet_half_nans(out)
    return np.moveaxis(out.reshape(moved.shape), -1, axis)


def cumsum(a, axis, exclusive=False, reverse=False):
    """The library's float result for array `a` along `axis`, in a's dtype."""
    return scan(a, axis, "SUM", exclusive, reverse)


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


def scan_bfloat16(a, axis, op="SUM", exclusive=False, reverse=False):
    """The library's BFLOAT16 result of `op` for bits `a` (uint16) along `axis`."""
    return float32_to_bfloat16(scan(bfloat16_to_float32(a), axis, op, exclusive, reverse))


def cumsum_bfloat16(a, axis, exclusive=False, reverse=False):
    """The library's BFLOAT16 result for bits `a` (uint16) along `axis`."""
    return scan_bfloat16(a, axis, "SUM", exclusive, reverse)
