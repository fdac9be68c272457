"""vkscan: cumulative sums, products, maxima, minima and log-sum-exps on a
Vulkan device, with numpy's rules and float results that are the same bits
on every device (see the C++ header vkscan/vkscan.hpp for the canonical
order).

    cumsum(a, axis=None, dtype=None, out=None, exclusive=False, reverse=False, device=None,
           bfloat16=False)
    cumprod(...), cummax(...), cummin(...)   the same arguments; cummax and
                     cummin return torch.cummax's and torch.cummin's values
                     (no indices)
    logcumsumexp(...) the same arguments, float types only: torch.logcumsumexp
    devices()        the physical devices Vulkan lists
    info(device)     a device's properties, features and plans
    Device(...)      a device of vkscan's own (one is made on first use)
    vkscan.dask      cumsum for dask arrays (import vkscan.dask; needs dask)
"""

from ._device import resolve as _resolve
from ._scan import cummax, cummin, cumprod, cumsum, logcumsumexp
from ._vkscan import Device, devices

__all__ = ["Device", "cummax", "cummin", "cumprod", "cumsum", "devices", "info", "logcumsumexp"]


def info(device=None):
    """A dict of the device's name, type, driver, Vulkan version, features,
    plans and validation counters; the default device for None."""
    return _resolve(device).info()
