"""Analysis settings with defaults that fit GPU code.

``deadinit.session.config`` loads them from ``[tool.deadinit]``; everything else takes a
``Settings`` object and never reads configuration itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

TENSOR_FACTORIES = (
    "empty",
    "zeros",
    "ones",
    "full",
    "arange",
    "rand",
    "randn",
    "randint",
    "tensor",
    "empty_strided",
    "linspace",
    "eye",
    "as_tensor",
    "from_numpy",
)
HEAVY_CLASS_PATTERN = r"(Wrapper|Updater\w*|Runner|Backend|Pool|Cache|Workspace)$"


@dataclass
class Settings:
    tensor_modules: tuple[str, ...] = ("torch",)
    tensor_factories: tuple[str, ...] = TENSOR_FACTORIES
    buffer_helpers: tuple[str, ...] = ("get_buffer",)
    heavy_class_pattern: str = HEAVY_CLASS_PATTERN  # the fallback for classes no installed library defines
    module_bases: tuple[str, ...] = ("torch.nn.Module", "torch.nn.modules.module.Module")
    parameter_bases: tuple[str, ...] = ("torch.nn.Parameter", "torch.nn.parameter.Parameter")
    show_unsure: bool = False
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    roots: tuple[str, ...] = ()
    di003_threshold: float = 0.25
    max_file_size: int = 2_000_000  # bytes; larger files are skipped with a note (libcst needs ~0.5 GB per MB)
    flag_name_template: str = "skip_init_{name}"
    direct_base_max_lines: int = 400
    fix_min_bytes: int = 4096  # a plain fix skips less than this per instance only with the setting lowered
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (gitignore-style pattern, codes)
    config_root: str = ""  # folder per-file-ignores patterns are relative to ("" = cwd)
    include_generation_sources: bool = False  # analyse templates that generated files name and nothing imports
    weight_loaders: tuple[str, ...] = ("load_weights",)  # methods that load a checkpoint's weights by name
    parameter_bytes: int = 2  # bytes per layer parameter in size estimates (serving loads weights in 16 bits)
    # where installed libraries are read from (``deadinit.installed``): these folders first (absolute, or
    # relative to ``config_root``), then, unless ``installed_packages`` is False, the active virtual
    # environment's site-packages and the interpreter's ``sys.path``
    # a fix that skips building a registered layer with parameters changes a seeded model's initial weights:
    # True makes that fix unsafe (else the note is evidence)
    random_stream_unsafe: bool = False
    library_paths: tuple[str, ...] = ()
    installed_packages: bool = True
    # not configured: a digest of the folders libraries are read from as they are now (``api.config``
    # sets it), so that a result stored before a library was installed or upgraded is not reused
    library_environment: str = ""
    _heavy_re: re.Pattern[str] | None = field(init=False, repr=False, compare=False, default=None)

    def heavy_re(self) -> re.Pattern[str]:
        if self._heavy_re is None:
            self._heavy_re = re.compile(self.heavy_class_pattern)
        return self._heavy_re

    def summary_key(self) -> str:
        """The parts of the settings that change per-file summaries (cache key)."""
        return repr((self.tensor_modules, self.tensor_factories, self.buffer_helpers, self.heavy_class_pattern))
