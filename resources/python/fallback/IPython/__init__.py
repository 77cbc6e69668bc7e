"""Stands in for IPython where it is not installed (python3-ipython): only what Triton notebooks
import, IPython.core.debugger.set_trace. With the real IPython installed, that one is used."""
