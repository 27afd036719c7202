"""A summary pickles to the same bytes in every process: string hashing is randomised per process,
and the summary pack and the incremental analysis's digests (``session.table_digests``) hash the
pickles of summaries, their classes and their method blobs (``model.pickled.PickledMapping``)."""

import os
import subprocess
import sys

from corpus_paths import FIXTURES

_DIGESTS = (
    "import hashlib, pickle, sys\n"
    "from pathlib import Path\n"
    "from deadinit.frontends.parse import summarize_source\n"
    "from deadinit.model.settings import Settings\n"
    "for p in sorted(Path(sys.argv[1]).rglob('*.py')):\n"
    "    s = summarize_source(p.read_bytes(), str(p), p.stem, False, Settings())\n"
    "    for c in getattr(s, 'classes', ()):\n"
    "        blob = pickle.dumps(c, protocol=pickle.HIGHEST_PROTOCOL)\n"
    "        methods = pickle.dumps(c.methods, protocol=pickle.HIGHEST_PROTOCOL)\n"
    "        print(c.qualname, hashlib.sha256(blob + methods).hexdigest())\n"
)


def test_fixture_classes_and_their_methods_pickle_alike_under_every_hash_seed():
    outs = {
        subprocess.run(
            [sys.executable, "-c", _DIGESTS, str(FIXTURES)],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2")
    }
    assert len(outs) == 1 and next(iter(outs)).count("\n") > 50
