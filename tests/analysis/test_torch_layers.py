"""``deadinit.analysis.liveness.torch_layers``: what a ``torch.nn`` class certainly is, without torch."""

from deadinit.analysis.liveness.torch_layers import is_leaf, known_ancestors, torch_name


def test_a_torch_nn_class_is_named_however_it_is_reached():
    assert torch_name("torch.nn.modules.conv.Conv1d") == "torch.nn.Conv1d"
    assert torch_name("layerlib.Conv1d") is None


def test_a_listed_layer_is_its_torch_bases_and_nothing_else():
    conv = known_ancestors("torch.nn.Conv1d")
    assert conv == {"torch.nn.Module", "torch.nn.Conv1d", "torch.nn._ConvNd"}
    assert "torch.nn.GroupNorm" not in conv
    assert "torch.nn.Hardtanh" in (known_ancestors("torch.nn.ReLU6") or ())


def test_an_unlisted_class_is_not_known():
    assert known_ancestors("torch.nn.MultiheadAttention") is None  # it holds a submodule
    assert known_ancestors("torch.nn.Module") == {"torch.nn.Module"}
    assert is_leaf("torch.nn.Linear") and not is_leaf("torch.nn.Module") and not is_leaf("torch.nn.Sequential")
