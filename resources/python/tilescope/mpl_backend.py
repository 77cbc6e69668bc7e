"""matplotlib backend of the embedded Python (MPLBACKEND=module://tilescope.mpl_backend): Agg drawing,
and show() sends the open figures to the cell as images (tilescope.figures)."""
from matplotlib.backend_bases import FigureManagerBase
from matplotlib.backends.backend_agg import FigureCanvasAgg

from tilescope import figures

FigureCanvas = FigureCanvasAgg
FigureManager = FigureManagerBase


def show(*_args, **_kwargs):
    figures.show_open_figures()
