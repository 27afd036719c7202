"""The ``torch.nn`` classes whose place in torch's hierarchy is known without torch installed.

A guarded walk (``ObjectWalk.GUARDED``) hands out a visited module only when it may be an instance
of the guard's class; ``known_ancestors`` says which classes a ``torch.nn`` class certainly is
(itself, ``torch.nn.Module`` and the ``torch.nn`` bases it derives from), so that a layer of another
kind is known not to be one.  The layers listed hold no submodules.  A class not listed is unknown:
it may be anything.
"""

from __future__ import annotations

TORCH_NN = "torch.nn."
MODULE = "torch.nn.Module"

_CONV = ("_ConvNd",)
_CONV_T = ("_ConvTransposeNd", "_ConvNd")
_BATCH_NORM = ("_BatchNorm", "_NormBase")
_INSTANCE_NORM = ("_InstanceNorm", "_NormBase")
_DROPOUT = ("_DropoutNd",)

# a layer without submodules -> the torch.nn classes between it and ``torch.nn.Module``
LEAF_LAYERS: dict[str, tuple[str, ...]] = {
    "Linear": (),
    "Bilinear": (),
    "LazyLinear": ("Linear", "LazyModuleMixin"),
    "Identity": (),
    "Embedding": (),
    "EmbeddingBag": (),
    "Conv1d": _CONV,
    "Conv2d": _CONV,
    "Conv3d": _CONV,
    "ConvTranspose1d": _CONV_T,
    "ConvTranspose2d": _CONV_T,
    "ConvTranspose3d": _CONV_T,
    "LayerNorm": (),
    "GroupNorm": (),
    "RMSNorm": (),
    "LocalResponseNorm": (),
    "BatchNorm1d": _BATCH_NORM,
    "BatchNorm2d": _BATCH_NORM,
    "BatchNorm3d": _BATCH_NORM,
    "SyncBatchNorm": _BATCH_NORM,
    "InstanceNorm1d": _INSTANCE_NORM,
    "InstanceNorm2d": _INSTANCE_NORM,
    "InstanceNorm3d": _INSTANCE_NORM,
    "Dropout": _DROPOUT,
    "Dropout1d": _DROPOUT,
    "Dropout2d": _DROPOUT,
    "Dropout3d": _DROPOUT,
    "ReLU": (),
    "ReLU6": ("Hardtanh",),
    "GELU": (),
    "SiLU": (),
    "Mish": (),
    "Tanh": (),
    "Sigmoid": (),
    "Softmax": (),
    "LogSoftmax": (),
    "Softplus": (),
    "LeakyReLU": (),
    "PReLU": (),
    "ELU": (),
    "SELU": (),
    "Hardswish": (),
    "Hardtanh": (),
    "Hardsigmoid": (),
    "GLU": (),
    "Flatten": (),
    "Unflatten": (),
}


def torch_name(full: str) -> str | None:
    """``torch.nn.<Name>`` for a class of ``torch.nn`` however it is reached (``torch.nn.modules.conv.Conv1d``)."""
    return TORCH_NN + full.rsplit(".", 1)[-1] if full.startswith(TORCH_NN) else None


def known_ancestors(full: str) -> frozenset[str] | None:
    """The classes an instance of the ``torch.nn`` class ``full`` certainly is, all of them; None: not known."""
    name = torch_name(full)
    if name == MODULE:
        return frozenset({MODULE})
    last = name.rsplit(".", 1)[-1] if name is not None else ""
    if last not in LEAF_LAYERS:
        return None
    return frozenset({MODULE, TORCH_NN + last, *(TORCH_NN + a for a in LEAF_LAYERS[last])})


def is_leaf(full: str) -> bool:
    """Whether the ``torch.nn`` class ``full`` is a layer that holds no submodules."""
    name = torch_name(full)
    return name is not None and name.rsplit(".", 1)[-1] in LEAF_LAYERS
