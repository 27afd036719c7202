"""Exact comparison, on the device, of the tensors two forward runs passed to the kernels.

Run as a script in a fresh interpreter (it imports torch)::

    python forward_equal.py ORIGINAL.pt REWRITTEN.pt PAIRS.json RESULT.json DEVICE

``*.pt`` hold the tensors each measurement child kept, keyed by SHA-256; ``PAIRS.json``
lists ``[original sha, rewritten sha, what]``. Every pair is loaded onto the device and
compared bit for bit (``torch.equal`` on their bytes); where two tensors differ, the maximum absolute
difference is reported.
"""

from __future__ import annotations

import json
import sys


def _bits(tensor):
    """The tensor's bytes, so that equal NaNs compare equal: bit-identical, not ==."""
    import torch  # noqa: PLC0415 - torch only in the child process

    flat = tensor.contiguous().reshape(-1)
    return flat if flat.dtype == torch.bool else flat.view(torch.uint8)


def main(argv) -> int:
    import torch  # noqa: PLC0415 - torch only in the child process

    orig_path, rew_path, pairs_path, out_path, device = argv[1:6]
    orig = torch.load(orig_path, map_location="cpu")
    rew = torch.load(rew_path, map_location="cpu")
    with open(pairs_path, encoding="utf-8") as fh:
        pairs = json.load(fh)
    checked = equal = 0
    missing, differing = [], []
    seen = set()
    for a, b, what in pairs:
        if (a, b) in seen:
            continue
        seen.add((a, b))
        if a not in orig or b not in rew:
            missing.append(what)
            continue
        x, y = orig[a].to(device), rew[b].to(device)
        checked += 1
        if x.shape == y.shape and x.dtype == y.dtype and torch.equal(_bits(x), _bits(y)):
            equal += 1
            continue
        entry = {"what": what}
        if x.shape == y.shape and x.is_floating_point():
            entry["max_abs_diff"] = float((x.float() - y.float()).abs().max().item())
        differing.append(entry)
    result = {
        "device": device,
        "pairs": len(seen),
        "checked": checked,
        "equal": equal,
        "missing": len(missing),
        "missing_examples": missing[:5],
        "differing": differing[:20],
    }
    with open(out_path, "w", encoding="utf-8") as fh:
        json.dump(result, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
