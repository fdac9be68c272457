"""The process's default device, made on first use.

One per process: a device holds a Vulkan instance and its pipelines, which
every call should share. Worker processes (Dask) each make their own.
"""

import threading

from . import _vkscan

_lock = threading.Lock()
_default = None


def default_device():
    """The device vkscan.cumsum uses when given none: Device() made once."""
    global _default
    with _lock:
        if _default is None:
            _default = _vkscan.Device()
        return _default


def resolve(device):
    """`device` if it is a vkscan.Device, the default device for None."""
    if device is None:
        return default_device()
    if not isinstance(device, _vkscan.Device):
        raise TypeError(f"device: expected a vkscan.Device or None, got {type(device).__name__}")
    return device
