"""Generated hostile documents shared by bench_hostile.py and the tests."""
from __future__ import annotations

import random

CHIPS = ("A100", "H100", "V100", "H200", "B200")
ATTRIBUTES = (("FP32 performance", "TFLOPS"), ("memory bandwidth", "GB/s"), ("TDP", "W"),
              ("memory", "GB"), ("FP16 performance", "TFLOPS"))


def spec_sentences(size: int, seed: int = 1) -> str:
    """About ``size`` bytes of distinct spec sentences ("The NVIDIA {chip} {attribute} is
    {random figure} {unit}."): many claims per chip and attribute, most disagreeing."""
    rng = random.Random(seed)
    out, n = [], 0
    while n < size:
        attribute, unit = rng.choice(ATTRIBUTES)
        line = (f"The NVIDIA {rng.choice(CHIPS)} {attribute} is "
                f"{rng.randint(1, 5000)}.{rng.randint(0, 9)} {unit}.\n")
        out.append(line)
        n += len(line)
    return "".join(out)
