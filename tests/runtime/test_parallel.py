"""Worker processes: same results, same order, crashes contained."""

import os

from corpus_paths import FIXTURES

from deadinit.api.check import run_check
from deadinit.frontends import parse
from deadinit.frontends.parse import FileError
from deadinit.index.discovery import discover
from deadinit.model.settings import Settings
from deadinit.runtime import workers
from deadinit.runtime.pool import Pool, _chunks, _guided_chunks
from deadinit.runtime.summarizer import ProjectSummarizer

workers_summarize = workers.summarize


def _items(root):
    return [(f.path, f.module, f.is_package) for f in discover([str(root)]).files]


def test_results_keep_input_order_whatever_the_chunking():
    items = list(range(-60, 60))
    with Pool(2) as pool:
        assert pool.map(abs, items, weights=[abs(i) for i in items], chunk_weight=7) == [abs(i) for i in items]
    assert Pool(1).map(abs, items) == [abs(i) for i in items]


def test_received_turns_each_result_here_in_input_order():
    items = list(range(-30, 30))
    with Pool(2) as pool:
        assert pool.map(abs, items, chunk_weight=7, received=str) == [str(abs(i)) for i in items]
    assert Pool(1).map(abs, items, received=str) == [str(abs(i)) for i in items]


def test_chunks_cover_every_item_once_heaviest_first():
    chunks = _chunks([5, 1, 9, 1, 1, 3], target=4)
    flat = [i for c in chunks for i in c]
    assert sorted(flat) == list(range(6)) and flat[0] == 2


def test_guided_chunks_cover_every_item_once_and_shrink_towards_the_end():
    weights = [(i * 7919) % 1000 + 1 for i in range(2000)]
    chunks = _guided_chunks(weights, jobs=2)
    flat = [i for c in chunks for i in c]
    assert sorted(flat) == list(range(2000)) and weights[flat[0]] == max(weights)
    sizes = [sum(weights[i] for i in c) for c in chunks]
    assert sizes[0] > 4 * sizes[-2]  # the last chunks are small: the workers finish close together
    assert max(sizes[len(sizes) // 2 :]) <= sizes[0]


def test_an_exception_is_that_items_error():
    with Pool(2) as pool:
        out = pool.map(int, ["1", "x", "3"] * 10, chunk_weight=4)
    assert out[0] == 1 and out[2] == 3 and isinstance(out[1], RuntimeError) and "ValueError" in str(out[1])


def test_a_worker_crash_is_an_error_for_that_item_only():
    items = ["1", "2", "__import__('os')._exit(3)", "4", "5", "6", "7", "8"]
    with Pool(2) as pool:
        out = pool.map(eval, items, chunk_weight=3)
    assert out[:2] == [1, 2] and out[3:] == [4, 5, 6, 7, 8]
    assert isinstance(out[2], RuntimeError) and "died" in str(out[2])


def test_errors_are_worded_alike_by_both_adapters(tmp_path):
    bad = {
        "syntax.py": b"def f(:\n",
        "nul.py": b"x = 1\x00\n",
        "cookie.py": b"# coding: nope\nx = 1\n",
        "latin.py": b"# coding: latin-1\nx = '\xe9'\n",
    }
    for name, data in bad.items():
        (tmp_path / name).write_bytes(data)
        args = (str(tmp_path / name), name[:-3], False, Settings())
        assert parse.summarize_file(*args, adapter="ast") == parse.summarize_file(*args, adapter="cst"), name
    assert isinstance(parse.summarize_file(str(tmp_path / "gone.py"), "gone", False, Settings()), FileError)


def test_parallel_run_gives_the_same_findings_as_the_stock_summarizer(tmp_path):
    stock = run_check([str(FIXTURES)], Settings())
    fast = run_check([str(FIXTURES)], Settings(), summarizer=ProjectSummarizer(jobs=2, use_cache=False))
    assert [f.to_json() for f in fast.findings] == [f.to_json() for f in stock.findings]
    assert fast.errors == stock.errors and fast.files == stock.files


def test_nesting_that_would_crash_libcst_is_reported_like_the_stock_path(tmp_path):
    (tmp_path / "deep.py").write_text("x = " + "(" * 5000 + ")" * 5000 + "\n")  # libcst's parser would segfault
    items = _items(tmp_path)
    stock = parse.summarize_many(items, Settings())
    assert ProjectSummarizer(jobs=2, use_cache=False)(items, Settings()) == stock
    assert ProjectSummarizer(jobs=1, use_cache=False)(items, Settings()) == stock


def crashing_summarize(item, *args, **kw):
    if item[0].endswith("boom.py"):
        os._exit(3)  # as a segfault would
    return workers_summarize(item, *args, **kw)


def test_a_worker_dying_on_one_file_is_an_error_line_for_that_file(tmp_path, monkeypatch):
    for i in range(6):
        (tmp_path / f"m{i}.py").write_text(f"class A{i}:\n    pass\n")
    (tmp_path / "boom.py").write_text("x = 1\n")
    monkeypatch.setattr(workers, "summarize", crashing_summarize)
    out = ProjectSummarizer(jobs=2, use_cache=False)(_items(tmp_path), Settings())
    assert isinstance(out[0], FileError) and "died" in out[0].message and out[0].path.endswith("boom.py")
    assert [s.classes[0].name for s in out[1:]] == [f"A{i}" for i in range(6)]


def test_jobs_default_to_the_cores_we_may_use():
    assert ProjectSummarizer().jobs == len(os.sched_getaffinity(0))
