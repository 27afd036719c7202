import torch.nn as nn

NORM_LAYERS = {"BN": nn.BatchNorm2d, "LN": nn.LayerNorm}


def build_norm(cfg, num_features, postfix="") -> tuple[str, nn.Module]:
    """(name, layer): the caller registers the layer under the name."""
    if cfg is None:
        cfg = {"type": "BN"}
    norm_layer = NORM_LAYERS[cfg["type"]]
    name = cfg["type"].lower() + str(postfix)
    layer = norm_layer(num_features)
    return name, layer
