"""vkscan.cumprod, cummax, cummin and logcumsumexp: every type bit for bit (floats against
the canonical order in canonical.py, integers against numpy), both modes,
strided layouts, bfloat16, and the dtype rules each takes from numpy.
Cases are few on purpose: each new (operation, type, mode) compiles
pipelines, which lavapipe does slowly."""

import numpy as np
import pytest

import canonical
import vkscan

TYPES = [np.float32, np.float16, np.float64, np.int32, np.uint32, np.int64, np.uint64]
FUNCTIONS = {"PRODUCT": vkscan.cumprod, "MAXIMUM": vkscan.cummax, "MINIMUM": vkscan.cummin}
NUMPY = {"PRODUCT": np.cumprod, "MAXIMUM": np.maximum.accumulate,
         "MINIMUM": np.minimum.accumulate}


def random_array(rng, op, dtype, shape):
    """Data that exercises `op`: float factors near +-1 whose products stay
    normal over hundreds of elements (denormals may flush) and round at
    every step; small floats with signed zeros and NaNs of both signs for
    maxima and minima, so ties and NaNs are frequent; integers of the full
    range (odd for products, which would otherwise soon wrap to 0)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f" and op == "PRODUCT":
        magnitude = np.exp(rng.normal(0.0, 0.1, shape))
        return (magnitude * rng.choice([-1.0, 1.0], shape)).astype(dtype)
    if dtype.kind == "f":
        values = rng.integers(-3, 4, shape).astype(dtype)
        pick = rng.integers(0, 64, shape)  # rare enough NaNs that most lines start without
        values[pick == 0] = np.nan
        values[pick == 1] = -np.nan
        values[(pick >= 2) & (pick < 10)] = -0.0
        return values
    info = np.iinfo(dtype)
    values = rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    return values | dtype.type(1) if op == "PRODUCT" else values


def expected(x, axis, op, exclusive=False, reverse=False):
    if x.dtype.kind == "f":
        return canonical.scan(x, axis, op, exclusive, reverse)
    moved = np.moveaxis(x, axis, 0)
    if reverse:
        moved = moved[::-1]
    out = NUMPY[op](moved, axis=0, dtype=x.dtype)
    if exclusive:
        first = np.full_like(out[:1], canonical.identity(op, x.dtype))
        out = np.concatenate([first, out[:-1]])
    if reverse:
        out = out[::-1]
    return np.moveaxis(out, 0, axis)


def assert_same(got, want, what):
    assert got.dtype == want.dtype and got.shape == want.shape, what
    assert np.array_equal(canonical.bits(got), canonical.bits(want)), what


@pytest.mark.parametrize("dtype", TYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("op", list(FUNCTIONS))
def test_every_type_bit_for_bit(device, rng, op, dtype):
    if np.dtype(dtype) == np.float64 and not device.supports("FLOAT64"):
        pytest.skip("the device lacks shaderFloat64")
    # 300 along the axis: three levels of the tree.
    a = random_array(rng, op, dtype, (3, 300, 2))
    got = FUNCTIONS[op](a, axis=1, dtype=dtype, device=device)
    assert_same(got, expected(a, 1, op), "axis 1")
    # A Fortran-ordered input into a strided output, exclusive and reverse.
    f = np.asfortranarray(a)
    out = np.zeros((6, 300, 2), dtype)[::2]
    assert FUNCTIONS[op](f, axis=0, dtype=dtype, out=out, exclusive=True, reverse=True,
                         device=device) is out
    assert_same(out, expected(a, 0, op, True, True), "axis 0, exclusive, reverse")


@pytest.mark.parametrize("op", list(FUNCTIONS))
def test_bfloat16_bits(device, rng, op):
    values = random_array(rng, op, np.float32, (2, 300))
    bits = canonical.float32_to_bfloat16(values)
    got = FUNCTIONS[op](bits, axis=1, exclusive=True, reverse=True, bfloat16=True,
                        device=device)
    assert got.dtype == np.uint16
    assert np.array_equal(got, canonical.scan_bfloat16(bits, 1, op, True, True))


def test_result_dtypes_follow_numpy(device):
    a = np.arange(1, 7, dtype=np.int32).reshape(2, 3)
    # numpy.cumprod widens as cumsum does; maximum/minimum.accumulate keep the type.
    for function, numpy_function in [(vkscan.cumprod, np.cumprod),
                                     (vkscan.cummax, np.maximum.accumulate),
                                     (vkscan.cummin, np.minimum.accumulate)]:
        for x, dtype in [(a, None), (a, np.float32), (a.astype(np.uint32), None)]:
            want = numpy_function(x, axis=1, dtype=dtype)
            got = function(x, axis=1, dtype=dtype, device=device)
            assert got.dtype == want.dtype and np.array_equal(got, want), (function, x.dtype)
    assert vkscan.cumprod(np.int32(5), device=device).tolist() == [5]
    # Axis None flattens in C order, as numpy.
    f = np.asfortranarray(a)
    assert np.array_equal(vkscan.cummax(f, device=device), np.maximum.accumulate(f.ravel()))


def test_reject_what_numpy_would_give_and_vkscan_cannot_scan(device):
    # bool, int8, int16, uint8 and uint16 are scanned (test_small_types.py).
    with pytest.raises(TypeError,
                       match=r"^dtype: numpy's maximum.accumulate of complex64 gives complex64"):
        vkscan.cummax(np.zeros(3, np.complex64), device=device)
    with pytest.raises(TypeError,
                       match=r"^dtype: numpy's minimum.accumulate of float32 with dtype=float"):
        vkscan.cummin(np.zeros(3, np.float32), dtype=np.longdouble, device=device)
    assert vkscan.cummin(np.zeros(3, np.int8), dtype=np.int32, device=device).dtype == np.int32
    with pytest.raises(TypeError, match=r"^out: dtype int64 is not the result's int32"):
        vkscan.cummax(np.zeros(3, np.int32), out=np.zeros(3, np.int64), device=device)
    from vkscan import _vkscan

    a = np.zeros(3, np.float32)
    with pytest.raises(ValueError, match=r"^operation: 'MEAN' is not SUM, PRODUCT"):
        _vkscan.scan(device, a, np.empty_like(a), 0, False, False, False, "MEAN")


def test_in_place_and_empty(device, rng):
    a = random_array(rng, "MAXIMUM", np.int64, (4, 33))
    want = np.maximum.accumulate(a, axis=1)
    assert vkscan.cummax(a, axis=1, out=a, device=device) is a
    assert np.array_equal(a, want)
    assert vkscan.cumprod(np.zeros((3, 0), np.float32), axis=1, device=device).shape == (3, 0)


def lse_array(rng, dtype, shape):
    """Values in [-30, 30], a quarter of them ties on a grid of halves, with
    -inf (the identity) and gaps past the cutoff (-1000)."""
    values = rng.uniform(-30.0, 30.0, shape)
    pick = rng.integers(0, 64, shape)
    values[pick < 16] = (pick[pick < 16] % 8) / 2.0 - 2.0
    values[pick == 16] = -np.inf
    values[pick == 17] = -1000.0
    return values.astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64],
                         ids=lambda t: np.dtype(t).name)
def test_logcumsumexp_bit_for_bit(device, rng, dtype):
    if np.dtype(dtype) == np.float64 and not device.supports("FLOAT64"):
        pytest.skip("the device lacks shaderFloat64")
    a = lse_array(rng, dtype, (3, 300, 2))
    a[1, 100, 0] = np.nan  # the positive quiet NaN from there on
    a[2, 50, 1] = np.inf
    got = vkscan.logcumsumexp(a, axis=1, device=device)
    assert_same(got, expected(a, 1, "LOG_SUM_EXP"), "axis 1")
    assert np.isnan(got[1, 100:, 0]).all() and np.isposinf(got[2, 50:, 1]).all()
    f = np.asfortranarray(a)
    out = np.zeros((6, 300, 2), dtype)[::2]
    assert vkscan.logcumsumexp(f, axis=0, out=out, exclusive=True, reverse=True,
                               device=device) is out
    assert_same(out, expected(a, 0, "LOG_SUM_EXP", True, True), "axis 0, exclusive, reverse")
    assert np.isneginf(out[-1]).all()


def test_logcumsumexp_bfloat16_bits(device, rng):
    bits = canonical.float32_to_bfloat16(lse_array(rng, np.float32, (2, 300)))
    got = vkscan.logcumsumexp(bits, axis=1, exclusive=True, reverse=True, bfloat16=True,
                              device=device)
    assert got.dtype == np.uint16
    assert np.array_equal(got, canonical.scan_bfloat16(bits, 1, "LOG_SUM_EXP", True, True))


def test_logcumsumexp_takes_floats_only(device):
    a = np.arange(-3, 3, dtype=np.int32)
    with pytest.raises(TypeError, match=r"^a: logcumsumexp takes float arrays .* not int32"):
        vkscan.logcumsumexp(a, device=device)
    got = vkscan.logcumsumexp(a, dtype=np.float32, device=device)
    assert_same(got, canonical.scan(a.astype(np.float32), 0, "LOG_SUM_EXP"), "dtype=float32")
    # The library refuses integers too, naming the field.
    from vkscan import _vkscan

    with pytest.raises(ValueError, match=r"input.dataType: INT32 is not a float type"):
        _vkscan.scan(device, a, np.empty_like(a), 0, False, False, False, "LOG_SUM_EXP")
