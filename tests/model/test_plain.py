"""``plain_fields`` gives what ``dataclasses.asdict`` gives, without its deep copies."""

import json
from dataclasses import asdict
from typing import NamedTuple

from deadinit.model.evidence import Evidence, EvidenceKind
from deadinit.model.finding import Finding
from deadinit.model.fix import Change, Refusal
from deadinit.model.kinds import RefusalKind
from deadinit.model.plain import plain_fields


class Place(NamedTuple):
    path: str
    line: int


def _finding() -> Finding:
    return Finding(
        "DI001", "overwritten-parent-allocation", "pkg/m.py", 3, 4, "pkg.m.C", "pkg.m.P", "buf", "tensor", 1024,
        "msg", evidence=[Evidence(EvidenceKind.ALLOCATED, "built", "pkg/m.py", 2)], unsure=["dynamic"],
        related_paths=["pkg/p.py"], related_lines=[("pkg/p.py", 7)],
        extra={"subclasses": ["pkg.m.D"], "kept_by": [("a", 1)], "nested": {"k": [Place("x.py", 1)]}},
    )  # fmt: skip


def test_the_fields_come_as_asdict_gives_them_in_the_same_order():
    records = [
        _finding(),
        Change(
            id="skip-flag:pkg.m.C",
            strategy="skip-flag",
            cls="pkg.m.C",
            file="pkg/m.py",
            attributes=["buf"],
            findings=["k"],
            parents=["pkg.m.P"],
        ),
        Refusal("pkg.m.C", "pkg.m.P", ["buf"], "why", ["k"], RefusalKind.REFUSED),
    ]
    for record in records:
        plain, deep = plain_fields(record), asdict(record)
        assert plain == deep and list(plain) == list(deep)
        assert json.dumps(plain, default=str) == json.dumps(deep, default=str)


def test_a_named_tuple_stays_one():
    assert type(plain_fields(_finding())["extra"]["nested"]["k"][0]) is Place


def test_given_fields_keep_their_place():
    f = _finding()
    d = plain_fields(f, evidence=["given"])
    assert d["evidence"] == ["given"] and list(d) == list(asdict(f))


def test_the_containers_are_copies():
    f = _finding()
    d = plain_fields(f)
    d["extra"]["subclasses"].append("more")
    d["unsure"].clear()
    assert f.extra["subclasses"] == ["pkg.m.D"] and f.unsure == ["dynamic"]
