"""``deadinit.semantics.loaders.skips``: which ``load_weights`` provably skip checkpoint names that name
no parameter.  Every summary is built with both adapters: the verdict must not depend on the parser."""

import textwrap

import pytest
from semantic_snippets import function

from deadinit.frontends.parse import summarize_source
from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary
from deadinit.semantics.loaders.skips import skips_unknown_weights

ADAPTERS = ("cst", "ast")
HEAD = """
class M:
    def load_weights(self, weights):
        params_dict = dict(self.named_parameters())
        for name, w in weights:
"""


def verdict(loop_body: str, adapter: str, head: str = HEAD) -> int | None:
    source = textwrap.dedent(head) + textwrap.indent(textwrap.dedent(loop_body), " " * 12)
    got = summarize_source(source.encode(), "m.py", "m", False, Settings(), adapter=adapter)
    assert isinstance(got, FileSummary), got
    return got.classes[0].methods["load_weights"].skips_unknown_weights


PROVEN = {
    "not-in-continue": """
        if name not in params_dict:
            continue
        params_dict[name].weight_loader(params_dict[name], w)
    """,
    "in-guard": """
        if "rotary" in name:
            continue
        if name in params_dict.keys():
            param = params_dict[name]
            param.weight_loader(param, w)
        else:
            logger.warning(f"no parameter {name}")
    """,
    "get-none-continue": """
        param = params_dict.get(name)
        if param is None:
            continue
        param.weight_loader(param, w)
    """,
    "or-guard": """
        if name.startswith("lm_head") or name not in params_dict:
            continue
        loaded = params_dict[name]
        assert loaded.shape == w.shape
    """,
    "stacked-mapping": """
        for param_name, shard_name, shard in STACKED:
            if shard_name not in name:
                continue
            name = name.replace(shard_name, param_name)
            if name not in params_dict:
                continue
            params_dict[name].weight_loader(params_dict[name], w, shard)
            break
        else:
            if name not in params_dict:
                continue
            params_dict[name].weight_loader(params_dict[name], w)
    """,
}

NOT_PROVEN = {
    "unguarded-lookup": """
        param = params_dict[name]
        param.weight_loader(param, w)
    """,
    "and-guard-proves-nothing": """
        if name.endswith(".bias") and name not in params_dict:
            continue
        params_dict[name].weight_loader(params_dict[name], w)
    """,
    "raises-on-unknown": """
        if name not in params_dict:
            raise KeyError(name)
        params_dict[name].weight_loader(params_dict[name], w)
    """,
    "stops-on-unknown": """
        if name not in params_dict:
            break
        params_dict[name].weight_loader(params_dict[name], w)
    """,
    "get-used-before-check": """
        param = params_dict.get(name)
        param.weight_loader(param, w)
    """,
    "name-handed-to-a-helper": """
        if self.route(name, w):
            continue
        if name not in params_dict:
            continue
        params_dict[name].weight_loader(params_dict[name], w)
    """,
    "table-handed-to-a-helper": """
        if try_load(name, w, params_dict):
            continue
        if name in params_dict:
            params_dict[name].weight_loader(params_dict[name], w)
    """,
    "name-indexes-something": """
        layer = int(name.split(".")[2])
        if name not in params_dict:
            continue
        params_dict[name].weight_loader(params_dict[name], w, layer)
    """,
    "renamed-after-the-guard": """
        if name not in params_dict:
            continue
        name = name.replace("a", "b")
        params_dict[name].weight_loader(params_dict[name], w)
    """,
    "walrus": """
        if (param := params_dict.get(name)) is None:
            continue
        param.weight_loader(param, w)
    """,
}


@pytest.mark.parametrize("adapter", ADAPTERS)
@pytest.mark.parametrize("case", sorted(PROVEN))
def test_loaders_that_skip_unknown_names(case, adapter):
    assert verdict(PROVEN[case], adapter) is not None


@pytest.mark.parametrize("adapter", ADAPTERS)
@pytest.mark.parametrize("case", sorted(NOT_PROVEN))
def test_loaders_that_may_fail_or_stop_on_an_unknown_name(case, adapter):
    assert verdict(NOT_PROVEN[case], adapter) is None


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_the_line_is_the_guard_that_proves_it(adapter):
    line = verdict(PROVEN["not-in-continue"], adapter)
    assert line == 7  # the `if name not in params_dict:` line


@pytest.mark.parametrize("adapter", ADAPTERS)
@pytest.mark.parametrize(
    "head",
    [
        # the weights also go elsewhere
        "class M:\n    def load_weights(self, weights):\n        params_dict = dict(self.named_parameters())\n"
        "        super().load_weights(weights)\n        for name, w in weights:\n",
        # the table is not built from named_parameters
        "class M:\n    def load_weights(self, weights):\n        params_dict = self.lookup()\n"
        "        for name, w in weights:\n",
        # the table is bound again
        "class M:\n    def load_weights(self, weights):\n        params_dict = dict(self.named_parameters())\n"
        "        params_dict = {}\n        for name, w in weights:\n",
    ],
    ids=["weights-passed-on", "other-table", "table-rebound"],
)
def test_the_shape_of_the_loader(head, adapter):
    assert verdict(PROVEN["not-in-continue"], adapter, head) is None


def test_the_proof_on_one_function(adapter):
    fn = function(
        """
        def load_weights(self, weights):
            params_dict = dict(self.named_parameters())
            for name, w in weights:
                if name not in params_dict:
                    continue
                params_dict[name].copy_(w)
        """,
        adapter,
    )
    assert skips_unknown_weights(fn, "self") == 5  # the line of the test that skips
    unproven = function(
        "def load_weights(self, weights):\n    for name, w in weights:\n        self.p[name] = w\n", adapter
    )
    assert skips_unknown_weights(unproven, "self") is None
