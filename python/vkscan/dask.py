"""vkscan.dask.cumsum and cumprod: cumulative sums and products of a dask
array, each chunk scanned by vkscan wherever dask runs it (a worker process
makes its own device).

Chunks compose as dask.array.cumsum composes them: each chunk is scanned
alone, then the carry of the chunks before it along the axis (their scans'
last values, added in order) is added to it, on the host
(dask.array.reductions.cumreduction with `+`, or `*` for products). The
library has no carry-in yet, so integers are exact (wrapping as numpy's do)
and floats are those of that chunked composition, within the usual
rounding of numpy.cumsum; they are the canonical bits of vkscan.cumsum
only when the axis is one chunk.
"""

import operator

from dask.array.reductions import cumreduction

from . import _arrays
from ._scan import cumprod as _cumprod
from ._scan import cumsum as _cumsum
from ._scan import result_dtype


def _chunk_cumsum(x, axis):
    # x is already of the result's type (map_blocks keeps dtype= to itself).
    return _cumsum(x, axis=axis, dtype=x.dtype)


def _chunk_cumprod(x, axis):
    return _cumprod(x, axis=axis, dtype=x.dtype)


def cumsum(x, axis=None, dtype=None, exclusive=False, reverse=False):
    """As vkscan.cumsum for a dask.array.Array `x`, lazily: a dask array of
    the same chunks (one chunk per block of the flattened array for
    axis=None). reverse flips the axis around the scan; exclusive shifts
    the inclusive result by one along the axis (out[0] = 0), so its floats
    follow the inclusive composition's. Raises as vkscan.cumsum for a dtype
    or axis it refuses, when the graph is built."""
    return _compose("SUM", x, axis, dtype, exclusive, reverse)


def cumprod(x, axis=None, dtype=None, exclusive=False, reverse=False):
    """As vkscan.cumprod for a dask.array.Array `x`, lazily, composed as
    cumsum is with products (exclusive: out[0] = 1)."""
    return _compose("PRODUCT", x, axis, dtype, exclusive, reverse)


def _compose(op, x, axis, dtype, exclusive, reverse):
    """The chunked scan of `op` ("SUM" or "PRODUCT"), as dask composes it."""
    scan, combine, identity = {"SUM": (_chunk_cumsum, operator.add, 0),
                               "PRODUCT": (_chunk_cumprod, operator.mul, 1)}[op]
    want = None if dtype is None else _arrays.numpy_dtype(dtype, "dtype")
    rtype = result_dtype(x.dtype, want, op)
    if axis is None:
        x = x.flatten().rechunk(chunks=x.npartitions)
        axis = 0
    axis = _arrays.normalize_axis(axis, x.ndim)
    flip = (slice(None),) * axis + (slice(None, None, -1),)
    if reverse:
        x = x[flip]
    result = cumreduction(scan, combine, identity, x.astype(rtype), axis, rtype)
    if exclusive:
        import dask.array as da

        first = (slice(None),) * axis + (slice(0, 1),)
        shifted = (slice(None),) * axis + (slice(None, -1),)
        result = da.concatenate([da.full_like(result[first], identity), result[shifted]],
                                axis=axis)
        result = result.rechunk(x.chunks)
    if reverse:
        result = result[flip]
    return result
