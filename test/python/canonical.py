"""The library's canonical order (include/vkscan/vkscan.hpp), in numpy, as
test/lib/reference.cpp has it in C++: a radix-16 tree of serial folds, every
"+" one IEEE operation in the accumulation type, for each operation of the
scan family (SUM, PRODUCT, MAXIMUM, MINIMUM, LOG_SUM_EXP) with its identity in place of
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
    if op in ("MAXIMUM", "LOG_SUM_EXP"):
        return dtype.type(-np.inf) if floating else np.iinfo(dtype).min
    if op == "MINIMUM":
        return dtype.type(np.inf) if floating else np.iinfo(dtype).max
    return dtype.type(-0.0) if floating else dtype.type(0)


# Log-sum-exp's constants, as kernels/common.glsl and test/lib/reference.cpp
# have them: (cutoff, tiny, log2(e), 1.5 * 2^p, Cody-Waite ln 2 hi and lo),
# then exp's and log1p's polynomials.
_LSE = {
    np.float32: ((85.0, 2.0**-26, 1.4426950216293335, 12582912.0, 0.693145751953125,
                  1.428606765330187e-06),
                 (0.0001989126903936267, 0.0013933900045230985, 0.00833331048488617,
                  0.041666463017463684, 0.1666666716337204, 0.5),
                 (-0.001770662609487772, 0.011725340969860554, -0.03631710633635521,
                  0.07204850018024445, -0.10774867981672287, 0.13762709498405457,
                  -0.16563618183135986, 0.19987818598747253, -0.2499924600124359,
                  0.3333331346511841, -0.5)),
    np.float64: ((700.0, 2.0**-55, 1.4426950408889634, 6755399441055744.0,
                  6.93147180369123816490e-01, 1.90821492927058770002e-10),
                 (2.0914898727175524e-09, 2.5105513541847086e-08, 2.755727313289604e-07,
                  2.7557254685728803e-06, 2.480158732595111e-05, 0.0001984126987538548,
                  0.0013888888888883633, 0.008333333333325973, 0.04166666666666667,
                  0.1666666666666667, 0.5),
                 (1.507843780222621e-05, -0.0001818830325500265, 0.001043354876634814,
                  -0.0038046517253179694, 0.009968982838076882, -0.020179668043339125,
                  0.03327845491726436, -0.046798182549893104, 0.05858685252957079,
                  -0.06799320385322372, 0.07573035633807378, -0.08299931758127772,
                  0.09083470413958532, -0.09998705428075007, 0.11110938960467566,
                  -0.12499983019721868, 0.14285713092791552, -0.1666666661032813,
                  0.19999999998361212, -0.2499999999997462, 0.33333333333333176, -0.5)),
}


def log_sum_exp(a, b):
    """log(exp(a) + exp(b)) by the library's sequence of IEEE operations
    (kernels/common.glsl), elementwise in a's dtype (float32 or float64)."""
    with np.errstate(all="ignore"):
        return _log_sum_exp(a, b)


def _log_sum_exp(a, b):
    t = a.dtype.type
    consts, p_coeffs, r_coeffs = _LSE[t]
    cutoff, tiny, log2e, rnd, exp_hi, exp_lo = (t(c) for c in consts)
    one = t(1)
    a_first = a >= b
    m = np.where(a_first, a, b)
    o = np.where(a_first, b, a)
    d = m - o
    bb = d - m
    aa = d - bb
    dd = (m - aa) + (-o - bb)
    far = ~(d <= cutoff)
    zero = far | (d < tiny)
    x = np.where(zero, t(0), -d)
    dx = np.where(zero, t(0), dd)
    big = x * log2e + rnd
    kf = big - rnd
    r = (x - kf * exp_hi) - (kf * exp_lo + dx)
    poly = np.full_like(r, t(p_coeffs[0]))
    for c in p_coeffs[1:]:
        poly = poly * r + t(c)
    if t == np.float32:
        k = (big.view(np.uint32) - np.uint32(0x4B400000)).view(np.int32)
        scale = ((k + 127).astype(np.uint32) << 23).view(np.float32)
        nan = np.uint32(0x7FC00000).view(np.float32)
    else:
        k = (big.view(np.uint64) & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.int32)
        scale = ((k.astype(np.int64) + 1023).astype(np.uint64) << np.uint64(52)).view(np.float64)
        nan = np.uint64(0x7FF8000000000000).view(np.float64)
    e = (one + (r + r * (r * poly))) * scale
    ee = np.where(e < tiny, t(0), e)
    poly2 = np.full_like(ee, t(r_coeffs[0]))
    for c in r_coeffs[1:]:
        poly2 = poly2 * ee + t(c)
    l = e + ee * (ee * poly2)
    result = np.where(far, m, m + l)
    result = np.where((o == t(-np.inf)) | (m == t(np.inf)), m, result)
    return np.where(np.isnan(a) | np.isnan(b), nan, result)


def combine(op, earlier, later):
    """One "+" of the canonical order for `op`, elementwise. Maximum and
    minimum take the later operand on a tie, and a NaN always wins."""
    if op == "SUM":
        return earlier + later
    if op == "PRODUCT":
        return earlier * later
    if op == "LOG_SUM_EXP":
        return log_sum_exp(earlier, later)
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
