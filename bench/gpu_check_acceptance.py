"""Check a `deadinit gpu-check` JSON result against the GPU acceptance criteria on sglang 0.5.20.

    python bench/gpu_check_acceptance.py gpu_check.json

* every class builds in every tree;
* TRTLLMHAAttnBackend: each rewritten tree allocates >= 400 MiB less device memory and
  >= 32 MiB less pinned host memory than the original;
* FlashInferAttnBackend and FlashInferMLAAttnBackend: exactly the same bytes as before;
* in the direct-base tree, FlashInferAttnBackend is gone from TRTLLMHAAttnBackend's MRO;
* the original's figures are printed next to the reference figures measured on an
  H200 (shared/notes/gpu-check-facts.md); a difference is reported, not failed (the
  small index buffers depend on the stand-in's sizes).

Exit 1 when a criterion fails. In a validation run (original against itself) the
saving criteria become "saves exactly 0".
"""

from __future__ import annotations

import json
import sys

MIB = 1 << 20
REFERENCE_MIB = {  # torch.cuda.memory_allocated delta, H200, sglang 0.5.20 (facts note)
    "FlashInferAttnBackend": 416.25,
    "TRTLLMHAAttnBackend": 929.25,
    "FlashInferMLAAttnBackend": 416.00,
    "TRTLLMMLABackend": 566.50,
    "TokenspeedMLABackend": 566.50,
}
UNCHANGED = ("FlashInferAttnBackend", "FlashInferMLAAttnBackend")


def fmt(b):
    return "-" if b is None else f"{b / MIB:.2f}"


def main(path: str) -> int:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    labels = [t["label"] for t in data["trees"][1:]]
    validation = labels == ["unmodified"] or all(t["path"] == data["trees"][0]["path"] for t in data["trees"][1:])
    failures, lines = [], []

    def need(ok, text):
        lines.append(("PASS " if ok else "FAIL ") + text)
        if not ok:
            failures.append(text)

    print(f"stubbed packages: {', '.join(data.get('stubbed') or []) or 'none'}")
    print(f"{'class':28} {'original MiB':>12} {'reference MiB':>13}  note")
    for entry in data["results"]:
        name, orig = entry["name"], entry["original"]
        ref = REFERENCE_MIB.get(name)
        ob = orig.get("device_bytes") if orig.get("ok") else None
        note = ""
        if ob is not None and ref is not None:
            diff = ob / MIB - ref
            note = "matches" if abs(diff) < 0.01 else f"differs by {diff:+.2f} MiB"
        print(f"{name:28} {fmt(ob):>12} {ref if ref is not None else '-':>13}  {note}")
        need(orig.get("ok", False), f"{name} builds from the original tree")
        for comp in entry["comparisons"]:
            label = comp["label"]
            rew = entry["rewritten"].get(label, {})
            need(rew.get("ok", False), f"{name} builds from the {label} tree")
            saved, pinned = comp.get("saved_bytes"), comp.get("pinned_saved_bytes")
            if validation or name in UNCHANGED:
                need(saved == 0, f"{name} [{label}] allocates exactly what it did (saved {fmt(saved)} MiB)")
            elif name == "TRTLLMHAAttnBackend":
                need(
                    saved is not None and saved >= 400 * MIB,
                    f"{name} [{label}] saves >= 400 MiB device memory (saved {fmt(saved)} MiB)",
                )
                need(
                    pinned is not None and pinned >= 32 * MIB,
                    f"{name} [{label}] saves >= 32 MiB pinned host memory (saved {fmt(pinned)} MiB)",
                )
            else:
                lines.append(f"INFO {name} [{label}] saved {fmt(saved)} MiB device, {fmt(pinned)} MiB pinned host")
            if name == "TRTLLMHAAttnBackend" and label == "direct-base" and rew.get("ok"):
                mro = rew.get("mro", [])
                bases = ", ".join(rew.get("bases", []))
                need(
                    not any(q.endswith(".FlashInferAttnBackend") for q in mro),
                    f"{name} [direct-base] no longer inherits FlashInferAttnBackend (bases: {bases})",
                )
    print("\n".join(lines))
    print(f"acceptance: {'FAILED' if failures else 'passed'} ({len(failures)} failure(s))")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
