"""Where installed libraries are read from, and a digest of those folders as they are now.

The configured ``library-paths`` first (as a type checker's extra paths), then, unless
``installed-packages = false``, what the interpreter's ``sys.path`` is made of at start-up,
whichever way deadinit was started: the folders of ``PYTHONPATH``, the active virtual
environment's site-packages (``$VIRTUAL_ENV``: deadinit may run from a venv of its own), the
interpreter's own site-packages, and the folders their ``.pth`` files add (editable installs).
The script's folder and the current folder are not among them: the project is no library of itself.
"""

from __future__ import annotations

import glob
import hashlib
import os
import site

from deadinit.model.settings import Settings


def search_entries(settings: Settings) -> tuple[str, ...]:
    """The folders libraries are read from, in order, each once (by its real path)."""
    root = settings.config_root or os.getcwd()
    found = [os.path.join(root, p) for p in settings.library_paths]
    if settings.installed_packages:
        found += [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        found += _virtual_env_site()
        sites = [*site.getsitepackages(), *([site.getusersitepackages()] if site.ENABLE_USER_SITE else [])]
        found += sites + [line for f in sites for line in _pth_paths(f)]
    out: dict[str, str] = {}
    for p in found:
        real = os.path.realpath(p)
        if os.path.isdir(real):
            out.setdefault(real, real)
    return tuple(out)


def _virtual_env_site() -> list[str]:
    venv = os.environ.get("VIRTUAL_ENV")
    if not venv:
        return []
    folders = sorted(glob.glob(os.path.join(glob.escape(venv), "lib", "python*", "site-packages")))
    folders += sorted(glob.glob(os.path.join(glob.escape(venv), "Lib", "site-packages")))
    return folders + [line for f in folders for line in _pth_paths(f)]


def _pth_paths(site: str) -> list[str]:
    """The folders a site-packages' ``.pth`` files add (editable installs), without running their
    ``import`` lines."""
    out = []
    for pth in sorted(glob.glob(os.path.join(glob.escape(site), "*.pth"))):
        try:
            with open(pth, encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
        except OSError:
            continue
        for line in lines:
            line = line.strip()
            if line and not line.startswith(("#", "import ", "import\t")):
                out.append(os.path.join(site, line))
    return out


def environment_digest(settings: Settings) -> str:
    """A digest of the folders libraries are read from and their modification times: installing,
    removing or upgrading a distribution there changes it (each changes the folder's entries)."""
    parts = []
    for entry in search_entries(settings):
        try:
            parts.append(f"{entry}\0{os.stat(entry).st_mtime_ns}")
        except OSError:
            parts.append(entry)
    return hashlib.blake2b("\n".join(parts).encode(), digest_size=12).hexdigest()
