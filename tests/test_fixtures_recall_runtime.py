"""fixtures/EXPECTED.md, table R, runtime cross-check: every recall fixture class runs on the CPU stand-ins, and
the DI002 attributes of table R can be deleted right after construction without breaking what runs."""

import subprocess
import sys

from corpus_paths import REPO

PROBE = """
import sys
sys.modules["torch"] = None  # the fixtures fall back to their CPU stand-ins
from fixtures import runner_stub as rs
from fixtures.recall import conditional as cd, counter_backend as cb, helpers as h, metadata as md, models as m, nested as n, removal as r
from fixtures.recall import copies as cp, joined as jn, rebuilt as rb, spread as sp, specs as sc

runner = rs.make_runner()
for cls in (cb.CounterMLABackend, cb.TokenMLABackend):
    cls(runner).forward_decode("q", 0, 0, 0, 0)
for cls in (m.StackModel, m.ShortStackModel, m.EncoderOnlyModel, m.TextOnlyModel, m.WideHeadModel):
    cls(8, 4)(1)
for cls in (n.DecoderBlock, n.FusedDecoderBlock, n.WrappedDecoderBlock):
    cls(4)(1)
for cls in (r.NoMropeBuffers, r.NoLocBuffers, r.SeqOnlyBuffers):
    cls(4).capture()
r.MaybeNoMropeBuffers(4, True)
for cls in (h.QueryDecoder, h.DeformableDecoder, h.TwoStageDecoder, h.ScoreOnlyDecoder, h.RefineDecoder,
            h.LateDecoder, h.MaybeDecoder, h.OwnLayersDecoder, h.WideOwnLayersDecoder):
    cls(4, 2)(1)
h.MaybeDecoder(4, 2, wide=True)(1)
for cls in (cd.ResidualBlock, cd.ProjectedBlock, cd.DefaultProjectedBlock, cd.PlainShortcutBlock, cd.RefinedShortcutBlock):
    cls(4)(1)
cd.ProjectedBlock(4, project=False)(1)
for cls in (cp.BlurStem, cp.PlainStem):
    cls(4)(1)
cp.BlurStem(4, kind=None, shared=cp.nn.Identity())(1)
assert len(jn.NoRopeTables(4).tables()) == 3
for cls in (sp.InitBlock, sp.SkipInitBlock, sp.NormalInitBlock, sp.PositionalSkipBlock, sp.ForwardedBlock):
    cls(4)(1)
assert sp.SkipInitBlock(4).warm is not None and sp.InitBlock(4, "skip").warm is None  # R39: the early return
for cls in (rb.KernelStack, rb.FusedStack, rb.PackedStack, rb.TracedPackedStack, rb.KeptFusedStack,
            rb.MaybeFusedStack, rb.PackedMaybeStack, rb.UnfusedPackedStack):
    cls(4, 2).forward(1)
rb.PackedMaybeStack(4, 2, fused=False).forward(1)
for cls in (rb.PairStack, rb.FusedPairStack):
    cls(4).forward(1)
assert all(type(k) is rb.FusedKernel for k in rb.FusedPairStack(4).kernels)  # R65: the plain ones are gone
assert all(type(k) is rb.PackedKernel for k in rb.PackedStack(4, 2).kernels)  # R49: the fused ones are gone
for cls in (sc.SpecAttention, sc.ProjAttention, sc.ConfiguredAttention, sc.PlainConfiguredAttention):
    cls(sc.AttnParts(), 4)(1)
sc.SpecAttention(sc.AttnParts(mixer=sc.LayerSpec(sc.Mixer)), 4)(1)
for cls in (sc.DefaultedAttention, sc.LeanDefaultedAttention):
    cls(dim=4)(1)
sc.DefaultedAttention(sc.AttnParts(mixer=sc.LayerSpec(sc.Mixer)), 4)(1)
for cls in (sc.ClassAttrBlock, sc.LinearClassAttrBlock, sc.OverriddenClassAttrBlock):
    cls(4)(1)
assert sc.PlainConfiguredAttention(sc.AttnParts(), 4).out_dim == 4  # the parent's output projection was read
score = h.ScoreOnlyDecoder(4, 2)
del score.reg_branch  # R31
score(1)

token = cb.TokenMLABackend(runner)
del token.kv_counter, token.decode_scratch  # R1, R2
token.forward_decode("q", 0, 0, 0, 0)
wide = m.WideHeadModel(8, 4)
del wide.head, wide.audio  # R8, R9
wide(1)
ragged = md.RaggedBackend(runner)
ragged.init_forward_metadata(1)
del ragged.kv_last_page_len  # R15
ragged.forward_decode(0, 0, 0, 0, 1)
short = m.ShortStackModel(8, 4)
assert (len(short.layers), short.start_layer, short.end_layer) == (2, 0, 2)  # R3: the parent's stack is gone
print("ok")
"""


def test_recall_fixtures_run_and_their_dead_attributes_can_go():
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO, capture_output=True, text=True, check=False)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
