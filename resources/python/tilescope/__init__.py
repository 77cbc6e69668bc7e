"""tilescope's own helpers for host code on embedded CPython (core/python)."""
