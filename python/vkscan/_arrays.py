"""The caller's kinds of array: numpy arrays, PyTorch CPU tensors, and other
objects through DLPack or the array interface. Results come back in the
caller's kind; torch is imported only when a tensor is passed.
"""

import operator

import numpy as np


def is_torch(obj):
    return type(obj).__module__.split(".")[0] == "torch"


def normalize_axis(axis, ndim):
    """`axis` (an integer, negative from the end) as 0 .. ndim-1, as numpy."""
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"axis: expected an integer or None, got {type(axis).__name__}") \
            from None
    if not -ndim <= axis < ndim:
        raise np.AxisError(axis, ndim, "axis")
    return axis % ndim


def _cpu_tensor(obj, field):
    if obj.device.type != "cpu":
        raise TypeError(f"{field}: a torch tensor on {obj.device}; vkscan takes CPU tensors")
    return obj.detach()


def is_torch_bfloat16(obj):
    """True for a torch.bfloat16 tensor, which numpy cannot view as such."""
    if not is_torch(obj):
        return False
    import torch

    return isinstance(obj, torch.Tensor) and obj.dtype == torch.bfloat16


def bfloat16_bits(obj, field):
    """A uint16 numpy view of a torch.bfloat16 tensor's bits (no copy)."""
    import torch

    return _cpu_tensor(obj, field).view(torch.int16).numpy().view(np.uint16)


def as_numpy(obj, field):
    """A numpy view of `obj` (no copy where its memory is numpy-readable)."""
    if isinstance(obj, np.ndarray):
        return obj
    if is_torch(obj):
        obj = _cpu_tensor(obj, field)
        import torch

        # DLPack (before version 0.8) has no bool; .numpy() shares the memory too.
        if isinstance(obj, torch.Tensor) and obj.dtype == torch.bool:
            return obj.numpy()
    if hasattr(obj, "__dlpack__"):
        try:
            return np.from_dlpack(obj)
        except (BufferError, TypeError, RuntimeError) as e:
            raise TypeError(f"{field}: not readable through DLPack: {e}") from None
    try:
        return np.asarray(obj)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{field}: not an array: {e}") from None


def as_writable_numpy(obj, field):
    """A writable numpy view of `obj` (an `out` argument)."""
    if isinstance(obj, np.ndarray):
        return obj
    if is_torch(obj):
        # DLPack hands numpy read-only views; .numpy() shares the tensor's memory.
        return _cpu_tensor(obj, field).numpy()
    raise TypeError(f"{field}: expected a numpy array or a torch tensor, "
                    f"got {type(obj).__name__}")


def numpy_dtype(dtype, field):
    """numpy's dtype for `dtype`, which may also be a torch.dtype."""
    if is_torch(dtype):
        import torch

        try:
            return torch.empty(0, dtype=dtype).numpy().dtype
        except TypeError:
            raise TypeError(f"{field}: {dtype} has no numpy type") from None
    try:
        return np.dtype(dtype)
    except TypeError as e:
        raise TypeError(f"{field}: {e}") from None


def like_caller(result, caller):
    """`result` (numpy) as the caller's kind: a torch tensor for a tensor."""
    if is_torch(caller):
        import torch

        try:
            return torch.from_numpy(result)
        except TypeError:
            raise TypeError(f"dtype: {result.dtype} has no torch type") from None
    return result
