"""Bad input raises ValueError or TypeError naming the argument at fault,
and leaves `out` untouched."""

import numpy as np
import pytest

import vkscan


@pytest.fixture
def a():
    return np.arange(12, dtype=np.float32).reshape(3, 4)


@pytest.mark.parametrize("kwargs, error, field", [
    (dict(axis=2), np.AxisError, "axis"),
    (dict(axis=-3), np.AxisError, "axis"),
    (dict(axis=1.5), TypeError, "axis"),
    (dict(axis="0"), TypeError, "axis"),
    (dict(dtype=np.complex64), TypeError, "dtype"),
    (dict(dtype=np.longdouble), TypeError, "dtype"),
    (dict(dtype=">f4"), TypeError, "dtype"),
    (dict(dtype="no such type"), TypeError, "dtype"),
    (dict(out=np.zeros((4, 3), np.float32)), ValueError, "out"),
    (dict(out=np.zeros((3, 4), np.float64)), TypeError, "out"),
    (dict(out=np.broadcast_to(np.float32(0), (3, 4))), ValueError, "out"),
    (dict(out=[0] * 12), TypeError, "out"),
    (dict(device="lavapipe"), TypeError, "device"),
])
def test_reject_argument(device, a, kwargs, error, field):
    kwargs.setdefault("device", device)
    kwargs.setdefault("axis", 1)
    with pytest.raises(error, match=rf"^{field}\b"):
        vkscan.cumsum(a, **kwargs)


def test_reject_types_vkscan_cannot_scan(device):
    for x in (np.zeros(3, np.complex64), np.array(["a", "b"]), np.zeros(3, object),
              np.zeros(3, "datetime64[s]")):
        with pytest.raises(TypeError, match=r"^dtype\b"):
            vkscan.cumsum(x, device=device)


def test_reject_out_that_overlaps_itself(device, a):
    base = np.zeros(8, np.float32)
    out = np.lib.stride_tricks.as_strided(base, (3, 4), (4, 4))  # rows overlap
    with pytest.raises(ValueError, match=r"output\.strides"):
        vkscan.cumsum(a, axis=1, out=out, device=device)
    assert not base.any()


def test_reject_a_device_index_past_the_devices():
    with pytest.raises(ValueError, match=r"deviceIndex"):
        vkscan.Device(index=len(vkscan.devices()))


def test_native_layer_names_the_field(device, a):
    from vkscan import _vkscan

    with pytest.raises(ValueError, match=r"^a\.strides\[0\]"):
        _vkscan.scan(device, a[::-1], np.empty_like(a), 1, False, False)
    with pytest.raises(TypeError, match=r"^out: dtype"):
        _vkscan.scan(device, a, np.empty(a.shape, np.int16), 1, False, False)
    with pytest.raises(ValueError, match=r"^out: is read-only"):
        _vkscan.scan(device, a, np.broadcast_to(a, a.shape), 1, False, False)
