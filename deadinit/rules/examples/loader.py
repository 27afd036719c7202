"""DI002 fix examples of a registered module whose class's weight loader skips the names it does not know:
the default fix may then stop building the module (the checkpoint's entries for it are skipped)."""

from __future__ import annotations

from deadinit.rules.base import FixExample

SKIPPING_LOADER = {
    "pkg/__init__.py": "",
    "pkg/model.py": """
from torch import nn


class LanguageModel(nn.Module):
    def __init__(self, dim, vocab):
        super().__init__()
        self.body = nn.Linear(dim, dim)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, x):
        return self.lm_head(self.body(x))

    def load_weights(self, weights):
        params_dict = dict(self.named_parameters())
        for name, loaded_weight in weights:
            if name not in params_dict:
                continue  # a checkpoint name of no parameter is skipped
            params_dict[name].data.copy_(loaded_weight)


class EmbeddingModel(LanguageModel):
    def __init__(self, dim, vocab):
        super().__init__(dim, vocab)

    def forward(self, x):
        return self.body(x)  # never runs the head
""",
}

SKIPPING_LOADER_FIXED = {
    "pkg/model.py": SKIPPING_LOADER["pkg/model.py"]
    .replace(
        "def __init__(self, dim, vocab):\n        super().__init__()",
        "def __init__(self, dim, vocab, skip_init_lm_head: bool = False):\n        super().__init__()",
    )
    .replace(
        "        self.lm_head = nn.Linear(dim, vocab)",
        "        if not skip_init_lm_head:\n            self.lm_head = nn.Linear(dim, vocab)\n"
        "        else:\n            self.lm_head = None",
    )
    .replace("super().__init__(dim, vocab)\n", "super().__init__(dim, vocab, skip_init_lm_head=True)\n")
}

LOADER_FIXES = (
    FixExample(
        SKIPPING_LOADER,
        SKIPPING_LOADER_FIXED,
        note="a registered module, but the weight loader skips unknown names: a safe fix, applied by default",
    ),
)
