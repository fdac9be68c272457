#!/usr/bin/python3
"""Calling overhead of vkscan.cumsum next to numpy.cumsum: the median of many
calls on a small array (1,000 FLOAT32 elements by default), where the device
round trip, not the sum, is the cost; and the native layer alone (one run(),
without the package's numpy rules). Run with the build's package:

    PYTHONPATH=build/python /usr/bin/python3 tools/python/overhead.py [--n 1000]
"""

import argparse
import statistics
import time

import numpy as np

import vkscan
from vkscan import _vkscan


def median_us(f, calls):
    f()  # the first call creates the operator and its pipelines
    times = []
    for _ in range(calls):
        start = time.perf_counter_ns()
        f()
        times.append(time.perf_counter_ns() - start)
    return statistics.median(times) / 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[1000], help="elements")
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    device = vkscan.Device()
    print(f"device: {vkscan.info(device)['name']}")
    print(f"{'n':>10} {'vkscan.cumsum us':>17} {'run() alone us':>15} {'numpy.cumsum us':>16} "
          f"{'ratio':>6}")
    for n in args.n:
        a = np.random.default_rng(0).standard_normal(n).astype(np.float32)
        out = np.empty_like(a)
        ours = median_us(lambda: vkscan.cumsum(a, out=out, device=device), args.calls)
        native = median_us(lambda: _vkscan.scan(device, a, out, 0, False, False), args.calls)
        theirs = median_us(lambda: np.cumsum(a, out=out), args.calls)
        print(f"{n:>10} {ours:>17.1f} {native:>15.1f} {theirs:>16.1f} {ours / theirs:>6.1f}")


if __name__ == "__main__":
    main()
