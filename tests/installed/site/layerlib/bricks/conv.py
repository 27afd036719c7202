import torch.nn as nn

from ..base import BaseLayer

CONV_LAYERS = {"Conv1d": nn.Conv1d, "Conv2d": nn.Conv2d, "Conv3d": nn.Conv3d}


def build_conv(cfg, *args, **kwargs) -> nn.Module:
    """The layer class is looked up at run time: only the annotation says what comes back."""
    if cfg is None:
        cfg = {"type": "Conv2d"}
    layer_type = cfg["type"]
    conv_layer = CONV_LAYERS[layer_type]
    layer = conv_layer(*args, **kwargs)
    return layer


class ConvBlock(BaseLayer):
    def __init__(self, cin, cout, kernel=3, norm_cfg=None):
        super().__init__()
        self.conv = build_conv(None, cin, cout, kernel)
        self.with_norm = norm_cfg is not None

    def forward(self, x):
        return self.conv(x)
