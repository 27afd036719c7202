"""A stand-in layer library, written for deadinit's tests: the constructs model code built with
layer libraries uses (a module base class, builder functions that look the layer up at run time,
a registry class, classes that allocate and classes that do not).  Never imported by the tests:
deadinit reads it as an installed library."""

from layerlib.base import BaseLayer
from layerlib.bricks import ConvBlock, build_conv, build_norm, make_act
from layerlib.kernels import PlanInfo, StagingPlanner, TileWrapper
from layerlib.registry import Registry

__all__ = [
    "BaseLayer",
    "ConvBlock",
    "PlanInfo",
    "Registry",
    "StagingPlanner",
    "TileWrapper",
    "build_conv",
    "build_norm",
    "make_act",
]
