"""docs/source/_ext/source_pages.py - every code quote carries its file and lines as a caption
that links to a rendered page of that file, so the HTML guides read without the tree.

This project's own Sphinx extension (PyTorch's docs use sphinx.ext.viewcode, which renders
Python modules only; the guides here quote C++, CUDA, YAML and CMake as well). It replaces
``literalinclude``: the quote is unchanged, and its caption names the file relative to the
repository and the lines quoted, linking to ``_source/<path>.html#L-<first line>``. At the
end of an HTML build every quoted file, generated ones from ``build/`` included, banner and
all, is written there with numbered, anchored lines, and ``_source/index.html`` lists them.
Guide: docs/source/internals/start_here.rst.
"""
import html
import os

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import TextLexer, get_lexer_for_filename
from pygments.util import ClassNotFound
from sphinx.directives.code import LiteralInclude, LiteralIncludeReader

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
PAGES = "_source"


def quoted_range(path, options, config):
    """The 1-based first and last line a literalinclude with these options shows: Sphinx's own
    reader selects them, and with ``lineno-match`` it also counts where they start. None when
    the options cannot be matched to lines (``prepend``, disjoint ``lines``, ...)."""
    reader = LiteralIncludeReader(path, {**options, "lineno-match": True}, config)
    try:
        _, count = reader.read()
    except (ValueError, OSError):
        return None
    return reader.lineno_start, reader.lineno_start + count - 1


class QuotedSource(LiteralInclude):
    """literalinclude, captioned with its file and lines and a link to the file's page."""

    def run(self):
        _, path = self.env.relfn2path(self.arguments[0])
        repo_path = os.path.relpath(path, REPO)
        if repo_path.startswith("..") or not os.path.isfile(path):
            return super().run()
        span = quoted_range(path, self.options, self.config)
        pages = self.env.__dict__.setdefault("source_pages", {})
        pages.setdefault(self.env.docname, set()).add(repo_path)
        depth = self.env.docname.count("/")
        url = "../" * depth + f"{PAGES}/{repo_path}.html"
        label = repo_path
        if span:
            url += f"#L-{span[0]}"
            label += f", line {span[0]}" if span[0] == span[1] else f", lines {span[0]}-{span[1]}"
        link = f"`{label} <{url}>`__"
        caption = self.options.get("caption")
        self.options["caption"] = f"{caption} ({link})" if caption else link
        return super().run()


def purge(app, env, docname):
    getattr(env, "source_pages", {}).pop(docname, None)


def merge(app, env, docnames, other):
    pages = env.__dict__.setdefault("source_pages", {})
    for docname in docnames:
        if docname in getattr(other, "source_pages", {}):
            pages[docname] = other.source_pages[docname]


def _lexer(path):
    try:
        return get_lexer_for_filename(path, stripnl=False)
    except ClassNotFound:
        if path.endswith((".cuh", ".cu")):
            return get_lexer_for_filename("x.cpp", stripnl=False)
        return TextLexer(stripnl=False)


def collect_pages(app):
    files = sorted({f for fs in getattr(app.env, "source_pages", {}).values() for f in fs})
    formatter = HtmlFormatter(linenos="inline", lineanchors="L", anchorlinenos=True, cssclass="highlight")
    for repo_path in files:
        with open(os.path.join(REPO, repo_path), encoding="utf-8", errors="replace") as f:
            code = f.read()
        body = (f"<h1>{html.escape(repo_path)}</h1>\n<div class=\"highlight-default notranslate\">"
                f"{highlight(code, _lexer(repo_path), formatter)}</div>")
        yield f"{PAGES}/{repo_path}", {"title": repo_path, "body": body}, "page.html"
    items = "\n".join(f"<li><a href=\"{html.escape(p)}.html\">{html.escape(p)}</a></li>" for p in files)
    body = (f"<h1>Quoted source files</h1>\n<p>Every file the guides quote, as built "
            f"({len(files)} files).</p>\n<ul>\n{items}\n</ul>")
    yield f"{PAGES}/index", {"title": "Quoted source files", "body": body}, "page.html"


def setup(app):
    app.add_directive("literalinclude", QuotedSource, override=True)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    app.connect("html-collect-pages", collect_pages)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
