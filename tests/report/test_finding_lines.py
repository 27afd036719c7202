"""The default text report's lines of one finding: the decisive step, the fix, the layout."""

from rich.text import Text

from deadinit.model.evidence import Evidence, EvidenceKind
from deadinit.model.finding import Finding
from deadinit.report import finding_lines as fl


def _finding(code="DI002", evidence=(), **kw) -> Finding:
    base = dict(
        code=code,
        name="n",
        path="pkg/a.py",
        line=3,
        column=9,
        cls="pkg.b.Child",
        parent="pkg.a.Parent",
        attribute="buf",
        kind="tensor",
        estimated_bytes=1 << 20,
        message="`self.buf` (tensor) allocated by Parent.__init__ is never read by anything that can run on Child",
    )
    return Finding(**{**base, **kw}, evidence=list(evidence))


ALLOCATED = Evidence(EvidenceKind.ALLOCATED, "Parent.__init__ assigns self.buf", "pkg/a.py", 3)
CHAIN = Evidence(EvidenceKind.CHAIN, "runs Child.__init__ -> Parent.__init__")
CHECKED = Evidence(EvidenceKind.CHECKED, "2 methods reachable on Child checked: Child.forward, Parent.size")
NOT_COUNTED = Evidence(EvidenceKind.READ_NOT_COUNTED, "Parent.forward reads self.buf but is overridden", "pkg/a.py", 9)
OVERWRITTEN = Evidence(EvidenceKind.OVERWRITTEN, "Child.__init__ re-assigns self.buf on every path", "pkg/b.py", 7)


def test_the_decisive_step_per_rule():
    assert fl.decisive(_finding("DI002", [ALLOCATED, CHAIN, CHECKED])) == CHECKED
    assert fl.decisive(_finding("DI002", [ALLOCATED, CHAIN, CHECKED, NOT_COUNTED])) == NOT_COUNTED
    assert fl.decisive(_finding("DI001", [ALLOCATED, CHAIN, OVERWRITTEN, CHECKED])) == OVERWRITTEN
    assert fl.decisive(_finding("DI009", [ALLOCATED, CHAIN, CHECKED])) == CHECKED  # not told by the message
    assert fl.decisive(_finding("DI002", [])) is None


def test_the_evidence_line_says_where_in_the_file_or_elsewhere():
    assert fl.evidence_line(_finding("DI002", [NOT_COUNTED])).endswith("overridden (line 9)")
    assert fl.evidence_line(_finding("DI001", [OVERWRITTEN])).endswith("every path (pkg/b.py:7)")
    assert fl.evidence_line(_finding("DI002", [CHECKED], unsure=["getattr(self, name)"])) == (
        "unsure: getattr(self, name)"
    )


def test_shortened_cuts_between_words_and_leaves_no_parenthesis_open():
    assert fl.shortened("short") == "short"
    assert fl.shortened("aaa bbb ccc ddd", 9) == "aaa bbb …"
    assert fl.shortened("keys change (state_dict, load_state_dict, weights)", 30) == "keys change …"


def test_the_fix_line_names_the_command_that_fixes_the_finding():
    assert fl.fix_line(_finding()) == "fix: deadinit fix --class pkg.b.Child"
    assert fl.fix_line(_finding(), "Child") == "fix: deadinit fix --class Child"
    unsafe = _finding(fix_safety="unsafe", fix_safety_reason="checkpoint keys change; and more")
    assert (
        fl.fix_line(unsafe) == "fix: deadinit fix --unsafe-fixes --class pkg.b.Child  (unsafe: checkpoint keys change)"
    )
    di003 = _finding("DI003", fix_safety="unsafe")
    assert fl.fix_line(di003) == "fix: deadinit fix --strategy direct-base --unsafe-fixes --class pkg.b.Child"
    kept = Evidence(EvidenceKind.KEPT_ALIVE, "the first value lives on inside self.w")
    assert fl.fix_line(_finding("DI001", [kept], fix_safety="none")) == (
        "no automatic fix: the first value lives on inside self.w"
    )
    assert fl.fix_line(_finding("DI004", fix_safety="none")).startswith("no automatic fix: ")


def test_three_lines_a_finding_and_one_with_quiet():
    f = _finding("DI002", [ALLOCATED, CHAIN, CHECKED])
    got = [t.plain for t in fl.lines(f)]
    assert got[0] == f"pkg/a.py:3:9: DI002 {f.message} [1 MiB]"
    assert got[1].startswith("  because: 2 methods reachable") and got[2].startswith("  fix: ")
    assert len(fl.lines(f, evidence=False, hint=False)) == 1


def test_wrapped_breaks_at_spaces_and_indents_the_rest():
    pieces = [t.plain for t in fl.wrapped(Text("  because: " + "word " * 20 + "end"), 30)]
    assert all(len(p) <= 30 for p in pieces)
    assert pieces[0].startswith("  because:") and all(p.startswith("      ") for p in pieces[1:])
    assert " ".join(p.strip() for p in pieces) == ("because: " + "word " * 20 + "end")
    long = [t.plain for t in fl.wrapped(Text("a " + "x" * 50 + " b"), 20)]
    assert long == ["a", "    " + "x" * 50, "    b"]  # a word longer than the width stays whole


def test_option_names_are_the_shortest_unique_trailing_names():
    from types import SimpleNamespace

    from deadinit.report.class_names import option_names

    index = SimpleNamespace(classes={"p.a.Layer": 0, "p.b.Layer": 0, "p.a.Only": 0})
    assert option_names(index, ["p.a.Layer", "p.a.Only"]) == {"p.a.Layer": "a.Layer", "p.a.Only": "Only"}
    assert option_names(None, ["p.a.Only"]) == {}
