from .act import make_act
from .conv import ConvBlock, build_conv
from .norm import build_norm

__all__ = ["ConvBlock", "build_conv", "build_norm", "make_act"]
