"""fixtures/EXPECTED.md, table F, runtime cross-check: the flow fixture classes run on the CPU stand-ins, and the
DI002 attributes of table F can be deleted right after construction without breaking what runs."""

import subprocess
import sys

from corpus_paths import REPO

PROBE = """
import sys
sys.modules["torch"] = None  # the fixtures fall back to their CPU stand-ins
from fixtures import runner_stub as rs
from fixtures.flow import steps as st

runner = rs.make_runner()
st.PagedStepBackend(runner).forward_decode("q", 0, 0, 0, 0)
multi = st.MultiStepBackend(runner, 3, peers=[st.PagedStepBackend(runner)])
multi.schedule.plans.append(st.StepPlan(7))
del multi.kv_last_page_len, multi.qo_indptr, multi.page_table, multi.cu_seqlens, multi.kv_indices  # F1-F5
del multi.req_offsets  # F6
multi.forward_decode("q", 0, 0, 0, 0, views=[st.BatchView(1)])
st.register_record(multi, st.StepMetadata())
multi.forward_extend("q", 0, 0, 0, 0)
print("ok")
"""


def test_flow_fixtures_run_and_their_dead_attributes_can_go():
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO, capture_output=True, text=True, check=False)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
