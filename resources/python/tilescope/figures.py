"""matplotlib figures as image/png outputs of the cell, as Jupyter's inline backend shows them: the
figures plt.show() shows, and those still open when a cell ends. They go out through _tilescope.display,
the path of every rich output (the worker's display_data, docs/PROTOCOL.md). matplotlib draws with
Agg (tilescope.mpl_backend); it is optional (Debian's python3-matplotlib)."""
import base64
import io
import json
import os
import sys

import _tilescope

BACKEND = "module://tilescope.mpl_backend"


def use_agg():
    """Makes matplotlib, once imported, draw with our Agg backend (no window can open in a worker)."""
    os.environ["MPLBACKEND"] = BACKEND


def _png(figure):
    buffer = io.BytesIO()
    figure.canvas.print_figure(buffer, format="png", bbox_inches="tight", facecolor="white")
    return buffer.getvalue()


def show_open_figures():
    """Sends every open figure as an image/png output and closes it (plt.show(), and the end of a cell)."""
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is None:
        return
    from matplotlib._pylab_helpers import Gcf
    for manager in Gcf.get_all_fig_managers():
        figure = manager.canvas.figure
        width, height = figure.get_size_inches() * figure.dpi
        text = f"<Figure size {width:g}x{height:g} with {len(figure.axes)} Axes>"
        data = base64.b64encode(_png(figure)).decode("ascii")
        _tilescope.display(json.dumps({"image/png": data, "text/plain": text}))
    pyplot.close("all")
