"""``deadinit fix`` modes: --diff, writing, --report, idempotence, --select, --flag-name, exit codes."""

import json
import re
from pathlib import Path

from click.testing import CliRunner
from codemod_helpers import SCENARIOS, fix, probe

from deadinit.api import project
from deadinit.api.check import run_check
from deadinit.cli.fix_notes import table_names
from deadinit.cli.main import main
from deadinit.fixes.driver import run_fix
from deadinit.gpu_check.inputs import expect_from_record, load_fix_report
from deadinit.model.fix import FixOptions

MHA = SCENARIOS["mha_child"][0][0]


def snapshot(tree: Path) -> dict:
    return {p: p.read_bytes() for p in sorted(tree.rglob("*.py"))}


def cli(*args):
    return CliRunner().invoke(main, ["fix", *args], catch_exceptions=False)


def test_diff_mode_prints_and_writes_nothing(fixture_tree):
    before = snapshot(fixture_tree)
    r = cli("fixtures", "--diff", "--class", "TrtMHABackend", "--unsafe-fixes")
    assert r.exit_code == 1
    assert r.stdout.startswith("--- a/fixtures/backends/flash_backend.py\n+++ b/fixtures/backends/flash_backend.py\n")
    assert "+        skip_init_workspace_buffer: bool = False,\n" in r.stdout
    assert "+++ b/fixtures/backends/trt_mha_backend.py" in r.stdout
    assert snapshot(fixture_tree) == before


def test_write_then_second_run_changes_nothing(fixture_tree, original_probe):
    r = cli("fixtures", "--unsafe-fixes", "--report", "fix.json")
    assert r.exit_code == 1  # not-fixable findings remain (TrtMLA's overwritten workspace)
    assert "class(es) changed" in r.stdout and "not fixed" in r.stdout
    after_first = snapshot(fixture_tree)
    assert after_first != snapshot(Path(__file__).resolve().parents[2] / "fixtures")
    r2 = cli("fixtures", "--unsafe-fixes", "--diff")
    assert r2.exit_code == 1 and r2.stdout == ""  # as `fix`: the not-fixable findings are still there
    r3 = cli("fixtures", "--unsafe-fixes")
    assert snapshot(fixture_tree) == after_first
    # everything fixed at once (two flags on FlashBackend: TrtMHABackend's and AliasedFlash's) still runs
    res = probe(fixture_tree)
    assert all(rec["paths"] == "ok" for rec in res.values())
    for untouched in ("FlashBackend", "FlashMLABackend", "FlashMultiStepDraft", "FlashMLAMultiStepDraft"):
        assert res[untouched] == original_probe[untouched]
    # the second write changes nothing: it lists only what the first left unfixed, as the first did
    assert r3.exit_code == 1
    assert r3.stdout.startswith("not fixed")
    unfixed = r.stdout[r.stdout.index("not fixed") :]
    assert re.sub(r"\d+", "N", r3.stdout) == re.sub(r"\d+", "N", unfixed)  # the same table, at moved lines


def test_report_is_consumable_by_gpu_check(fixture_tree):
    r = cli("fixtures", "--class", MHA, "--unsafe-fixes", "--report", "out/fix.json")
    assert r.exit_code in (0, 1)
    data = json.loads(Path("out/fix.json").read_text())
    (change,) = data["changes"]
    for key in ("file", "class", "flag", "attributes", "overwritten", "estimated_bytes", "strategy", "reads"):
        assert key in change
    assert change["class"] == MHA and change["strategy"] == "skip-flag"
    assert change["file"] == "fixtures/backends/trt_mha_backend.py"
    assert change["flag"] == "skip_init_workspace_buffer"
    assert change["estimated_bytes"] == 8 * 1024 * 1024 + 4096  # the workspace and the ragged wrapper's staging buffer
    assert data["diff_stat"]["files"] == 2
    (rec,) = load_fix_report(Path("out/fix.json"))
    exp = expect_from_record(rec)
    assert exp.reads == ["kv_indptr", "kv_last_page_len"]
    assert "decode_wrappers" in exp.skipped and "workspace_buffer" not in exp.skipped


def test_default_mode_applies_the_fixes_resting_on_types(fixture_tree):
    # `FlashInspector.flash.decode_wrappers` is on a receiver built as exactly FlashBackend: a proof, not
    # a judgement, so the default mode does what --unsafe-fixes does (unsafe ones: tests/fixes/test_fix_levels.py)
    out = fix(classes=[MHA])
    assert [r for r in out.refusals if r.kind == "unsafe"] == []
    (change,) = out.plan.changes
    assert "decode_wrappers" in change.attributes and change.overwritten == ["workspace_buffer"]
    text = Path("fixtures/backends/flash_backend.py").read_text()
    assert "if not skip_init_workspace_buffer:" in text


def test_select_and_flag_name(fixture_tree):
    r = cli("fixtures", "--class", MHA, "--unsafe-fixes", "--select", "DI002", "--flag-name", "light", "--diff")
    assert r.exit_code == 1
    assert "light: bool = False" in r.stdout and "light=True" in r.stdout
    assert "self.workspace_buffer = None" not in r.stdout  # DI001 not selected: the workspace stays
    assert "self.decode_wrappers = None" in r.stdout


def test_nothing_to_fix_names_the_strategy_that_fixes_the_selection(fixture_tree):
    r = cli("fixtures", "--select", "DI003")
    assert r.exit_code == 1  # the DI003 finding is left
    assert (
        "nothing to fix with --strategy skip-flag; 1 DI003 finding(s) are fixed by --strategy direct-base" in r.stdout
    )


def test_the_fix_tables_name_each_class_as_class_accepts_it(fixture_tree):
    result = run_check(["fixtures"])
    out = run_fix(result, "skip-flag", FixOptions(), write=False)
    names = table_names(out)
    assert len(names) > 20 and any("." in n for n in names.values())  # short names two classes share
    for qualname, name in names.items():
        assert project.resolve_class(result, name) == qualname


def test_usage_errors(fixture_tree):
    assert cli("fixtures", "--class", "NoSuchClass").exit_code == 2
    assert cli("fixtures", "--flag-name", "not an identifier").exit_code == 2
    assert cli("does/not/exist").exit_code == 2
    assert cli("fixtures", "--strategy", "nope").exit_code == 2


def test_fix_reads_through_the_cache_and_gives_the_same_diff(fixture_tree):
    first = cli("fixtures", "--diff", "--unsafe-fixes")
    assert first.exit_code == 1
    assert [p for p in fixture_tree.rglob(".deadinit_cache/.gitignore")]
    warm = cli("fixtures", "--diff", "--unsafe-fixes", "--jobs", "1")
    cold = cli("fixtures", "--diff", "--unsafe-fixes", "--no-cache", "--cache-dir", "elsewhere")
    assert first.stdout == warm.stdout == cold.stdout
    assert not (fixture_tree / "elsewhere").exists()
