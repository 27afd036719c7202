import torch.nn as nn


class BaseLayer(nn.Module):
    """Every layer of the library derives from it: an ``nn.Module`` two classes up."""

    def __init__(self, init_cfg=None):
        super().__init__()
        self.init_cfg = init_cfg
