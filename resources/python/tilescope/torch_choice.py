"""Which `torch` host code imports: the built-in torch (resources/python/torch, tilescope's C++ tensor
library; the default) or installed PyTorch (`--torch system`, the preference, or a notebook's
metadata {"tilescope": {"torch": "system"}}). The choice holds until torch is first imported; with
installed PyTorch, a virtual environment named by VIRTUAL_ENV is searched too."""
import importlib.machinery
import os
import site
import sys

CHOICES = ("builtin", "system")
_choice = "builtin"
_builtin_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def current():
    return _choice


def _kind(module):
    return "builtin" if getattr(module, "__tilescope_builtin__", False) else "system"


def select(choice):
    global _choice
    if choice not in CHOICES:
        raise ValueError(f"torch choice must be 'builtin' or 'system', not {choice!r}")
    loaded = sys.modules.get("torch")
    if loaded is not None and _kind(loaded) != choice:
        raise RuntimeError(f"torch was already imported as the {_kind(loaded)} torch; the {choice} torch needs a fresh "
                           "worker (restart it)")
    _choice = choice
    if choice == "system":
        venv = os.environ.get("VIRTUAL_ENV")
        if venv:
            site.addsitedir(os.path.join(venv, "lib", f"python{sys.version_info[0]}.{sys.version_info[1]}",
                                         "site-packages"))


class _TorchFinder:
    """Finds installed PyTorch past resources/python when the system torch is chosen."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name != "torch" or _choice != "system":
            return None
        search = [p for p in sys.path if os.path.abspath(p or os.curdir) != _builtin_dir]
        spec = importlib.machinery.PathFinder.find_spec(name, search)
        if spec is None:
            raise ModuleNotFoundError(
                "No module named 'torch': installed PyTorch was chosen (--torch system) but none was found for "
                f"Python {sys.version_info[0]}.{sys.version_info[1]}; install it (pip install torch, or "
                "activate the virtual environment that has it: VIRTUAL_ENV is searched), or use the built-in torch "
                "(--torch builtin)", name="torch")
        return spec


if not any(isinstance(f, _TorchFinder) or f is _TorchFinder for f in sys.meta_path):
    sys.meta_path.insert(0, _TorchFinder)
