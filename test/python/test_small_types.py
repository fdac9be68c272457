"""bool, int8, int16, uint8 and uint16, which the library has no type for:
vkscan scans them as int32 or uint32 and converts back on the host. cummax
and cummin keep the input's dtype (numpy's maximum/minimum.accumulate,
torch.cummax's values and indices); cumsum and cumprod follow numpy's
promotion (int64 or uint64 unless dtype= is given, then wrapping as numpy
does). Against numpy, and against torch where it is importable."""

import numpy as np
import pytest

import vkscan

SMALL = [np.bool_, np.int8, np.int16, np.uint8, np.uint16]
SELECT = {"max": (vkscan.cummax, np.maximum.accumulate),
          "min": (vkscan.cummin, np.minimum.accumulate)}
ACCUMULATE = {"sum": (vkscan.cumsum, np.cumsum), "prod": (vkscan.cumprod, np.cumprod)}


def full_range(rng, dtype, shape):
    """The type's whole range (so signed order and wrapping show), or
    True and False."""
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, shape, endpoint=True).astype(dtype)


def tied(rng, dtype, shape):
    """Few distinct values, so that ties are everywhere, including the
    type's extremes."""
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    info = np.iinfo(dtype)
    return rng.choice(np.array([info.min, 0, 1, 2, info.max], dtype), shape)


def reference_indices(a, axis, maximum):
    """torch.cummax's (cummin's) indices: the latest extreme element's."""
    a = np.moveaxis(a, axis, -1)
    out = np.empty(a.shape, np.int64)
    for line in np.ndindex(a.shape[:-1]):
        best = 0
        for i in range(a.shape[-1]):
            later, current = a[line + (i,)], a[line + (best,)]
            if (later >= current) if maximum else (later <= current):
                best = i
            out[line + (i,)] = best
    return np.moveaxis(out, -1, axis)


@pytest.mark.parametrize("dtype", SMALL, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("name", SELECT)
def test_cummax_cummin_keep_the_dtype(device, rng, name, dtype):
    ours, numpys = SELECT[name]
    a = full_range(rng, dtype, (3, 700))
    for axis in (0, 1, -1, None):
        got = ours(a, axis=axis, device=device)
        want = numpys(a.ravel() if axis is None else a, axis=0 if axis is None else axis)
        assert got.dtype == np.dtype(dtype) and np.array_equal(got, want), axis
    # Reversed, Fortran-ordered, into a strided out.
    f = np.asfortranarray(a)
    out = np.zeros((700, 6), dtype)[:, ::2].T
    assert ours(f, axis=1, reverse=True, out=out, device=device) is out
    assert np.array_equal(out, numpys(a[:, ::-1], axis=1)[:, ::-1])
    assert np.array_equal(ours(a, axis=1, dtype=dtype, device=device), numpys(a, axis=1))


@pytest.mark.parametrize("dtype", SMALL, ids=lambda t: np.dtype(t).name)
def test_exclusive_starts_from_the_types_own_identity(device, dtype):
    a = np.array([[1, 0, 1, 1]], dtype)
    least, greatest = (False, True) if dtype == np.bool_ else \
        (np.iinfo(dtype).min, np.iinfo(dtype).max)
    got = vkscan.cummax(a, axis=1, exclusive=True, device=device)
    assert got.dtype == np.dtype(dtype) and got.tolist() == [[least, 1, 1, 1]]
    got = vkscan.cummin(a, axis=1, exclusive=True, reverse=True, device=device)
    assert got.tolist() == [[0, 1, 1, greatest]]


@pytest.mark.parametrize("dtype", SMALL, ids=lambda t: np.dtype(t).name)
def test_indices_are_the_latest_extremes(device, rng, dtype):
    a = tied(rng, dtype, (4, 300))
    for name, maximum in (("max", True), ("min", False)):
        values, indices = SELECT[name][0](a, axis=1, indices=True, device=device)
        assert values.dtype == np.dtype(dtype) and indices.dtype == np.int64
        assert np.array_equal(values, SELECT[name][1](a, axis=1))
        assert np.array_equal(indices, reference_indices(a, 1, maximum)), name
        values, indices = SELECT[name][0](a.T, axis=0, indices=True, device=device)
        assert np.array_equal(indices, reference_indices(a.T, 0, maximum)), name


@pytest.mark.parametrize("dtype", SMALL, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("name", ACCUMULATE)
def test_cumsum_cumprod_follow_numpys_promotion(device, rng, name, dtype):
    ours, numpys = ACCUMULATE[name]
    a = full_range(rng, dtype, (2, 300))
    if name == "prod" and dtype != np.bool_:
        a |= 1  # odd factors: the product wraps, never to 0
    # numpy's default (int64 or uint64), the input's own type (wrapping as
    # numpy's; bool: logical or / and), and another narrow type.
    for result in (None, dtype, np.int8, np.uint16, np.bool_):
        want = numpys(a, axis=1, dtype=result)
        got = ours(a, axis=1, dtype=result, device=device)
        assert got.dtype == want.dtype and np.array_equal(got, want), result
    got = ours(a, axis=1, dtype=dtype, reverse=True, exclusive=True, device=device)
    identity = np.ones if name == "prod" else np.zeros
    want = numpys(a[:, :0:-1], axis=1, dtype=dtype)[:, ::-1]
    assert np.array_equal(got, np.concatenate([want, identity((2, 1), dtype)], axis=1))


def test_conversions_into_a_narrow_dtype_are_numpys(device):
    # numpy converts to dtype= first (here values in the type's range, whose
    # conversion C defines), then scans in it.
    signed = np.array([[1.5, -2.7, 100.0, 3.25, -128.0, 127.9]], np.float32)
    unsigned = np.array([[1.5, 2.7, 200.0, 3.25, 0.0, 255.9]], np.float32)
    for a, dtype in ((signed, np.int8), (signed, np.int16), (signed, np.bool_),
                     (unsigned, np.uint8), (unsigned, np.uint16)):
        for ours, numpys in (*SELECT.values(), *ACCUMULATE.values()):
            want = numpys(a, axis=1, dtype=dtype)
            got = ours(a, axis=1, dtype=dtype, device=device)
            assert got.dtype == want.dtype and np.array_equal(got, want), (ours, dtype)
    wide = np.array([70000, -3, 2**40, 255], np.int64)
    assert np.array_equal(vkscan.cummax(wide, dtype=np.int16, device=device),
                          np.maximum.accumulate(wide, dtype=np.int16))
    with pytest.raises(TypeError, match=r"^out: dtype int32 is not the result's int8"):
        vkscan.cummax(np.zeros(3, np.int8), out=np.zeros(3, np.int32), device=device)


def test_torch_tensors_as_torchs_own(device, rng):
    torch = pytest.importorskip("torch")
    for dtype in (torch.bool, torch.int8, torch.int16, torch.uint8):
        t = torch.from_numpy(tied(rng, torch.empty(0, dtype=dtype).numpy().dtype, (3, 200)))
        for ours, theirs in ((vkscan.cummax, torch.cummax), (vkscan.cummin, torch.cummin)):
            for dim in (0, 1):
                values, indices = ours(t, axis=dim, indices=True, device=device)
                want = theirs(t, dim)
                assert isinstance(values, torch.Tensor) and values.dtype == dtype
                assert torch.equal(values, want.values), (theirs.__name__, dtype, dim)
                assert torch.equal(indices, want.indices), (theirs.__name__, dtype, dim)
                assert torch.equal(ours(t, axis=dim, device=device), want.values)
        if dtype != torch.uint8:
            # torch and numpy agree: int64 (numpy makes uint64 of uint8).
            assert torch.equal(vkscan.cumsum(t, axis=1, device=device), torch.cumsum(t, 1))
        for ours, theirs in ((vkscan.cumsum, torch.cumsum), (vkscan.cumprod, torch.cumprod)):
            if dtype != torch.bool:
                # torch wraps in the given type as numpy does.
                assert torch.equal(ours(t, axis=1, dtype=dtype, device=device),
                                   theirs(t, 1, dtype=dtype))
            assert torch.equal(ours(t, axis=1, dtype=torch.int64, device=device),
                               theirs(t, 1, dtype=torch.int64))
