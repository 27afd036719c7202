"""gpu-check --forward on CPU: the attn_pkg trees' kernel-boundary calls are compared, and
broken skip-flag rewrites are caught at the first differing call and argument."""

import importlib.util

import pytest
from gpu_check_helpers import DATA, REPO, comparison, run_gpu_check

from deadinit.gpu_check import forward_compare

FORWARD = DATA / "forward"


def _load(name):
    path = REPO / "deadinit" / "gpu_check" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_test_gpu_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_forward_run_catches_broken_rewrites(tmp_path):
    pytest.importorskip("torch")
    rc, data = run_gpu_check(
        "--from-fix-report",
        f"skip={FORWARD / 'fix_report_skip.json'}",
        "--pr-body",
        tmp_path / "pr.md",
        "--original",
        FORWARD / "original",
        "--rewritten",
        f"skip={FORWARD / 'skip_flag'}",
        "--rewritten",
        f"broken-read={FORWARD / 'broken_read'}",
        "--rewritten",
        f"broken-arg={FORWARD / 'broken_arg'}",
        "--class",
        "attn_pkg.backends.TrtLikeBackend",
        "--profile",
        DATA / "forward_profile.toml",
        "--path",
        FORWARD,
        "--device",
        "cpu",
        "--forward",
        "--jobs",
        "4",
    )
    assert rc == 1
    _, skip = comparison(data, "TrtLikeBackend", "skip")
    assert skip["status"] == "ok" and skip["saved_bytes"] > 0
    fwd = skip["forward"]
    assert fwd["status"] == "equal"
    assert [p["name"] for p in fwd["paths"]] == ["decode", "extend"]
    assert all(p["status"] == "equal" for p in fwd["paths"])
    assert (fwd["kernels_ran"], fwd["kernels_stood_in"]) == (2, 2)  # decode ran, extend stood in
    assert list(fwd["stand_ins"]) == ["attn_pkg.kernels:context_attention"]
    equal = fwd["device_equal"]
    assert equal["checked"] == equal["equal"] == equal["pairs"] > 0 and not equal["differing"]

    _, arg = comparison(data, "TrtLikeBackend", "broken-arg")
    assert arg["status"] == "forward differs" and arg["failed"]
    first = arg["forward"]["first_difference"]
    assert (first["path"], first["index"], first["call"], first["argument"]) == (
        "decode",
        0,
        "paged_decode",
        "window_left",
    )
    assert arg["problems"]["fail"] == [
        "forward run differs: path decode, call #0 paged_decode, argument window_left: -1 vs null"
    ]

    body = (tmp_path / "pr.md").read_text()
    assert "| 1 | TrtLikeBackend | skip | decode, extend | 8 | 2 / 2 |" in body
    assert "- `context_attention` (run 1): stands for a kernel whose binaries cannot be carried" in body

    _, read = comparison(data, "TrtLikeBackend", "broken-read")
    assert read["status"] == "forward differs"
    first = read["forward"]["first_difference"]
    assert first["path"] == "decode" and first["argument"] == "(exception)"
    assert "only the rewritten tree raised: TypeError" in first["detail"]


def _call(name, **args):
    return {"index": 0, "path": "decode", "name": name, "target": f"k:{name}", "ran": False, "args": args}


def test_scratch_arguments_compare_by_shape_only():
    ws = {"tensor": [16], "dtype": "uint8", "device": "cuda", "scratch": True}
    a = _call("decode", workspace=ws, q={"tensor": [2, 4], "dtype": "bfloat16", "device": "cuda", "sha256": "aa"})
    b = _call("decode", workspace=ws, q=dict(a["args"]["q"]))
    assert forward_compare.call_difference(a, b) is None
    b["args"]["workspace"] = dict(ws, tensor=[8])
    assert forward_compare.call_difference(a, b)["detail"] == "shape [16] vs [8]"
    b = _call("decode", workspace=ws, q=dict(a["args"]["q"], sha256="bb"))
    assert forward_compare.call_difference(a, b) == {
        "argument": "q",
        "detail": "contents differ",
        "original": "tensor bfloat16[2, 4] sha256 aa",
        "rewritten": "tensor bfloat16[2, 4] sha256 bb",
    }


def test_paths_that_fail_in_both_trees_are_not_exercised_and_extra_calls_differ():
    orig = {
        "paths": [{"name": "decode", "ok": False, "error": "E"}, {"name": "extend", "ok": True}],
        "calls": [dict(_call("plan"), path="extend")],
    }
    rew = {
        "paths": [{"name": "decode", "ok": False, "error": "E"}, {"name": "extend", "ok": True}],
        "calls": [dict(_call("plan"), path="extend"), dict(_call("run"), path="extend")],
    }
    result = forward_compare.compare(orig, rew)
    assert [p["status"] for p in result["paths"]] == ["not exercised", "differs"]
    assert result["first_difference"]["call"] == "run"
    assert forward_compare.compare(orig, orig)["status"] == "equal"


def test_stand_in_outputs_follow_the_rules():
    torch = pytest.importorskip("torch")
    boundary = _load("boundary")
    query = torch.ones(3, 4, 576, dtype=torch.float8_e4m3fn)
    spec = boundary.KernelSpec({"target": "m:f", "output": "like:query", "last_dim": "arg:rank", "dtype": "bfloat16"})
    out = boundary.stand_in_output(spec, {"query": query, "rank": 512})
    assert out.shape == (3, 4, 512) and out.dtype == torch.bfloat16 and not out.any()
    spec = boundary.KernelSpec({"target": "m:f", "output": "like:qkv[0]", "out_arg": "out", "lse": "return_lse"})
    given = torch.full((2, 2), 5.0)
    out, lse = boundary.stand_in_output(spec, {"qkv": (query, None), "out": given, "return_lse": True})
    assert out is given and lse.shape == (2,)
    assert "out" in spec.scratch
    assert boundary.digest(torch.arange(4))["sha256"] == boundary.digest(torch.arange(4).clone())["sha256"]


def test_run_kernels_tries_for_real_and_stands_in_with_the_reason(monkeypatch):
    torch = pytest.importorskip("torch")
    import sys
    import types

    boundary = _load("boundary")
    module = types.ModuleType("fake_kernels_for_test")

    def works(query):
        return query * 2

    def breaks(query):
        raise RuntimeError("no binaries")

    module.works, module.breaks = works, breaks
    monkeypatch.setitem(sys.modules, "fake_kernels_for_test", module)
    entries = [
        {"target": "fake_kernels_for_test:works", "output": "like:query"},
        {"target": "fake_kernels_for_test:breaks", "output": "like:query"},
    ]
    b = boundary.Boundary(entries, run_patterns=["fake_kernels_for_test:*"])
    b.install()
    try:
        q = torch.ones(2)
        assert torch.equal(module.works(q), q * 2) and not module.breaks(q).any()
    finally:
        b.uninstall()
    ran, stood = b.records
    assert ran["ran"] and "output" in ran
    assert not stood["ran"] and stood["stand_in"] == "tried to run it: RuntimeError: no binaries"
    assert module.works is works
