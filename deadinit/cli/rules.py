"""``deadinit rules`` (the rule table) and ``deadinit rule CODE`` (one rule's doc).

``markdown_table()`` is also the README's rule reference (see ``deadinit.cli.readme``).
"""

from __future__ import annotations

import json
import sys

import click

from deadinit.api.rules import ALL_RULES, lookup
from deadinit.cli.output import fail, make_console


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _safety(rule) -> str:
    """The fix safety's first sentence."""
    text = _one_line(rule.fix_safety)
    return text.split(". ")[0].rstrip(".") + "." if text else ""


def rule_rows() -> list[dict]:
    return [
        {
            "code": r.code,
            "name": r.name,
            "summary": _one_line(r.summary),
            "fix": _one_line(r.fix),
            "fix_safety": _safety(r),
        }
        for r in ALL_RULES
    ]


def markdown_table() -> str:
    def cell(s: str) -> str:
        return s.replace("|", "\\|")

    lines = ["| Code | Name | What it flags | Fix |", "|------|------|---------------|-----|"]
    for r in rule_rows():
        lines.append(f"| {r['code']} | `{r['name']}` | {cell(r['summary'])} | {cell(r['fix'])} |")
    return "\n".join(lines) + "\n"


@click.command("rules")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True)
def rules(fmt: str, color: str) -> None:
    """List every rule: code, name, what it flags, fix."""
    if fmt == "json":
        sys.stdout.write(json.dumps(rule_rows(), indent=2) + "\n")
        return
    if fmt == "markdown":
        sys.stdout.write(markdown_table())
        return
    from rich.table import Table  # noqa: PLC0415 - rich.table only for a terminal

    table = Table(show_lines=False, header_style="bold")
    for col in ("code", "name", "what it flags", "fix"):
        table.add_column(col, overflow="fold")
    for r in rule_rows():
        table.add_row(r["code"], r["name"], r["summary"], r["fix"])
    make_console(color).print(table)
    click.echo("Run `deadinit rule CODE` for a rule's full doc.")


@click.command("rule")
@click.argument("code")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "markdown", "json"]),
    default="text",
    show_default=True,
    help="text renders the doc on a terminal; markdown prints its source.",
)
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True)
def rule(code: str, fmt: str, color: str) -> None:
    """Show a rule's doc: what it does, why it is bad, example, fix safety (CODE or name)."""
    r = lookup(code)
    if r is None:
        fail(f"unknown rule {code!r} (known: {', '.join(x.code for x in ALL_RULES)}; see `deadinit rules`)")
    doc = r.doc()
    if fmt == "json":
        sys.stdout.write(
            json.dumps(
                {"code": r.code, "name": r.name, "summary": _one_line(r.summary), "fix_safety": _safety(r), "doc": doc},
                indent=2,
            )
            + "\n"
        )
        return
    console = make_console(color)
    if fmt == "markdown" or not console.is_terminal:
        sys.stdout.write(doc if doc.endswith("\n") else doc + "\n")
        return
    from rich.markdown import Markdown  # noqa: PLC0415 - markdown-it only for a terminal

    console.print(Markdown(doc))
