"""``deadinit.semantics.summary.expressions``: what the summary records of expressions."""

from semantic_snippets import PARSE, expr
from summary_snippets import method, summarize

from deadinit.model.access import ObjectWalk, TypeRef
from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary
from deadinit.semantics.dynamic import ANY
from deadinit.semantics.summary.expressions import ExpressionFacts


def test_reads_writes_and_dynamic_access_of_self(adapter):
    s = summarize(
        """
        class K(Base):
            def run(self, k):
                a = self.a
                b = getattr(self, "b")
                c = self.__dict__["c"]
                self._modules["d"] = a
                d = getattr(self, k)
                e = hasattr(self, "e")
                return vars(self)
        """,
        adapter,
    )
    m = method(s, "K", "run")
    assert [r[0] for r in m.reads] == ["a", "b", "c", "__dict__", "_modules", "e"]  # keyed storage is loaded too
    assert [w[0] for w in m.writes] == ["d"]
    assert [(reason, pattern) for reason, _, pattern in m.dynamic] == [
        ("getattr(self, <computed>) with any name", ANY),
        ("vars(self)", ANY),
    ]


def test_super_and_parent_calls(adapter):
    s = summarize(
        """
        class K(Base):
            def run(self):
                super().run()
                super(K, self).step()
                Base.run(self)
        """,
        adapter,
    )
    m = method(s, "K", "run")
    assert m.super_calls == [("run", None), ("step", "K")]
    assert m.parent_calls == [("Base", "run")]


def test_reads_of_other_objects_with_their_receivers(adapter):
    s = summarize(
        """
        import pkg.layers
        cfg.size
        hasattr(cfg, "scale")
        def f(model: Model, i):
            model.weight
            getattr(model, "norm", None)
            items[i].bias
            pkg.layers.mlp
        """,
        adapter,
    )
    reads = {a.attr: a for a in s.accesses}
    assert reads["size"].in_function is None and reads["size"].receiver == "cfg"
    assert reads["norm"].receiver == "model" and reads["norm"].param == (0, "model")  # ``getattr(model, "norm")``
    assert reads["scale"].receiver == "cfg"
    assert reads["weight"].types == (TypeRef("Model", False),) and reads["weight"].param == (0, "model")
    assert reads["bias"].receiver == "<expr>"
    assert reads["mlp"].on_module  # an attribute of a module, not of an object


def test_constructions_isinstance_and_env_defaults(adapter):
    s = summarize(
        """
        LIMIT = EnvInt(8)
        class K:
            def __init__(self, x):
                self.b = Block(self, key=self)
                if isinstance(x, (A, B)):
                    pass
        """,
        adapter,
    )
    assert [(c.callee, c.in_class, c.in_function, c.self_args) for c in s.constructs] == [
        ("EnvInt", None, None, ()),
        ("Block", "pkg.m.K", "__init__", (0, "key")),
    ]
    assert [name for name, _ in s.isinstance_checks] == ["A", "B"]
    assert s.env_defaults == {"LIMIT": ("const", 8)}


def test_one_call_and_one_read_at_module_level(adapter):
    facts = ExpressionFacts(FileSummary("m.py", "m", False), Settings(), PARSE[adapter])
    facts.call(expr("Block(n)", adapter))
    facts.attribute(expr("cfg.size", adapter))
    assert [(c.callee, c.in_class, c.in_function) for c in facts.s.constructs] == [("Block", None, None)]
    assert [(a.attr, a.receiver, a.types) for a in facts.reads] == [("size", "cfg", None)]


def test_the_summary_keeps_walks_whose_elements_may_leave(adapter):
    s = summarize(
        """
        class K(Base):
            def checkpoint(self):
                return {n: c for n, c in self.named_children()}
            def gen(self):
                for p in self.parameters():
                    yield p
            def park(self):
                for p in self.parameters():
                    p.data = p.data.cpu()
            def device(self):
                return next(self.parameters()).device
        """,
        adapter,
    )
    assert [w[0] for w in method(s, "K", "checkpoint").walks] == ["named_children"]
    assert [w[0] for w in method(s, "K", "gen").walks] == ["parameters"]  # a generator gives its elements back
    assert method(s, "K", "park").walks == []  # gives nothing back: acts on each element
    assert method(s, "K", "device").walks == []  # the first parameter only


def test_a_walk_over_another_object_in_a_function_that_gives_nothing_back_acts_on_each_element(adapter):
    s = summarize(
        """
        def dump(model):
            return dict(model.named_children())
        def patch(model):
            for child in model.children():
                child.forward = wrap(child.forward)
        def trie(node):
            return node.children[0], list(node._modules.values())
        def tree(pid):
            return psutil.Process(pid).children()
        """,
        adapter,
    )
    walks = {(a.in_function, a.attr): a.walk for a in s.accesses}
    assert walks[("dump", "named_children")] is ObjectWalk.GIVES_BACK  # its elements leave with what it gives back
    assert walks[("patch", "children")] is ObjectWalk.ACTS
    assert walks[("patch", "forward")] is None  # not a walk: a read
    assert walks[("trie", "children")] is None  # a field of that name, not called
    assert walks[("trie", "_modules")] is ObjectWalk.GIVES_BACK  # a storage, however it is used
    tree = next(a for a in s.accesses if a.in_function == "tree")  # a constructor call's result: exactly that class
    assert tree.walk is ObjectWalk.GIVES_BACK and tree.types == (TypeRef("psutil.Process", True),)


def test_a_walk_whose_elements_stay_in_the_function_is_recorded_as_staying(adapter):
    s = summarize(
        """
        def hooks(name, module, out):
            if hasattr(module, "hook"):
                out[name] = module.hook()
            for sub, child in module.named_children():
                hooks(sub, child, out)
            return out
        def collect(module, out):
            out.append(module)
            for child in module.children():
                collect(child, out)
            return out
        """,
        adapter,
    )
    walks = {(a.in_function, a.attr): a.walk for a in s.accesses}
    assert walks[("hooks", "named_children")] is ObjectWalk.STAYS  # each child only recursed into
    assert walks[("collect", "children")] is ObjectWalk.GIVES_BACK  # the recursion's parameter is stored
