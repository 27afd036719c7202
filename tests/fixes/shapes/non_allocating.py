"""Statements that allocate nothing are never guarded: an attribute set from a parameter, or
to None, stays; an ``if``/``else`` whose allocating branch is skipped is guarded inside."""

import torch


class Indexer:
    def __init__(self, max_bs, last_page_buf=None):
        self.max_bs = max_bs
        if last_page_buf is None:
            self.last_page = torch.ones((max_bs,), dtype=torch.int32)
        else:
            assert max_bs > 0
            self.last_page = last_page_buf
        self.page_hint = last_page_buf
        self.metadata = None

    def forward(self, x):
        return x + self.last_page[0], self.page_hint


class TableIndexer(Indexer):
    def __init__(self, max_bs, last_page_buf=None):
        super().__init__(max_bs, last_page_buf)

    def forward(self, x):
        return x + self.max_bs
