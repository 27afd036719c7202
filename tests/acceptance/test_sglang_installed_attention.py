"""Acceptance on real code with the attention library's Python sources installed where deadinit
reads libraries (the active virtual environment, ``PYTHONPATH``): sglang 0.5.23's FlashInfer
wrapper attributes are found through the installed ``flashinfer`` itself, with the heavy-class
pattern's ``Wrapper`` fallback turned off. Skips unless both the corpus and flashinfer's sources
are there (``pip install --no-deps flashinfer-python`` into the venv the tests run in, or point
``VIRTUAL_ENV`` at one that has it)."""

import pytest
from corpus_paths import sglang_tree

from deadinit.api import project
from deadinit.installed import environment
from deadinit.installed.finder import ModuleFinder
from deadinit.installed.search_path import search_entries
from deadinit.model.settings import Settings
from deadinit.runtime.summarizer import ProjectSummarizer

pytestmark = [pytest.mark.corpus, pytest.mark.slow]

ATT = "sglang.srt.layers.attention."
MHA = ATT + "trtllm_mha_backend.TRTLLMHAAttnBackend"
MLA = ATT + "trtllm_mla_backend.TRTLLMMLABackend"
NO_WRAPPER = r"(Updater\w*|Runner|Backend|Pool|Cache|Workspace)$"  # the default less its `Wrapper` fallback
WRAPPERS = ("prefill_wrapper_ragged", "prefill_wrappers_paged", "prefill_wrappers_verify", "decode_wrappers")


@pytest.fixture(scope="module")
def without_wrapper_pattern(tmp_path_factory):
    """``deadinit check --config <the pattern less Wrapper>`` on sglang 0.5.23, as the command runs it."""
    if ModuleFinder(search_entries(Settings())).find("flashinfer.prefill") is None:
        pytest.skip("flashinfer's Python sources are not installed where deadinit reads libraries")
    paths = [str(sglang_tree("0.5.23"))]
    folder = tmp_path_factory.mktemp("no-wrapper")
    config = folder / "pyproject.toml"
    config.write_text(f"[tool.deadinit]\nheavy-class-pattern = '{NO_WRAPPER}'\n")  # a literal string
    environment._indexes.clear()
    try:
        cfg = project.configure(paths, config_file=str(config))
        assert cfg.settings.heavy_class_pattern == NO_WRAPPER
        return project.analyse(paths, cfg, summarizer=ProjectSummarizer(use_cache=True, cache_dir=str(folder / "c")))
    finally:
        environment._indexes.clear()


def _by(result, cls):
    return {(f.code, f.attribute): f for f in result.findings if f.cls == cls}


def test_flashinfer_is_read_not_named_unanalysed(without_wrapper_pattern):
    assert "flashinfer" not in {u.package for u in without_wrapper_pattern.unanalysed}


def test_wrappers_found_through_the_installed_library(without_wrapper_pattern):
    """Each wrapper's ``__init__`` allocates its own int workspace (read from flashinfer/prefill.py
    and decode.py): constructing one is an allocation without any name pattern."""
    got = _by(without_wrapper_pattern, MHA)
    for attr in WRAPPERS:
        assert ("DI002", attr) in got, attr
        f = got[("DI002", attr)]
        assert f.parent == ATT + "flashinfer_backend.FlashInferAttnBackend"
        assert f.kind in ("object", "list of object"), f.kind  # what the class allocates, not its name


def test_live_wrappers_still_not_reported(without_wrapper_pattern):
    got = {attr for _, attr in _by(without_wrapper_pattern, MLA)}
    for attr in ("prefill_wrapper_ragged", "prefill_wrapper_paged"):
        assert attr not in got, attr
