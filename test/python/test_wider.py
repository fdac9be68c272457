"""Wider results the device computes itself (vkscan::outputTypeWidens()):
int32 to int64, uint32 to uint64, float16 and bfloat16 to float32, float32
to float64, with no host conversion; bit for bit against the canonical
order of the converted input (canonical.py) and exact where the input's
type would wrap or round."""

import numpy as np
import pytest

import canonical
import vkscan

WIDENINGS = [(np.int32, np.int64), (np.uint32, np.uint64), (np.float16, np.float32),
             (np.float32, np.float64)]


@pytest.mark.parametrize("wide", WIDENINGS, ids=lambda w: f"{np.dtype(w[0])}-{np.dtype(w[1])}")
def test_each_widening_bit_for_bit(device, rng, wide):
    small, large = wide
    if np.dtype(large) == np.float64 and not device.supports("FLOAT64"):
        pytest.skip("the device lacks shaderFloat64")
    if np.dtype(small).kind == "f":
        a = rng.standard_normal((3, 300, 2)).astype(small)
    else:
        info = np.iinfo(small)
        a = rng.integers(info.min, info.max, size=(3, 300, 2), dtype=small, endpoint=True)
    got = vkscan.cumsum(a, axis=1, dtype=large, device=device)
    assert got.dtype == large
    converted = a.astype(large)
    if np.dtype(large).kind == "f":
        want = canonical.cumsum(converted, 1)
    else:
        want = np.cumsum(converted, axis=1)
    assert np.array_equal(canonical.bits(got), canonical.bits(want))
    # A Fortran input into a strided output, exclusive and reversed.
    out = np.zeros((6, 300, 2), large)[::2]
    vkscan.cumsum(np.asfortranarray(a), axis=0, dtype=large, out=out, exclusive=True,
                  reverse=True, device=device)
    if np.dtype(large).kind == "f":
        want = canonical.cumsum(converted, 0, True, True)
    else:
        want = np.flip(np.cumsum(np.flip(converted, 0), axis=0), 0) - converted
    assert np.array_equal(canonical.bits(out), canonical.bits(want))


def test_numpys_default_int64_cumsum_of_int32_is_exact(device):
    # numpy sums int32 as int64: the device widens, the sum passes 2^31.
    a = np.full((2, 5000), 2**30 + 3, np.int32)
    got = vkscan.cumsum(a, axis=1, device=device)
    assert got.dtype == np.int64
    assert np.array_equal(got, np.cumsum(a, axis=1))
    assert got[0, -1] == 5000 * (2**30 + 3)


def test_bfloat16_into_float32(device, rng):
    values = rng.integers(-4, 5, (2, 3000)).astype(np.float32)
    bits = canonical.float32_to_bfloat16(values)
    got = vkscan.cumsum(bits, axis=1, dtype=np.float32, bfloat16=True, device=device)
    assert got.dtype == np.float32
    # Small integers: exact in float32, where bfloat16 (8 bits) would round.
    assert np.array_equal(got, np.cumsum(values, axis=1))
    with pytest.raises(TypeError, match=r"^dtype: .*float32"):
        vkscan.cumsum(bits, axis=1, dtype=np.float64, bfloat16=True, device=device)


def test_torch_bfloat16_into_float32(device):
    torch = pytest.importorskip("torch")
    t = torch.ones(4000, dtype=torch.bfloat16)
    got = vkscan.cumsum(t, dtype=torch.float32, device=device)
    assert got.dtype == torch.float32
    # bfloat16 stops counting at 256; float32 does not.
    assert torch.equal(got, torch.arange(1, 4001, dtype=torch.float32))
