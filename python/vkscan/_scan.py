"""vkscan.cumsum, cumprod, cummax, cummin and logcumsumexp: numpy's rules for
its cumsum, cumprod, maximum/minimum.accumulate and logaddexp.accumulate on
top of one device run."""

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
# Result dtypes the library has no type for -> the type they are scanned in:
# inputs convert to it exactly, and the results convert back exactly.
# Maxima and minima select input values (an exclusive scan's identity, the
# wider type's extreme, clips to the narrow type's own); sums and products
# wrap modulo 2^32, which narrowing reduces to numpy's modulo 2^bits; a bool
# sum (numpy: logical or) counts Trues, which a line of fewer than 2^32
# elements cannot wrap to 0, and a bool product (logical and) is 0 or 1.
_CARRIERS = {
    np.dtype(np.bool_): np.dtype(np.uint32),
    np.dtype(np.int8): np.dtype(np.int32),
    np.dtype(np.int16): np.dtype(np.int32),
    np.dtype(np.uint8): np.dtype(np.uint32),
    np.dtype(np.uint16): np.dtype(np.uint32),
}
# Input dtype -> the wider result dtypes the device converts to itself
# (vkscan::outputTypeWidens()): no host copy.
_WIDENS = {
    (np.dtype(np.int32), np.dtype(np.int64)),
    (np.dtype(np.uint32), np.dtype(np.uint64)),
    (np.dtype(np.float16), np.dtype(np.float32)),
    (np.dtype(np.float32), np.dtype(np.float64)),
}
# The library's operation -> numpy's function with the same result dtype:
# sums and products widen small integers, maxima and minima keep the type.
_NUMPY = {
    "SUM": ("cumsum", np.cumsum),
    "PRODUCT": ("cumprod", np.cumprod),
    "MAXIMUM": ("maximum.accumulate", np.maximum.accumulate),
    "MINIMUM": ("minimum.accumulate", np.minimum.accumulate),
    "LOG_SUM_EXP": ("logaddexp.accumulate", np.logaddexp.accumulate),
}
_result_dtypes = {}


def result_dtype(in_dtype, dtype, operation="SUM"):
    """numpy's result dtype for `operation` (its cumsum, cumprod or
    maximum/minimum.accumulate) of an input of `in_dtype` and `dtype` (None:
    numpy's default, e.g. int64 for the cumsum of int32), if vkscan can scan
    it."""
    key = (in_dtype, dtype, operation)
    found = _result_dtypes.get(key)
    if found is None:
        if dtype is not None and not dtype.isnative:
            raise TypeError(f"dtype: {dtype} is not in native byte order")
        # numpy's logaddexp makes float64 of integers; vkscan, as torch, takes
        # floats only, and converts only when dtype= asks.
        if operation == "LOG_SUM_EXP" and (in_dtype if dtype is None else dtype).kind != "f":
            raise TypeError(f"a: logcumsumexp takes float arrays (float16/32/64, bfloat16), "
                            f"not {in_dtype} (dtype= converts first)")
        name, function = _NUMPY[operation]
        try:
            found = function(np.zeros(1, in_dtype), dtype=dtype).dtype
        except (TypeError, ValueError) as e:
            raise TypeError(f"dtype: {e}") from None
        if found not in _TYPES and found not in _CARRIERS:
            given = "" if dtype is None else f" with dtype={dtype}"
            raise TypeError(f"dtype: numpy's {name} of {in_dtype}{given} gives {found}, which "
                            "vkscan cannot scan (float16/32/64, int8/16/32/64, uint8/16/32/64, "
                            "bool; dtype= chooses one)")
        _result_dtypes[key] = found
    return found


def _carried(x, rtype):
    """x converted for a scan whose result is rtype: as numpy casts it to
    rtype, then to rtype's carrier (_CARRIERS); x itself where the device
    converts it (_WIDENS) or it is of rtype already."""
    carrier = _CARRIERS.get(rtype)
    if carrier is None:
        return x if x.dtype == rtype or (x.dtype, rtype) in _WIDENS else x.astype(rtype)
    if not np.can_cast(x.dtype, rtype):
        x = x.astype(rtype)
    return x.astype(carrier)


def _narrow_into(o, wide, op):
    """The carrier's result `wide` converted exactly into o (_CARRIERS)."""
    if o.dtype != np.bool_ and op in ("MAXIMUM", "MINIMUM"):
        info = np.iinfo(o.dtype)
        np.clip(wide, info.min, info.max, out=wide)
    np.copyto(o, wide, casting="unsafe")


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


def _scan(device, op, x, o, axis, reverse, exclusive, bfloat16=False):
    """One run of operation `op` from x into o (same shape; o's dtype x's
    or a wider one, _WIDENS), copying only what DML strides cannot express.
    bfloat16: x holds bfloat16 bits, and so does o unless it is float32."""
    if not _expressible(x):
        x = np.ascontiguousarray(x)
    if x.ndim > _MAX_RANK:
        x, o_view, axis_view = _collapse(x, o, axis)
        if x.ndim > _MAX_RANK:
            x = np.ascontiguousarray(x)
            target = np.empty(x.shape, o.dtype)
            _scan(device, op, x, target, axis_view, reverse, exclusive, bfloat16)
            np.copyto(o_view, target)
            return
        o, axis = o_view, axis_view
    if not _expressible(o):
        target = np.empty(o.shape, o.dtype)
        _vkscan.scan(device, x, target, axis, reverse, exclusive, bfloat16, op)
        np.copyto(o, target)
        return
    _vkscan.scan(device, x, o, axis, reverse, exclusive, bfloat16, op)


def _axis(x, axis):
    """x (flattened for axis None, at least 1-D) and the axis to scan."""
    if x.ndim == 0:
        x = x.reshape(1)
    if axis is None:
        return x.reshape(-1), 0
    return x, _arrays.normalize_axis(axis, x.ndim)


def _bfloat16_result(dtype):
    """'bfloat16' or 'float32' (a wider output): what dtype asks of a
    bfloat16 scan; TypeError for anything else."""
    if dtype is None:
        return "bfloat16"
    if isinstance(dtype, str) and dtype in ("bfloat16", "float32"):
        return dtype
    if _arrays.is_torch(dtype) and str(dtype) in ("torch.bfloat16", "torch.float32"):
        return str(dtype)[len("torch."):]
    if not _arrays.is_torch(dtype) and not isinstance(dtype, str):
        try:
            if np.dtype(dtype) == np.float32:
                return "float32"
        except TypeError:
            pass
    name = getattr(dtype, "__name__", dtype)
    raise TypeError(f"dtype: {name} for bfloat16 input; vkscan scans bfloat16 into bfloat16, "
                    "or into float32 (dtype=float32)")


def _scan_bfloat16(dev, op, a, axis, dtype, out, exclusive, reverse):
    """A scan of bfloat16 data: a torch.bfloat16 tensor, or with
    bfloat16=True a numpy array of its bits (uint16, int16 or 2-byte void).
    The result has the input's type, or float32 where dtype asks (the
    device widens)."""
    wide = _bfloat16_result(dtype) == "float32"
    tensor = _arrays.is_torch_bfloat16(a)
    x = _arrays.bfloat16_bits(a, "a") if tensor else _arrays.as_numpy(a, "a")
    if x.itemsize != 2 or x.dtype.kind not in "uiV" or x.dtype.byteorder == ">":
        raise TypeError(f"a: bfloat16=True takes 2-byte arrays of bfloat16 bits (uint16, "
                        f"int16 or void), got {x.dtype}")
    x, ax = _axis(x, axis)
    if out is None:
        o = np.empty(x.shape, np.float32 if wide else x.dtype)
    elif wide:
        o = _arrays.as_writable_numpy(out, "out")
        if o.dtype != np.float32:
            raise TypeError(f"out: dtype {o.dtype} is not the result's float32")
        if o.shape != x.shape:
            raise ValueError(f"out: shape {o.shape} is not the result's {x.shape}")
        if not o.flags.writeable:
            raise ValueError("out: is read-only")
    else:
        if _arrays.is_torch_bfloat16(out):
            o = _arrays.bfloat16_bits(out, "out")
        elif tensor or _arrays.is_torch(out):
            raise TypeError("out: a bfloat16 result needs a torch.bfloat16 tensor")
        else:
            o = _arrays.as_writable_numpy(out, "out")
            if o.itemsize != 2 or o.dtype.kind not in "uiV":
                raise TypeError(f"out: dtype {o.dtype} holds no bfloat16 bits")
        if o.shape != x.shape:
            raise ValueError(f"out: shape {o.shape} is not the result's {x.shape}")
        if not o.flags.writeable:
            raise ValueError("out: is read-only")
    if x.size != 0:
        _scan(dev, op, x, o, ax, bool(reverse), bool(exclusive), True)
    if out is not None:
        return out
    if tensor:
        import torch

        if wide:
            return torch.from_numpy(o)
        return torch.from_numpy(o.view(np.int16)).view(torch.bfloat16)
    return o


def cumsum(a, axis=None, dtype=None, out=None, exclusive=False, reverse=False, device=None,
           bfloat16=False):
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
        the device has shaderFloat64), int32, uint32, int64, uint64; an
        int8 or int16 result in int32, a bool, uint8 or uint16 one in
        uint32, converted back on the host exactly as numpy wraps (bool
        sums and products are numpy's logical or and and); anything else
        raises TypeError. The device widens int32 to int64, uint32 to
        uint64, float16 to float32 and float32 to float64 itself
        (so numpy's int64 cumsum of int32 needs no copy); an input of any
        other type is converted on the host first (a copy, as numpy casts).
    out: an array (numpy or torch) of the result's shape and dtype to write
        into; it is returned. Any layout; others than DML strides can
        express (negative or unaligned strides) go through a copy.
    exclusive: leave each element out of its own sum (the first result is 0).
    reverse: sum from the last index down.
    device: a vkscan.Device; None uses one made on first use (Device()).
    bfloat16: a holds bfloat16 bits (numpy has no bfloat16): a uint16,
        int16 or 2-byte void array, whose result is an array of the same
        dtype holding the bfloat16 sums (in FP32, rounded once to nearest
        even). Without it, such arrays are summed as the integers they are.
        A torch.bfloat16 tensor needs no flag: it gives a torch.bfloat16
        tensor. dtype must be None (or bfloat16) for bfloat16 input, or
        float32 for a float32 result summed from the bfloat16 values.

    Input and output strides are passed to the device as they are, so
    transposed, Fortran-ordered and sliced views are scanned without a copy
    (negative strides are copied). Integers wrap modulo 2^bits. The GIL is
    released while the device works.

    Raises ValueError (numpy.AxisError for an axis out of range) and
    TypeError naming the argument at fault, RuntimeError for a device
    failure.
    """
    return _run("SUM", a, axis, dtype, out, exclusive, reverse, device, bfloat16)


def cumprod(a, axis=None, dtype=None, out=None, exclusive=False, reverse=False, device=None,
            bfloat16=False):
    """Cumulative product of the elements along an axis, on a Vulkan device.

    As numpy.cumprod (and ONNX's CumProd with exclusive and reverse), with
    cumsum's arguments and rules, result dtypes included (int32 gives int64
    unless dtype= keeps it): the canonical order of vkscan.cumsum with
    multiplications, so float results are the same bits on every device.
    Integers wrap modulo 2^bits; float16 and bfloat16 multiply in float32,
    rounded once on store.

    exclusive: leave each element out of its own product (the first result
        is 1).
    reverse: multiply from the last index down.
    """
    return _run("PRODUCT", a, axis, dtype, out, exclusive, reverse, device, bfloat16)


def cummax(a, axis=None, dtype=None, out=None, exclusive=False, reverse=False, device=None,
           bfloat16=False, indices=False):
    """Cumulative maximum of the elements along an axis, on a Vulkan device.

    The values of torch.cummax: a tie goes to the later element (-0.0
    against +0.0 too) and a NaN always wins, the latest one propagating
    (numpy.maximum.accumulate gives the same values, but may keep another
    NaN or zero's sign). Exact, whatever the order.

    Takes cumsum's arguments and rules, except that the result keeps the
    input's dtype, as numpy's and torch's do (dtype= converts first). int8
    and int16 are scanned as int32, bool, uint8 and uint16 as uint32, and
    converted back exactly on the host (a maximum is an input value).

    exclusive: leave each element out of its own maximum (the first result
        is the identity: -inf for floats, the type's least value for
        integers).
    reverse: scan from the last index down.
    indices: also return torch.cummax's indices: (values, indices), the
        indices int64 (a torch tensor for a tensor), each element's index
        along the axis of the element its value was taken from (the latest
        maximal one, or the latest NaN). Not with exclusive.
    """
    return _run("MAXIMUM", a, axis, dtype, out, exclusive, reverse, device, bfloat16, indices)


def cummin(a, axis=None, dtype=None, out=None, exclusive=False, reverse=False, device=None,
           bfloat16=False, indices=False):
    """Cumulative minimum of the elements along an axis, on a Vulkan device.

    As cummax, with minima: torch.cummin's values (and with indices=True its
    indices), ties to the later element, NaNs winning.

    exclusive: leave each element out of its own minimum (the first result
        is the identity: +inf for floats, the type's greatest value for
        integers).
    reverse: scan from the last index down.
    """
    return _run("MINIMUM", a, axis, dtype, out, exclusive, reverse, device, bfloat16, indices)


def _prepared(dev, op, a, axis, dtype):
    """a as a numpy array (flattened for axis None), the axis to scan and
    the result's dtype by numpy's rules, which the device must support."""
    x = _arrays.as_numpy(a, "a")
    want = None if dtype is None else _arrays.numpy_dtype(dtype, "dtype")
    rtype = result_dtype(x.dtype, want, op)
    if rtype == np.float64 and not dev.supports("FLOAT64"):
        raise TypeError("dtype: float64 needs shaderFloat64, which this device lacks")
    x, ax = _axis(x, axis)
    return x, ax, rtype


def _with_indices(dev, op, a, axis, dtype, out, exclusive, reverse, bfloat16):
    """cummax's or cummin's values and indices, in one run into C-ordered
    arrays (the indices take the values' strides), copied into `out`."""
    if exclusive:
        raise ValueError("indices: an exclusive scan has none (neither has torch's cummax)")
    if bfloat16 or _arrays.is_torch_bfloat16(a):
        raise TypeError("indices: not computed for bfloat16 input")
    x, ax, rtype = _prepared(dev, op, a, axis, dtype)
    if x.ndim > _MAX_RANK:
        raise ValueError(f"a: {x.ndim} dimensions; indices are computed for at most {_MAX_RANK}")
    # The library computes no indices with a wider output: the host widens.
    scan_type = _CARRIERS.get(rtype, rtype)
    x = np.ascontiguousarray(_carried(x, rtype), dtype=scan_type)
    o = np.empty(x.shape, scan_type)
    idx = np.empty(x.shape, np.int64)
    if x.size != 0:
        _vkscan.scan(dev, x, o, ax, bool(reverse), False, False, op, idx)
    if scan_type != rtype:
        narrow = np.empty(o.shape, rtype)
        _narrow_into(narrow, o, op)
        o = narrow
    if out is None:
        return _arrays.like_caller(o, a), _arrays.like_caller(idx, a)
    target = _arrays.as_writable_numpy(out, "out")
    if target.shape != o.shape:
        raise ValueError(f"out: shape {target.shape} is not the result's {o.shape}")
    if target.dtype != rtype:
        raise TypeError(f"out: dtype {target.dtype} is not the result's {rtype}")
    np.copyto(target, o)
    return out, _arrays.like_caller(idx, a)


def logcumsumexp(a, axis=None, dtype=None, out=None, exclusive=False, reverse=False,
                 device=None, bfloat16=False):
    """Cumulative log-sum-exp of the elements along an axis, on a Vulkan
    device: log(exp(a[0]) + ... + exp(a[i])), as torch.logcumsumexp (and
    numpy.logaddexp.accumulate).

    Float types only (float16, float32, float64, bfloat16): an integer
    array raises TypeError unless dtype= names a float type to convert to
    first. Takes cumsum's other arguments and rules; the result keeps the
    (converted) input's dtype. Each step is log(exp(x) + exp(y)) from IEEE
    additions and multiplications in the canonical order, so results are
    the same bits on every device; float16 and bfloat16 in float32, rounded
    once on store. Within a few ulp of torch.logcumsumexp (include/vkscan/
    vkscan.hpp states the bound).

    exclusive: leave each element out of its own result (the first result
        is the identity, -inf).
    reverse: scan from the last index down.
    """
    return _run("LOG_SUM_EXP", a, axis, dtype, out, exclusive, reverse, device, bfloat16)


def _run(op, a, axis, dtype, out, exclusive, reverse, device, bfloat16, indices=False):
    """The five functions' common body, for the library's operation `op`."""
    dev = _device.resolve(device)
    if indices:
        return _with_indices(dev, op, a, axis, dtype, out, exclusive, reverse, bfloat16)
    if bfloat16 or _arrays.is_torch_bfloat16(a):
        return _scan_bfloat16(dev, op, a, axis, dtype, out, exclusive, reverse)
    x, ax, rtype = _prepared(dev, op, a, axis, dtype)
    x = _carried(x, rtype)

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
        if rtype in _CARRIERS:
            wide = np.empty(x.shape, x.dtype)
            _scan(dev, op, x, wide, ax, bool(reverse), bool(exclusive))
            _narrow_into(o, wide, op)
        else:
            _scan(dev, op, x, o, ax, bool(reverse), bool(exclusive))
    if out is not None:
        return out
    return _arrays.like_caller(o, a)
