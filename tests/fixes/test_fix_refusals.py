"""What skip-flag refuses (with the reason), and the draft / reuse cases it handles."""

import importlib.util
import sys

from codemod_helpers import fix

BASE = """
import torch


class Base:
    def run(self):
        raise NotImplementedError


class DecodeWrapper:
    def __init__(self, ws):
        self.ws = ws
"""


def reasons(out) -> dict:
    return {(r.cls.rsplit(".", 1)[-1], a): r.reason for r in out.refusals for a in r.attributes}


def test_statement_mixing_dead_and_live_work_is_refused(write_project, monkeypatch):
    root = write_project(
        {
            "pkg/__init__.py": "",
            "pkg/m.py": BASE
            + """

class P(Base):
    def __init__(self):
        self.ws = self.meta = torch.empty(1 << 20)
        self.wrapper = DecodeWrapper(self.ws); self.idx = torch.zeros(8)

    def run(self):
        return self.ws, self.wrapper


class C(P):
    def __init__(self):
        super().__init__()

    def run(self):
        return self.meta, self.idx
""",
        }
    )
    monkeypatch.chdir(root)
    out = fix(paths=["pkg"], write=False)
    why = reasons(out)
    assert "cannot be split" in why[("C", "ws")] and "line 17" in why[("C", "ws")]
    assert "cannot be split" in why[("C", "wrapper")] and "line 18" in why[("C", "wrapper")]
    assert not out.plan.files


def test_args_kwargs_forwarding_is_refused(write_project, monkeypatch):
    root = write_project(
        {
            "pkg/__init__.py": "",
            "pkg/m.py": BASE
            + """

class P(Base):
    def __init__(self, n=4):
        self.ws = torch.empty(1 << 20)

    def run(self):
        return self.ws


class M(P):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)


class D(M):
    def __init__(self):
        super().__init__(8)

    def run(self):
        return 2


class KW(Base):
    def __init__(self, **kwargs):
        self.buf = torch.empty(1 << 20)

    def run(self):
        return self.buf


class KC(KW):
    def __init__(self):
        super().__init__()

    def run(self):
        return 3
""",
        }
    )
    monkeypatch.chdir(root)
    out = fix(paths=["pkg"], write=False)
    why = reasons(out)
    assert "M.__init__ forwards *args/**kwargs to P.__init__" in why[("D", "ws")]
    assert "KW.__init__ takes *args/**kwargs" in why[("KC", "buf")]
    assert not out.plan.files


def test_mro_that_sends_super_elsewhere_is_refused(write_project, monkeypatch):
    root = write_project(
        {
            "pkg/__init__.py": "",
            "pkg/m.py": BASE
            + """

class P(Base):
    def __init__(self):
        self.ws = torch.empty(1 << 20)

    def run(self):
        return self.ws


class Q(P):
    def __init__(self):
        super().__init__()


class C(P):
    def __init__(self):
        super().__init__()

    def run(self):
        return 1


class D(C, Q):
    pass
""",
        }
    )
    monkeypatch.chdir(root)
    out = fix(paths=["pkg"], write=False)
    assert "D inherits C.__init__, but in its MRO super().__init__ reaches Q" in reasons(out)[("C", "ws")]


def test_existing_flag_is_reused_and_extended(write_project, monkeypatch):
    root = write_project(
        {
            "pkg/__init__.py": "",
            "pkg/m.py": BASE
            + """

class P(Base):
    def __init__(self, skip_init_ws: bool = False):
        if not skip_init_ws:
            self.ws = torch.empty(1 << 20)
            self.wrapper = DecodeWrapper(self.ws)
        else:
            self.ws = None
            self.wrapper = None
        self.updater = DecodeUpdater(self)
        self.idx = torch.zeros(8)

    def run(self):
        return self.wrapper, self.updater, self.idx


class C(P):
    def __init__(self):
        super().__init__(skip_init_ws=True)

    def run(self):
        return self.idx


class DecodeUpdater:
    def __init__(self, backend):
        self.scratch = torch.empty(1 << 12)
""",
        }
    )
    monkeypatch.chdir(root)
    out = fix(paths=["pkg"])
    (change,) = out.plan.changes
    assert change.flag == "skip_init_ws" and change.attributes == ["updater"]
    text = (root / "pkg/m.py").read_text()
    assert text.count("skip_init_ws: bool = False") == 1 and "skip_init_updater" not in text
    assert "        if not skip_init_ws:\n            self.updater = DecodeUpdater(self)\n" in text
    assert text.count("super().__init__(skip_init_ws=True)") == 1


DRAFTS = """
CREATED = []


class StepBackend:
    def __init__(self, step):
        CREATED.append(type(self).__name__)
        self.step = step
        self.max_len = 64


class FastBackend(StepBackend):
    pass


class Draft:
    def __init__(self, n):
        self.n = n
        self.backends = []
        for i in range(self.n - 1):
            self.backends.append(StepBackend(i))
        self.max_len = self.backends[0].max_len
        self.alias = self.backends

    def run(self):
        return [b.step for b in self.backends], self.max_len, self.alias


class FastDraft(Draft):
    def __init__(self, n):
        super().__init__(n)
        for i in range(self.n - 1):
            self.backends[i] = FastBackend(i)
"""


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def test_draft_list_replaced_element_wise_keeps_working(write_project, monkeypatch):
    root = write_project({"pkg/__init__.py": "", "pkg/drafts.py": DRAFTS})
    monkeypatch.chdir(root)
    out = fix(paths=["pkg"])
    (change,) = out.plan.changes
    assert change.overwritten == ["backends"] and change.flag == "skip_init_backends"
    text = (root / "pkg/drafts.py").read_text()
    assert "            self.backends = [None for _ in range(self.n - 1)]\n" in text
    assert "        self.alias = self.backends\n" in text  # the alias stays: same list object
    assert text.rstrip().endswith("self.max_len = self.backends[0].max_len")  # moved after the refill
    mod = _load(root / "pkg/drafts.py", "deadinit_test_drafts")
    d = mod.FastDraft(3)
    assert mod.CREATED == ["FastBackend", "FastBackend"]
    assert [type(b).__name__ for b in d.backends] == ["FastBackend", "FastBackend"]
    assert d.alias is d.backends and d.max_len == 64 and d.run()[0] == [0, 1]
    mod.CREATED.clear()
    plain = mod.Draft(3)  # other users of the parent: unchanged
    assert mod.CREATED == ["StepBackend", "StepBackend"] and plain.max_len == 64
    assert fix(paths=["pkg"], write=False).plan.files == []  # idempotent


def test_kept_by_live_attribute_is_explained(fixture_tree):
    out = fix(classes=["fixtures.backends.trt_mla_backend.TrtMLABackend"])
    (r,) = [r for r in out.refusals if r.attributes == ["workspace_buffer"]]
    assert r.kind == "not-fixable"
    assert "self.prefill_wrapper_ragged" in r.reason and "must keep allocating" in r.reason
