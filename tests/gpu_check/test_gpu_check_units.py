"""gpu-check pieces that need no torch: stubs, storage walk, stand-ins, profiles, inputs, report."""

import importlib.util
import json
import subprocess
import sys
import textwrap

import pytest
from gpu_check_helpers import DATA, REPO, run_gpu_check
from rich.console import Console

from deadinit.gpu_check import inputs, profiles, report


def _load(name):
    """Load a child-side module by path, as harness.py does."""
    path = REPO / "deadinit" / "gpu_check" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_test_gpu_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


stubs = _load("stubs")
storages = _load("storages")
standins = _load("standins")


class FakeTensor:
    def __init__(self, nbytes, device="cpu", base=None, pinned=False):
        self._nbytes, self.device, self.base, self.pinned = nbytes, device, base, pinned
        self.shape = (nbytes,)

    @property
    def nbytes(self):
        return self._nbytes


# -- the CLI module never imports torch ---------------------------------------------------
def test_cli_import_does_not_import_torch():
    code = (
        "import sys, deadinit.gpu_check.cli, deadinit.gpu_check.runner, "
        "deadinit.gpu_check.report; print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


# -- stubs ---------------------------------------------------------------------------------
def test_stub_only_when_missing_and_submodules_import(monkeypatch):
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    name = "deadinit_missing_pkg_for_test"
    assert stubs.install(["json", name]) == [name]
    mod = importlib.import_module(f"{name}.flash_mla")
    assert stubs.is_stub(mod)
    assert callable(mod.flash_mla_with_kvcache)
    from deadinit_missing_pkg_for_test import something  # noqa: F401  (any name imports)

    for key in [k for k in sys.modules if k.startswith(name)]:
        del sys.modules[key]


def test_stub_capitalised_names_work_inside_pydantic_models(monkeypatch):
    pydantic = pytest.importorskip("pydantic")
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    name = "deadinit_fake_xgrammar"
    stubs.install([name])
    mod = importlib.import_module(name)
    tag_cls = mod.StructuralTag
    assert issubclass(tag_cls, pydantic.BaseModel)
    assert tag_cls.NEAREST_EXACT is not None  # class-level names exist too

    class Request(pydantic.BaseModel):
        tag: tag_cls | None = None

    req = Request(tag=tag_cls(format="x", begin="<"))
    assert req.tag.format == "x"
    del sys.modules[name]


# -- storage walk --------------------------------------------------------------------------
class Holder:
    pass


def test_reachable_report_dedupes_and_separates_external():
    shared = FakeTensor(100)
    external = FakeTensor(1000)
    wrapper = Holder()
    wrapper.buf = FakeTensor(10)
    wrapper.ws = shared
    obj = Holder()
    obj.workspace = shared
    obj.wrappers = [wrapper, wrapper]
    obj.pool = {"req_to_token": external}
    obj.none = None
    keys = storages.storage_keys([{"runner": external}])
    rep = storages.reachable_report(obj, depth=2, external=keys)
    assert rep["bytes"] == 110
    assert rep["attributes"]["workspace"]["bytes"] == 100
    assert rep["attributes"]["wrappers"]["bytes"] == 10  # the shared workspace counts once
    assert rep["attributes"]["pool"]["external_bytes"] == 1000
    assert rep["external_bytes"] == 1000


def test_reachable_report_depth_limit_and_cycles():
    inner = Holder()
    inner.deep = Holder()
    inner.deep.t = FakeTensor(7)
    obj = Holder()
    obj.a = inner
    obj.back = obj  # a cycle to the instance itself
    assert storages.reachable_report(obj, depth=1)["bytes"] == 0
    assert storages.reachable_report(obj, depth=2)["bytes"] == 7


def test_views_share_their_base_and_devices_are_split():
    base = FakeTensor(64, device="cuda")
    obj = Holder()
    obj.a, obj.b = base, FakeTensor(8, base=base, device="cuda")
    obj.p = FakeTensor(16, pinned=True)
    rep = storages.reachable_report(obj)
    assert rep["bytes"] == 80 and rep["device_bytes"] == 64
    assert rep["pinned_bytes"] == 16 and rep["cpu_bytes"] == 16


# -- stand-ins -----------------------------------------------------------------------------
def test_builder_values_references_methods_and_read_log():
    objects = {
        "runner": {
            "device": "@device",
            "size": 4,
            "none": "py:None",
            "name": "str:@literal",
            "pool": {"get_kvcache()": "@runner.alloc"},
            "alloc": {"kind": "plain"},
            "config": {"get_num_kv_heads()": 8, "archs": ["Llama"]},
        }
    }
    builder = standins.Builder(objects, "cpu")
    args, kwargs = builder.build_call({"args": ["@runner"], "kwargs": {"flag": True}})
    runner = args[0]
    assert kwargs == {"flag": True}
    builder.log.enabled = True
    assert runner.device == "cpu" and runner.size == 4 and runner.none is None
    assert runner.name == "@literal"
    assert runner.pool.get_kvcache() is runner.alloc
    assert runner.config.get_num_kv_heads(2, 1) == 8
    with pytest.raises(AttributeError, match="add it to the profile"):
        runner.missing_thing
    assert not hasattr(runner, "also_missing")
    log = builder.log.as_dict()
    assert "runner.device" in log["reads"] and "runner.config.get_num_kv_heads()" in log["reads"]
    assert "runner.missing_thing" in log["misses"]


def test_builder_rejects_unknown_reference():
    builder = standins.Builder({"runner": {"x": "@nowhere.y"}}, "cpu")
    with pytest.raises(KeyError, match="unknown reference"):
        builder.build_call({"args": ["@runner"]})


# -- profiles ------------------------------------------------------------------------------
def test_bundled_profiles_load_and_infer():
    assert set(profiles.bundled_names()) >= {"sglang-mha", "sglang-mla"}
    mla = "sglang.srt.layers.attention.trtllm_mla_backend.TRTLLMMLABackend"
    mha = "sglang.srt.layers.attention.trtllm_mha_backend.TRTLLMHAAttnBackend"
    assert profiles.infer(mla).name == "sglang-mla"
    assert (
        profiles.infer("sglang.srt.layers.attention.tokenspeed_mla_backend.TokenspeedMLABackend").name == "sglang-mla"
    )
    assert profiles.infer(mha).name == "sglang-mha"
    assert profiles.infer("sglang.srt.layers.attention.flashinfer_backend.FlashInferAttnBackend").name == "sglang-mha"
    with pytest.raises(profiles.ProfileError, match="--profile"):
        profiles.infer("mypkg.Thing")
    mla_profile = profiles.load("sglang-mla").data
    assert mla_profile["objects"]["model_runner"]["kv_cache_dtype"] == "dtype:float8_e4m3fn"
    assert mla_profile["objects"]["model_runner"]["page_size"] in (32, 64)


def test_profile_file_and_errors(tmp_path):
    assert profiles.load(str(DATA / "sample_profile.toml")).name == "sample"
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nsetupp = "none"\n')
    with pytest.raises(profiles.ProfileError, match="unknown key"):
        profiles.load(str(bad))
    with pytest.raises(profiles.ProfileError, match="unknown profile"):
        profiles.load("no-such-profile")


# -- inputs --------------------------------------------------------------------------------
def test_fix_report_list_or_object_and_expectations(tmp_path):
    obj = inputs.load_fix_report(DATA / "fix_report_skip.json")
    lst = inputs.load_fix_report(DATA / "fix_report_direct.json")
    tree = DATA / "original"
    targets = inputs.collect_targets([], [("skip", obj), ("direct", lst)], tree)
    assert [t.qualname for t in targets] == ["sample_pkg.backends.Child"]
    # with --class, only those are built; the reports add checks to them
    assert [t.qualname for t in inputs.collect_targets(["Parent"], [("skip", obj)], tree)] == [
        "sample_pkg.backends.Parent"
    ]
    targets = inputs.collect_targets(["Child", "Parent"], [("skip", obj), ("direct", lst)], tree)
    assert [t.qualname for t in targets] == ["sample_pkg.backends.Child", "sample_pkg.backends.Parent"]
    assert targets[1].expect == {}
    child = targets[0]
    assert child.expect_for("skip").skipped == ["wrappers"]
    assert child.expect_for("skip").new_bases == []
    assert child.expect_for("direct").new_bases == ["sample_pkg.backends.Base"]
    assert child.expect_for("direct").not_in_mro == ["Parent"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"file": "x.py"}]))
    with pytest.raises(inputs.InputError, match="no 'class'"):
        inputs.load_fix_report(bad)


def test_resolve_class_names_against_a_tree():
    tree = DATA / "original"
    assert inputs.resolve(inputs.Target("Child"), tree) == "sample_pkg.backends.Child"
    assert inputs.resolve(inputs.Target("sample_pkg.backends:Parent"), tree) == "sample_pkg.backends.Parent"
    assert (
        inputs.resolve(inputs.Target("Child", file="/elsewhere/sample_pkg/backends.py"), tree)
        == "sample_pkg.backends.Child"
    )
    with pytest.raises(inputs.InputError, match="not found"):
        inputs.resolve(inputs.Target("NoSuchClass"), tree)


def test_labels_and_scopes():
    assert inputs.split_labeled("skip=/a/b") == ("skip", "/a/b")
    assert inputs.split_labeled("/a=b/c") == (None, "/a=b/c")
    assert inputs.parse_scoped("Child:a,b") == ("Child", ["a", "b"])
    assert inputs.parse_scoped("a,b") == (None, ["a", "b"])


# -- report ---------------------------------------------------------------------------------
def test_text_report_names_stubbed_packages():
    data = {
        "device": "cuda",
        "measure": "allocated",
        "stub_requested": ["sgl_kernel"],
        "stubbed": ["sgl_kernel"],
        "environment": {"gpu": "NVIDIA H200", "torch": "2.11"},
        "trees": [
            {"label": "original", "path": "/o", "source": "/o"},
            {"label": "rewritten", "path": "/r", "source": "/r"},
        ],
        "results": [
            {
                "name": "B",
                "class": "p.B",
                "original": {"ok": True, "construct_seconds": 0.1},
                "rewritten": {"rewritten": {"ok": False, "error": "ValueError: boom"}},
                "comparisons": [
                    {
                        "label": "rewritten",
                        "status": "rewritten failed to build",
                        "failed": True,
                        "problems": {"fail": [], "warn": []},
                        "original_bytes": 3 << 20,
                        "rewritten_bytes": None,
                        "saved_bytes": None,
                        "pinned_saved_bytes": None,
                        "attribute_savings": {},
                    }
                ],
            }
        ],
        "summary": {"classes": 1, "comparisons": 1, "failed": 1},
        "exit_code": 1,
    }
    console = Console(record=True, width=200)
    report.render_text(data, console)
    text = console.export_text()
    assert "STUBBED" in text and "sgl_kernel" in text
    assert "rewritten failed to build" in text and "3.00" in text and "ValueError: boom" in text


# -- fake tensors only: CPU mode works without torch ---------------------------------------
def test_cpu_mode_on_fake_tensors(tmp_path):
    for label, skip in (("orig", False), ("new", True)):
        pkg = tmp_path / label / "fakepkg"
        pkg.mkdir(parents=True)
        (pkg / "__init__.py").write_text("")
        (pkg / "mod.py").write_text(
            textwrap.dedent(f"""
            class T:
                def __init__(self, n):
                    self.shape, self.device = (n,), "cpu"
                    self.nbytes = n

            class P:
                def __init__(self, skip=False):
                    self.big = None if skip else T(1000)
                    self.small = T(10)

            class C(P):
                def __init__(self):
                    super().__init__(skip={skip})
        """)
        )
    prof = tmp_path / "p.toml"
    prof.write_text('name = "fake"\nsetup = "none"\n[construct]\nargs = []\n')
    rc, data = run_gpu_check(
        "--original",
        tmp_path / "orig",
        "--rewritten",
        tmp_path / "new",
        "--class",
        "fakepkg.mod.C",
        "--profile",
        prof,
        "--device",
        "cpu",
        "--expect-skipped",
        "big",
        "--expect-read",
        "small",
    )
    assert rc == 0, data
    comp = data["results"][0]["comparisons"][0]
    assert (comp["original_bytes"], comp["rewritten_bytes"], comp["saved_bytes"]) == (1010, 10, 1000)
    assert comp["status"] == "ok"
