"""A stored result is not reused once a library is installed where deadinit reads libraries."""

import shutil

from layer_site import SITE
from sample_project import invoke

PROJECT = """
import torch.nn as nn
from layerlib import build_conv


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv = build_conv(None, c, c, 3)

    def forward(self, x):
        return self.conv(x)


class Wide(Block):
    def __init__(self, c):
        super().__init__(c)
        self.conv = build_conv(None, c, c, 5)
"""


def test_installing_the_library_changes_the_cached_result(tmp_path):
    root, site = tmp_path / "proj", tmp_path / "site"
    (root / "app").mkdir(parents=True)
    site.mkdir()
    (root / "app" / "__init__.py").write_text("")
    (root / "app" / "blocks.py").write_text(PROJECT)
    (root / "pyproject.toml").write_text(f'[tool.deadinit]\nlibrary-paths = ["{site}"]\n')
    args = ["check", "app", "--cache-dir", str(tmp_path / "cache"), "--color", "never"]
    before = invoke(args, cwd=root)
    assert before.exit_code == 0, before.stderr
    assert "2 calls into `layerlib` were not analysed (not installed here)" in " ".join(before.stdout.split())
    shutil.copytree(SITE / "layerlib", site / "layerlib")
    after = invoke(args, cwd=root)
    assert after.exit_code == 1, after.stderr
    assert "DI001" in after.stdout and "not installed" not in after.stdout
