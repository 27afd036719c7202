"""``deadinit gpu-check``: build classes from the original and rewritten trees and compare.

Registered by ``deadinit/cli/main.py`` as the ``gpu-check`` subcommand; also runnable
alone as ``python -m deadinit.gpu_check``. Imports no torch: each measurement runs
in a fresh child interpreter (``harness.py``).
"""

from __future__ import annotations

import shlex
import shutil
import sys
import tempfile
from pathlib import Path

import click
from rich.console import Console

from . import inputs, profiles, report, runner
from . import pr_body as pr_body_module

DEFAULT_STUBS = ("sgl_kernel", "xgrammar")


def _split_csv(values: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for value in values:
        out += [v.strip() for v in value.split(",") if v.strip() and v.strip() not in out]
    return out


def _rewritten_label(label: str | None, index: int, used: set) -> str:
    label = label or ("rewritten" if index == 0 else f"rewritten{index + 1}")
    if label in used or label == runner.ORIGINAL:
        raise click.UsageError(f"tree label {label!r} used twice (or reserved)")
    used.add(label)
    return label


@click.command("gpu-check")
@click.option(
    "--original",
    "original",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    required=True,
    help="Root of the original tree (the folder holding the package).",
)
@click.option(
    "--rewritten",
    "rewritten",
    multiple=True,
    metavar="[LABEL=]DIR",
    help="Root of a rewritten copy of the tree; repeatable.",
)
@click.option(
    "--rewritten-ref",
    "rewritten_refs",
    multiple=True,
    metavar="[LABEL=]GIT_REF",
    help="Build a rewritten tree from a git ref of the repository holding --original.",
)
@click.option(
    "--repo",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Repository for --rewritten-ref (default: the one holding --original).",
)
@click.option(
    "--class",
    "classes",
    multiple=True,
    metavar="QUALNAME",
    help="Class to build (pkg.mod.Class, pkg.mod:Class or a unique bare name); repeatable.",
)
@click.option(
    "--from-fix-report",
    "fix_reports",
    multiple=True,
    metavar="[LABEL=]FILE",
    help="JSON report of `deadinit fix --report`: its classes are built and checked "
    "(with --class: only those, the report adds checks). LABEL ties it to one "
    "--rewritten tree (default: all).",
)
@click.option(
    "--profile",
    "profile_name",
    metavar="NAME|PATH.toml",
    help=f"Stand-in profile (bundled: {', '.join(profiles.bundled_names())}); default: inferred per class.",
)
@click.option("--device", type=click.Choice(["cuda", "cpu"]), default="cuda", show_default=True)
@click.option(
    "--stub",
    "stub",
    multiple=True,
    metavar="PKG[,PKG]",
    help=f"Stand in these packages with stub modules, only where missing (e.g. {','.join(DEFAULT_STUBS)}).",
)
@click.option(
    "--expect-read",
    multiple=True,
    metavar="[CLASS:]ATTR,...",
    help="Attributes the rewritten instance must have, not None.",
)
@click.option(
    "--expect-skipped",
    multiple=True,
    metavar="[CLASS:]ATTR,...",
    help="Attributes the rewritten instance must leave None or absent.",
)
@click.option(
    "--expect-base", multiple=True, metavar="[CLASS:]BASE,...", help="Direct bases the rewritten class must have."
)
@click.option(
    "--expect-not-in-mro",
    multiple=True,
    metavar="[CLASS:]NAME,...",
    help="Classes that must no longer be in the rewritten class's MRO.",
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--output", type=click.Path(dir_okay=False, path_type=Path), help="Also write the JSON result to FILE.")
@click.option(
    "--python",
    "python",
    default=sys.executable,
    show_default="this interpreter",
    help="Interpreter for the measurement children (must have torch).",
)
@click.option(
    "--jobs",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Measurements at a time (1 keeps timings clean).",
)
@click.option(
    "--timeout", type=click.FloatRange(1), default=600.0, show_default=True, help="Seconds per measurement child."
)
@click.option(
    "--depth",
    type=click.IntRange(0),
    default=2,
    show_default=True,
    help="Object levels walked below each attribute to find tensors.",
)
@click.option(
    "--measure",
    type=click.Choice(["auto", "allocated", "reachable"]),
    default="auto",
    show_default=True,
    help="auto: memory_allocated delta on cuda, reachable storages on cpu.",
)
@click.option(
    "--path",
    "extra_paths",
    multiple=True,
    type=click.Path(exists=True, file_okay=False),
    help="Extra sys.path entries for the children, after the tree.",
)
@click.option(
    "--strict", is_flag=True, help="Exit 1 on check warnings too (skipped attribute still built, unexpected bases)."
)
@click.option(
    "--keep-logs", type=click.Path(file_okay=False, path_type=Path), help="Keep each child's job file and output here."
)
@click.option(
    "--forward",
    is_flag=True,
    help="After building, drive the forward path (the profile's [forward]) and compare every "
    "call into the kernels between the original and each rewritten tree.",
)
@click.option(
    "--run-kernels",
    "run_kernels",
    multiple=True,
    metavar="PATTERN",
    help="Try the kernel entry points matching this pattern (fnmatch on the profile's "
    "target) for real instead of stopping at the boundary; repeatable.",
)
@click.option(
    "--pr-body",
    "pr_body",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write a Markdown pull-request description from this run and the fix reports.",
)
@click.option("-v", "--verbose", is_flag=True, help="Longer tracebacks, savings per attribute.")
def gpu_check(
    original,
    rewritten,
    rewritten_refs,
    repo,
    classes,
    fix_reports,
    profile_name,
    device,
    stub,
    expect_read,
    expect_skipped,
    expect_base,
    expect_not_in_mro,
    fmt,
    output,
    python,
    jobs,
    timeout,
    depth,
    measure,
    extra_paths,
    strict,
    keep_logs,
    forward,
    run_kernels,
    pr_body,
    verbose,
):
    """Prove that rewritten classes still build, and measure the memory their rewrite saves.

    Each class is built once from --original and once from each rewritten tree, every
    time in a fresh Python process (tree first on sys.path, framework state set up by
    the profile). Exit 1 when a rewritten class fails to build or lacks an attribute
    it reads (or a measurement could not be made), 0 otherwise.
    """
    console = Console(stderr=fmt == "json")
    if not console.is_terminal:  # logs: no wrapping at 80 columns
        console = Console(stderr=fmt == "json", width=160)
    try:
        reports = [
            (label, inputs.load_fix_report(Path(path))) for label, path in map(inputs.split_labeled, fix_reports)
        ]
        targets = _targets(classes, reports, original)
        _add_expects(targets, expect_read, expect_skipped, expect_base, expect_not_in_mro)
        explicit = profiles.load(profile_name) if profile_name else None

        def profile_for(target: inputs.Target) -> profiles.Profile:
            return explicit or profiles.infer(target.qualname)

        for target in targets:
            profile_for(target)  # fail early on an unknown profile
        trees = _trees(rewritten, rewritten_refs, original, repo)
    except (inputs.InputError, profiles.ProfileError, runner.RunnerError) as exc:
        raise click.UsageError(str(exc)) from exc

    opts = runner.Options(
        device=device,
        stub=_split_csv(stub),
        python=python,
        timeout=timeout,
        jobs=jobs,
        depth=depth,
        measure=measure,
        extra_paths=[str(Path(p).resolve()) for p in extra_paths],
        keep_jobs=keep_logs,
        forward=forward,
        run_kernels=_split_csv(run_kernels),
        store_dir=Path(tempfile.mkdtemp(prefix="deadinit-gpu-tensors-")) if forward else None,
    )
    orig_tree = runner.Tree(runner.ORIGINAL, original.resolve(), str(original))

    def progress(msg: str) -> None:
        console.print(msg, markup=False, highlight=False, style="dim")

    data = runner.run(targets, orig_tree, trees, profile_for, opts, strict=strict, progress=progress)
    data["command"] = "deadinit gpu-check " + shlex.join(sys.argv[1:]) if sys.argv else None

    if opts.store_dir:
        shutil.rmtree(opts.store_dir, ignore_errors=True)
    if output:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(report.to_json(data), encoding="utf-8")
    if pr_body:
        _write_pr_body(pr_body, fix_reports, data, trees)
    if fmt == "json":
        click.echo(report.to_json(data), nl=False)
    else:
        report.render_text(data, None, verbose)
    sys.exit(data["exit_code"])


def _targets(classes, reports: list, original: Path) -> list[inputs.Target]:
    if not classes and not reports:
        raise click.UsageError("nothing to build: give --class or --from-fix-report")
    targets = inputs.collect_targets(classes, reports, original)
    if not targets:
        raise click.UsageError("the fix reports name none of the --class classes")
    return targets


def _add_expects(targets: list[inputs.Target], reads, skipped, bases, not_in_mro) -> None:
    """Add each ``--expect-*`` option to the targets its scope names (all, without one)."""
    for option, field_name in (
        (reads, "reads"),
        (skipped, "skipped"),
        (bases, "new_bases"),
        (not_in_mro, "not_in_mro"),
    ):
        for value in option:
            scope, names = inputs.parse_scoped(value)
            matched = [t for t in targets if inputs.scope_matches(scope, t)]
            if scope and not matched:
                raise click.UsageError(f"{value}: no class {scope} among the targets")
            for target in matched:
                target.add_expect(inputs.ALL, inputs.Expect(**{field_name: names}))


def _trees(rewritten, rewritten_refs, original: Path, repo) -> list[runner.Tree]:
    """The rewritten trees: the folders given, then each git ref checked out in a temporary folder."""
    workdir = Path(tempfile.mkdtemp(prefix="deadinit-gpu-trees-"))
    used: set = set()
    trees = []
    for value in rewritten:
        label, path = inputs.split_labeled(value)
        if not Path(path).is_dir():
            raise click.UsageError(f"--rewritten {path}: not a directory")
        trees.append(runner.Tree(_rewritten_label(label, len(trees), used), Path(path).resolve(), path))
    for value in rewritten_refs:
        label, ref = inputs.split_labeled(value)
        path = runner.tree_from_ref(original, ref, workdir, repo)
        trees.append(runner.Tree(_rewritten_label(label or ref, len(trees), used), path, f"git ref {ref}"))
    return trees


def _write_pr_body(pr_body: Path, fix_reports, data: dict, trees: list[runner.Tree]) -> None:
    fix_data = [
        (label, pr_body_module.load_fix_report(Path(path))) for label, path in map(inputs.split_labeled, fix_reports)
    ]
    pr_body.parent.mkdir(parents=True, exist_ok=True)
    root = trees[0].path if trees else None  # where the statements a flag skips are read
    pr_body.write_text(pr_body_module.render(fix_data, [data], root), encoding="utf-8")


def main() -> None:  # pragma: no cover - thin wrapper
    gpu_check(prog_name="deadinit gpu-check")


if __name__ == "__main__":  # pragma: no cover
    main()
