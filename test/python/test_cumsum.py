"""vkscan.cumsum against numpy.cumsum: every type, rank 1 to 8, every axis,
C and Fortran order and strided views; integers exact, floats bit for bit
against the canonical order (canonical.py)."""

import numpy as np
import pytest

import canonical
import vkscan

TYPES = [np.float32, np.float16, np.float64, np.int32, np.uint32, np.int64, np.uint64]
LAYOUTS = ["C", "F", "view"]
# Axis lengths around the tree's levels: within a group, one past it, past 16^2.
AXIS_LENGTHS = [5, 16, 17, 40, 257]


def random_array(rng, dtype, shape):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return rng.standard_normal(shape).astype(dtype)
    info = np.iinfo(dtype)  # full range: sums wrap
    return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)


def shape_for(rng, rank, axis, case):
    # At most 64 lines, so that rank 8 stays small.
    shape = []
    lines = 1
    for d in range(rank):
        if d == axis:
            shape.append(AXIS_LENGTHS[case % len(AXIS_LENGTHS)])
        else:
            n = int(rng.integers(1, 4)) if lines < 32 else 1
            lines *= n
            shape.append(n)
    return tuple(shape)


def laid_out(rng, a, layout):
    """a's values in the layout: a copy in C or Fortran order, or a view of
    every second element of a larger array, its dimensions reversed."""
    if layout == "C":
        return np.ascontiguousarray(a)
    if layout == "F":
        return np.asfortranarray(a)
    reversed_dims = a.transpose(tuple(range(a.ndim))[::-1])
    base = random_array(rng, a.dtype, tuple(2 * n for n in reversed_dims.shape))
    view = base[(slice(None, None, 2),) * a.ndim]
    view[...] = reversed_dims
    return view.transpose(tuple(range(a.ndim))[::-1])


def output_for(a, layout):
    """An output array of the layout (None: let cumsum make one); a view's
    gaps hold a pattern that must survive."""
    if layout == "C":
        return None
    if layout == "F":
        return np.empty(a.shape, a.dtype, order="F")
    base = np.full(tuple(2 * n for n in a.shape), 7, a.dtype)
    return base[(slice(1, None, 2),) * a.ndim]


def expected(x, axis, exclusive=False, reverse=False):
    if x.dtype.kind == "f":
        return canonical.cumsum(x, axis, exclusive, reverse)
    moved = np.moveaxis(x, axis, 0)
    if reverse:
        moved = moved[::-1]
    out = np.cumsum(moved, axis=0, dtype=x.dtype)
    if exclusive:
        out = np.concatenate([np.zeros_like(out[:1]), out[:-1]])
    if reverse:
        out = out[::-1]
    return np.moveaxis(out, 0, axis)


def assert_same(got, want, what):
    assert got.dtype == want.dtype, what
    assert got.shape == want.shape, what
    if got.dtype.kind == "f":
        assert np.array_equal(canonical.bits(got), canonical.bits(want)), what
    else:
        assert np.array_equal(got, want), what


@pytest.mark.parametrize("dtype", TYPES, ids=lambda t: np.dtype(t).name)
def test_every_rank_axis_and_layout(device, rng, dtype):
    if np.dtype(dtype) == np.float64 and not device.supports("FLOAT64"):
        pytest.skip("the device lacks shaderFloat64")
    case = 0
    for rank in range(1, 9):
        for axis in range(rank):
            a = random_array(rng, dtype, shape_for(rng, rank, axis, case))
            want = expected(a, axis)
            for layout in LAYOUTS:
                x = laid_out(rng, a, layout)
                out = output_for(a, layout)
                what = f"{np.dtype(dtype).name} shape {a.shape} axis {axis} layout {layout}"
                got = vkscan.cumsum(x, axis=axis - rank if case % 2 else axis, dtype=dtype,
                                    out=out, device=device)
                assert_same(np.asarray(got), want, what)
                if layout == "view":
                    gaps = out.base.copy()
                    gaps[(slice(1, None, 2),) * rank] = 7
                    assert (gaps == 7).all(), what + ": bytes between elements changed"
            case += 1


@pytest.mark.parametrize("dtype", TYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("reverse", [False, True], ids=["forward", "reverse"])
@pytest.mark.parametrize("exclusive", [False, True], ids=["inclusive", "exclusive"])
def test_exclusive_and_reverse(device, rng, dtype, reverse, exclusive):
    if np.dtype(dtype) == np.float64 and not device.supports("FLOAT64"):
        pytest.skip("the device lacks shaderFloat64")
    a = random_array(rng, dtype, (3, 300, 2))
    for axis in range(3):
        got = vkscan.cumsum(a, axis=axis, dtype=dtype, exclusive=exclusive, reverse=reverse,
                            device=device)
        assert_same(got, expected(a, axis, exclusive, reverse), f"axis {axis}")


@pytest.mark.parametrize("layout", LAYOUTS)
def test_bfloat16_bits_with_the_opt_in(device, rng, layout):
    # numpy has no bfloat16: its bits as uint16, and bfloat16=True.
    bits = canonical.float32_to_bfloat16(rng.standard_normal((3, 300, 2)).astype(np.float32))
    a = laid_out(rng, bits, layout)
    for axis in range(3):
        for exclusive, reverse in [(False, False), (True, True)]:
            got = vkscan.cumsum(a, axis=axis, out=output_for(a, layout), exclusive=exclusive,
                                reverse=reverse, bfloat16=True, device=device)
            assert got.dtype == np.uint16
            want = canonical.cumsum_bfloat16(a, axis, exclusive, reverse)
            assert np.array_equal(got, want), f"axis {axis}"
    # Raw 2-byte records come back as such; without the flag uint16 is an integer.
    raw = vkscan.cumsum(bits.view("V2"), axis=1, bfloat16=True, device=device)
    assert raw.dtype == np.dtype("V2")
    assert np.array_equal(raw.view(np.uint16), canonical.cumsum_bfloat16(bits, 1))
    assert vkscan.cumsum(bits, axis=1, device=device).dtype == np.uint64
    with pytest.raises(TypeError, match=r"^a: bfloat16=True takes 2-byte arrays"):
        vkscan.cumsum(np.zeros(3, np.float32), bfloat16=True, device=device)
    with pytest.raises(TypeError, match=r"^dtype: float64 for bfloat16 input"):
        vkscan.cumsum(bits, dtype=np.float64, bfloat16=True, device=device)


def test_floats_near_numpy(device, rng):
    # The canonical order's rounding, not another sum.
    a = rng.standard_normal((4, 5000)).astype(np.float32)
    got = vkscan.cumsum(a, axis=1, device=device)
    np.testing.assert_allclose(got, np.cumsum(a.astype(np.float64), axis=1), rtol=1e-4,
                               atol=1e-4)


def test_numpy_dtype_rules(device):
    a = np.arange(1, 7, dtype=np.int32).reshape(2, 3)
    for x, dtype in [(a, None), (a.astype(np.uint32), None), (a.astype(np.int8), None),
                     (a > 2, None), (a, np.float32), (a.astype(np.float64), np.int32),
                     (a.astype(np.float32), np.float16)]:
        want = np.cumsum(x, axis=1, dtype=dtype)
        got = vkscan.cumsum(x, axis=1, dtype=dtype, device=device)
        assert got.dtype == want.dtype and np.array_equal(got, want), (x.dtype, dtype)


def test_axis_none_flattens_in_c_order(device):
    a = np.asfortranarray(np.arange(24, dtype=np.int64).reshape(2, 3, 4))
    assert np.array_equal(vkscan.cumsum(a, device=device), np.cumsum(a))
    assert np.array_equal(vkscan.cumsum(np.int64(5), device=device), np.cumsum(np.int64(5)))


def test_rank_past_eight_collapses(device, rng):
    a = rng.integers(-9, 9, size=(2, 1, 3, 1, 2, 2, 1, 2, 3, 2), dtype=np.int64)
    for axis in (0, 4, 9):
        assert np.array_equal(vkscan.cumsum(a, axis=axis, device=device), np.cumsum(a, axis))
    # Strides that merge nowhere go through a contiguous copy.
    view = a.transpose(9, 0, 8, 2, 7, 4, 5, 1, 6, 3)
    assert np.array_equal(vkscan.cumsum(view, axis=1, device=device), np.cumsum(view, axis=1))


def test_layouts_that_need_a_copy(device, rng):
    a = rng.integers(-9, 9, size=(5, 6), dtype=np.int64)
    for x in (a[::-1], a[:, ::-2], np.broadcast_to(a[:1], (4, 6))):
        assert np.array_equal(vkscan.cumsum(x, axis=1, device=device), np.cumsum(x, axis=1))
    out = np.zeros((6, 5), np.int64)[::-1].T  # negative strides in out
    vkscan.cumsum(a, axis=0, out=out, device=device)
    assert np.array_equal(out, np.cumsum(a, axis=0))
    raw = np.zeros(4 * 30 + 1, np.uint8)[1:].view(np.int32).reshape(5, 6)  # unaligned
    raw[...] = a
    assert np.array_equal(vkscan.cumsum(raw, axis=0, dtype=np.int32, device=device),
                          np.cumsum(raw, axis=0, dtype=np.int32))


def test_in_place(device, rng):
    a = rng.integers(-9, 9, size=(4, 33), dtype=np.int64)
    want = np.cumsum(a, axis=1)
    assert vkscan.cumsum(a, axis=1, out=a, device=device) is a
    assert np.array_equal(a, want)
    square = rng.integers(-9, 9, size=(5, 5), dtype=np.int64)
    want = np.cumsum(square, axis=0)
    vkscan.cumsum(square, axis=0, out=square.T, device=device)  # same pointer, other strides
    assert np.array_equal(square.T, want)


def test_empty(device):
    for shape in [(0,), (3, 0), (0, 4)]:
        a = np.zeros(shape, np.float32)
        assert vkscan.cumsum(a, axis=-1, device=device).shape == shape


def test_default_device_and_info(device):
    a = np.arange(100, dtype=np.uint32)
    assert np.array_equal(vkscan.cumsum(a), np.cumsum(a, dtype=np.uint64))
    assert any(d["usable"] for d in vkscan.devices())
    info = vkscan.info(device)
    assert info["name"] and info["plans"]
    assert isinstance(info["compute_full_subgroups"], bool)
    # Lavapipe offers VK_EXT_subgroup_size_control, which vkscan's own devices enable.
    if info["driver"] == "llvmpipe":
        assert info["compute_full_subgroups"]
