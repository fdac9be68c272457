"""PyTorch CPU tensors in and out: a tensor gives a tensor, as torch.cumsum
would (its dtype rules are numpy's: integers widen to int64)."""

import numpy as np
import pytest

import canonical
import vkscan

torch = pytest.importorskip("torch")


def test_tensor_in_tensor_out(device):
    t = torch.arange(-20, 40, dtype=torch.int32).reshape(3, 20)
    for dim in (0, 1, -1):
        got = vkscan.cumsum(t, axis=dim, device=device)
        assert isinstance(got, torch.Tensor)
        assert got.dtype == torch.int64 and torch.equal(got, torch.cumsum(t, dim))
    got = vkscan.cumsum(t, axis=1, dtype=torch.int32, device=device)
    assert torch.equal(got, torch.cumsum(t, 1, dtype=torch.int32))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.float64])
def test_float_tensors_are_the_canonical_bits(device, dtype):
    gen = torch.Generator().manual_seed(7)
    t = torch.randn(4, 300, generator=gen).to(dtype)
    for view in (t, t.T, t[:, ::3], t.T[::2]):  # strided views, no copy
        for dim in (0, 1):
            got = vkscan.cumsum(view, axis=dim, device=device)
            assert got.dtype == dtype
            want = canonical.cumsum(view.numpy(), dim)
            assert np.array_equal(canonical.bits(got.numpy()), canonical.bits(want))
            torch.testing.assert_close(got.double(), torch.cumsum(view.double(), dim),
                                       rtol=1e-2, atol=1e-2)


def test_out_tensor_and_autograd_input(device):
    t = torch.randn(5, 6, requires_grad=True)
    out = torch.empty(6, 5).T  # a transposed output, written through its strides
    assert vkscan.cumsum(t, axis=0, out=out, exclusive=True, reverse=True, device=device) is out
    want = torch.flip(torch.cumsum(torch.flip(t.detach(), [0]), 0), [0]) - t.detach()
    torch.testing.assert_close(out, want)


def test_numpy_in_with_torch_dtype(device):
    a = np.arange(10, dtype=np.int64)
    got = vkscan.cumsum(a, dtype=torch.int32, device=device)
    assert isinstance(got, np.ndarray) and got.dtype == np.int32


def test_bfloat16_tensors_are_the_canonical_bits(device):
    gen = torch.Generator().manual_seed(8)
    t = torch.randn(4, 300, generator=gen).to(torch.bfloat16)

    def bits(x):
        return x.view(torch.int16).numpy().view(np.uint16)

    for view in (t, t.T, t[:, ::3]):  # strided views, no copy
        for dim in (0, 1):
            got = vkscan.cumsum(view, axis=dim, device=device)
            assert got.dtype == torch.bfloat16
            assert np.array_equal(bits(got), canonical.cumsum_bfloat16(bits(view), dim))
            torch.testing.assert_close(got.double(), torch.cumsum(view.double(), dim),
                                       rtol=5e-2, atol=5e-2)
    out = torch.empty(300, 4, dtype=torch.bfloat16).T
    assert vkscan.cumsum(t, axis=1, out=out, exclusive=True, device=device) is out
    assert np.array_equal(bits(out), canonical.cumsum_bfloat16(bits(t), 1, exclusive=True))


def test_reject_tensors_vkscan_cannot_take(device):
    with pytest.raises(TypeError, match=r"^dtype: torch.float32 for bfloat16 input"):
        vkscan.cumsum(torch.zeros(3, dtype=torch.bfloat16), dtype=torch.float32, device=device)
    with pytest.raises(TypeError, match=r"^dtype"):
        vkscan.cumsum(torch.zeros(3), dtype=torch.bfloat16, device=device)
    with pytest.raises(TypeError, match=r"^dtype: uint32 has no torch type"):
        vkscan.cumsum(torch.zeros(3), dtype=np.uint32, device=device)
