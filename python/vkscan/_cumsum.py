"""vkscan.cumsum: numpy's cumsum rules on top of one device run."""

import numpy as np
from numpy.lib.stride_tricks import as_strided

from . import _arrays, _device, _vkscan

# numpy dtype -> the library's DataType name.
_TYPES = {
    np.dtype(np.float16): "FLOAT16",
    np.dtype(np.float32): "FLOAT32",
    np.dtype(np.float64): "FLOAT64",
    np.dtype(np.int32): "INT32",
    np.dtype(np.uint32): "UINT32",
    np.dtype(np.int64): "INT64",
    np.dtype(np.uint64): "UINT64",
}
_MAX_RANK = 8
_result_dtypes = {}


def result_dtype(in_dtype, dtype):
    """numpy's cumsum result dtype for an input of `in_dtype` and `dtype`
    (None: numpy's default, e.g. int64 for int32), if vkscan can scan it."""
    key = (in_dtype, dtype)
    found = _result_dtypes.get(key)
    if found is None:
        if dtype is not None and not dtype.isnative:
            raise TypeError(f"dtype: {dtype} is not in native byte order")
        try:
            found = np.cumsum(np.zeros(1, in_dtype), dtype=dtype).dtype
        except (TypeError, ValueError) as e:
            raise TypeError(f"dtype: {e}") from None
        if found not in _TYPES:
            given = "" if dtype is None else f" with dtype={dtype}"
            raise TypeError(f"dtype: numpy's cumsum of {in_dtype}{given} gives {found}, which "
                            "vkscan cannot scan (float16/32/64, int32/64, uint32/64)")
        _result_dtypes[key] = found
    return found


def _expressible(arr):
    """True when arr's layout is DML element strides (see scan.cpp)."""
    size = arr.itemsize
    return all(s >= 0 and s % size == 0 and s // size < 2**32 for s in arr.strides)


def _collapse(x, o, axis):
    """Views of x and o with size-1 dimensions dropped and neighbours that
    are one stretch in both merged (the same lines, fewer dimensions)."""
    dims = []
    for d, n in enumerate(x.shape):
        xs, os = x.strides[d], o.strides[d]
        if n == 1 and d != axis:
            continue
        if dims and d != axis and not dims[-1][3] and dims[-1][1] == xs * n and \
                dims[-1][2] == os * n:
            dims[-1] = (dims[-1][0] * n, xs, os, False)
        else:
            dims.append((n, xs, os, d == axis))
    shape = tuple(d[0] for d in dims)
    new_axis = [d[3] for d in dims].index(True)
    return (as_strided(x, shape, tuple(d[1] for d in dims)),
            as_strided(o, shape, tuple(d[2] for d in dims)), new_axis)


def _scan(device, x, o, axis, reverse, exclusive):
    """One run from x into o (same shape and dtype), copying only what DML
    strides cannot express."""
    if not _expressible(x):
        x = np.ascontiguousarray(x)
    if x.ndim > _MAX_RANK:
        x, o_view, axis_view = _collapse(x, o, axis)
        if x.ndim > _MAX_RANK:
            x = np.ascontiguousarray(x)
            target = np.empty(x.shape, x.dtype)
            _scan(device, x, target, axis_view, reverse, exclusive)
            np.copyto(o_view, target)
            return
        o, axis = o_view, axis_view
    if not _expressible(o):
        target = np.empty(o.shape, o.dtype)
        _vkscan.scan(device, x, target, axis, reverse, exclusive)
        np.copyto(o, target)
        return
    _vkscan.scan(device, x, o, axis, reverse, exclusive)


def cumsum(a, axis=None, dtype=None, out=None, exclusive=False, reverse=False, device=None):
    """Cumulative sum of the elements along an axis, on a Vulkan device.

    As numpy.cumsum, with the library's canonical summation order: float
    results are the same bits on every device and for every layout.

    a: a numpy array, a PyTorch CPU tensor, or any object numpy reads
        through DLPack or the array interface. The result is a torch tensor
        for a tensor, else a numpy array.
    axis: the axis to scan, negative counting from the end; None scans the
        flattened array (C order).
    dtype: the result's dtype (a numpy or torch dtype), numpy's default if
        None: float16/32/64 and 64-bit integers keep theirs, smaller
        integers and bool give int64, smaller unsigned integers uint64.
        vkscan scans in the result's type: float16, float32, float64 (where
        the device has shaderFloat64), int32, uint32, int64, uint64;
        anything else raises TypeError. An input of another type is
        converted on the host first (a copy, as numpy casts), so int32 input
        is scanned as int64 unless dtype=np.int32 is given: the library has
        no wider outputs yet.
    out: an array (numpy or torch) of the result's shape and dtype to write
        into; it is returned. Any layout; others than DML strides can
        express (negative or unaligned strides) go through a copy.
    exclusive: leave each element out of its own sum (the first result is 0).
    reverse: sum from the last index down.
    device: a vkscan.Device; None uses one made on first use (Device()).

    Input and output strides are passed to the device as they are, so
    transposed, Fortran-ordered and sliced views are scanned without a copy
    (negative strides are copied). Integers wrap modulo 2^bits. The GIL is
    released while the device works.

    Raises ValueError (numpy.AxisError for an axis out of range) and
    TypeError naming the argument at fault, RuntimeError for a device
    failure.
    """
    dev = _device.resolve(device)
    x = _arrays.as_numpy(a, "a")
    want = None if dtype is None else _arrays.numpy_dtype(dtype, "dtype")
    rtype = result_dtype(x.dtype, want)
    if rtype == np.float64 and not dev.supports("FLOAT64"):
        raise TypeError("dtype: float64 needs shaderFloat64, which this device lacks")
    if x.ndim == 0:
        x = x.reshape(1)
    if axis is None:
        x = x.reshape(-1)
        ax = 0
    else:
        ax = _arrays.normalize_axis(axis, x.ndim)
    if x.dtype != rtype:
        x = x.astype(rtype)

    if out is None:
        o = np.empty(x.shape, rtype)
    else:
        o = _arrays.as_writable_numpy(out, "out")
        if o.shape != x.shape:
            raise ValueError(f"out: shape {o.shape} is not the result's {x.shape}")
        if o.dtype != rtype:
            raise TypeError(f"out: dtype {o.dtype} is not the result's {rtype} "
                            "(dtype= chooses the result's)")
        if not o.flags.writeable:
            raise ValueError("out: is read-only")
    if x.size != 0:
        _scan(dev, x, o, ax, bool(reverse), bool(exclusive))
    if out is not None:
        return out
    return _arrays.like_caller(o, a)
