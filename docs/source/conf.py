# docs/source/conf.py - Sphinx configuration for the Torch Anatomy guides and API reference.
#
# Built by `make docs`: Doxygen first (docs/Doxyfile -> docs/doxygen/xml), then Sphinx with
# warnings as errors, once as HTML and once as doctest (every example in the guides runs
# against the built torch package). No network access is needed (no intersphinx).
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))

# docs/source/_ext holds this project's own Sphinx extensions.
sys.path.insert(0, os.path.join(HERE, "_ext"))
# The guides' Python examples, so that their doctests can import them.
sys.path.insert(0, os.path.join(HERE, "internals", "examples"))
# torch is installed editable in the venv that runs Sphinx; putting the repository root
# first also lets autodoc find it when Sphinx runs from another interpreter.
sys.path.insert(0, REPO_ROOT)

project = "Torch Anatomy"
author = "Torch Anatomy contributors"
copyright = "Torch Anatomy contributors"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.graphviz",
    "sphinx.ext.napoleon",
    "breathe",
    # Runs the caching allocator scenarios on the simulator and draws their SVGs into
    # _generated/ (ignored by git) before any page is read: the pictures come from the code.
    "allocator_figures",
    # Builds the autograd chapter's backward graphs and draws them with Graphviz when it is there.
    "autograd_figures",
    # Runs the simulated CUDA device chapter's programs (a stream timeline, a loop's memory)
    # and draws what they recorded into _generated/.
    "cuda_sim_figures",
    # Draws views over a storage, their owners, broadcast strides, torch.add's dispatch trace and
    # the THStorage include graph from live objects into _generated/.
    "tensor_figures",
    # Captions every literalinclude with its file and lines, linking to a rendered page of
    # that file (_source/<path>.html), so the HTML reads without the tree.
    "source_pages",
]

# ---- C++ reference (breathe reads Doxygen's XML) ----
breathe_projects = {"c10": os.path.join(HERE, "..", "doxygen", "xml")}
breathe_default_project = "c10"
breathe_default_members = ()

# ---- Python reference ----
autodoc_member_order = "bysource"
autodoc_typehints = "none"
napoleon_google_docstring = True
napoleon_numpy_docstring = False

# ---- doctests: every `>>>` and `.. doctest::` block runs against the built torch ----
doctest_global_setup = "import torch"
doctest_test_doctest_blocks = "default"

# ---- diagrams ----
graphviz_output_format = "svg"

# ---- HTML ----
html_theme = "furo"
html_title = "Torch Anatomy"
html_static_path = []
templates_path = []
exclude_patterns = ["_ext", "_generated"]

primary_domain = "py"
highlight_language = "python3"
pygments_style = "sphinx"
nitpicky = False
