"""docs/source/_ext/figure_files.py - what the figure extensions (allocator_figures,
autograd_figures, cuda_sim_figures, tensor_figures) share: writing a generated file only when
its content changed, and running a generator into _generated/ when the build starts, before any
page is read. This project's own Sphinx helper. Guide: docs/source/internals/building.rst.
"""
import os


def write_if_changed(path, data):
    """Write `data` (str or bytes) to `path` unless the file already holds it: an unchanged
    picture keeps its timestamp, so Sphinx does not read its pages again for nothing."""
    binary = isinstance(data, bytes)
    if os.path.exists(path):
        with open(path, "rb" if binary else "r") as f:
            if f.read() == data:
                return
    with open(path, "wb" if binary else "w") as f:
        f.write(data)


def generate_at_build_start(app, generate):
    """Call generate(<source dir>/_generated) once the builder exists; return setup()'s metadata."""
    app.connect("builder-inited", lambda app: generate(os.path.join(app.srcdir, "_generated")))
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
