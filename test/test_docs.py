"""Tests that keep the README and the guides true to the tree: every path they name exists,
every module they name imports, nothing they call absent is present, every code quote's
marker resolves and every marker in the code is quoted by some guide, and nothing in the
repository points outside it.

This project's own test (PyTorch has no such file). Guide: docs/source/internals/start_here.rst.
"""
import glob
import importlib
import os
import re
import subprocess

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GUIDES = sorted(glob.glob(os.path.join(REPO, "docs", "source", "**", "*.rst"), recursive=True))
README = os.path.join(REPO, "README.md")
# The folders a path named in the prose starts with; anything else (``x.shape``, ``a/b`` in
# math) is not taken for a path.
TOP = ("c10/", "aten/", "torch/", "tools/", "cmake/", "test/", "benchmarks/", "docs/", "build/", ".ci/")


def tracked_files():
    out = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True).stdout
    return [f for f in out.splitlines() if os.path.isfile(os.path.join(REPO, f))]


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def exists(path, *bases):
    """Whether `path` (a file, a folder, or a glob) names something under the repository
    or under one of `bases` (folders relative to it)."""
    path = path.rstrip("/").rstrip(":").rstrip(",")
    for base in ("",) + bases:
        candidate = os.path.join(REPO, base, path)
        if glob.glob(candidate) or glob.glob(candidate + ".*"):
            return True
    return False


# ---- literalinclude markers -------------------------------------------------------------------

LITERALINCLUDE = re.compile(r"^(\s*)\.\. literalinclude:: (\S+)\s*$")
OPTION = re.compile(r"^\s+:([a-z-]+):\s*(.*)$")
MARKER = re.compile(r"\[(end )?marker: ([^\]]+)\]")


def literalincludes():
    """(guide, line number, included file relative to the repository, {option: value})."""
    for guide in GUIDES:
        lines = read(guide).splitlines()
        for i, line in enumerate(lines):
            m = LITERALINCLUDE.match(line)
            if not m:
                continue
            target = os.path.relpath(os.path.normpath(os.path.join(os.path.dirname(guide), m.group(2))), REPO)
            options = {}
            for follow in lines[i + 1:]:
                o = OPTION.match(follow)
                if not o:
                    break
                options[o.group(1)] = o.group(2)
            yield os.path.relpath(guide, REPO), i + 1, target, options


def test_every_quoted_marker_is_in_its_file():
    missing = []
    for guide, line, target, options in literalincludes():
        for key in ("start-after", "end-before", "start-at", "end-at"):
            text = options.get(key)
            if text is None or "marker:" not in text:
                continue
            path = os.path.join(REPO, target)
            if not os.path.exists(path) or text not in read(path):
                missing.append(f"{guide}:{line}: {key} {text!r} not in {target}")
    assert not missing, "\n".join(missing)


def test_every_marker_in_the_code_is_paired_and_quoted():
    quoted = set()
    for _, _, target, options in literalincludes():
        for value in options.values():
            for _, name in MARKER.findall(value):
                quoted.add((target, name))
    problems = []
    for f in tracked_files():
        if (f.endswith(".rst") and f.startswith("docs/source/")) or f == "test/test_docs.py":
            continue
        text = read(os.path.join(REPO, f))
        if "marker: " not in text:
            continue
        opened = [name for end, name in MARKER.findall(text) if not end]
        closed = {name for end, name in MARKER.findall(text) if end}
        for name in opened:
            if name not in closed and (f, name) in quoted:
                continue  # quoted up to another marker's end, which the quote names
            if name not in closed:
                problems.append(f"{f}: [marker: {name}] has no [end marker: {name}]")
            if (f, name) not in quoted:
                problems.append(f"{f}: [marker: {name}] is quoted by no guide (quote it or remove it)")
    assert not problems, "\n".join(problems)


# ---- paths and modules named in the prose ---------------------------------------------------

def rst_literals(text):
    return re.findall(r"``([^`\s]+)``", text)


def md_literals(text):
    return re.findall(r"(?<!`)`([^`\s]+)`(?!`)", text)


def path_like(token):
    token = token.strip("<>()[],.;")
    if token.startswith(("torch/types.h", "torch/all.h", "torch/extension.h", "torch/torch.h", "torch/python.h")):
        return "torch/csrc/api/include/" + token  # an include name of the C++ frontend
    if not token.startswith(TOP) or any(c in token for c in "{}$=\"'"):
        return None
    return token.split(":")[0]


def sentences(text):
    """The text's sentences, whitespace folded (list-table cells and bullets count as text)."""
    for paragraph in re.split(r"\n\s*\n", text):
        folded = " ".join(paragraph.split())
        yield from re.split(r"(?<=[.!?])\s+(?=[A-Z`(*])", folded)


# A sentence about PyTorch, or one that says a thing is missing, may name what this tree
# does not have ("PyTorch's torch/csrc/cuda/comm.cpp ...", "no torch.compile").
ABOUT_PYTORCH_OR_ABSENT = re.compile(r"PyTorch|\bno\b|\bnot\b|\bwithout\b|\bnever\b", re.IGNORECASE)
# Made by `make docs`, not by the build.
DOCS_OUTPUT = ("docs/build",)


def test_paths_named_in_the_guides_exist():
    missing = []
    for guide in GUIDES:
        for sentence in sentences(read(guide)):
            for token in rst_literals(sentence):
                path = path_like(token)
                if not path or path.startswith(DOCS_OUTPUT) or exists(path, "build", "torch/csrc/api/include"):
                    continue
                if not ABOUT_PYTORCH_OR_ABSENT.search(sentence):
                    missing.append(f"{os.path.relpath(guide, REPO)}: {token}  ({sentence[:90]}...)")
    assert not missing, "paths named in the guides that do not exist:\n" + "\n".join(sorted(set(missing)))


def readme_map_rows():
    """(row folders, the row's other cells) of the README's table of the tree."""
    for line in read(README).splitlines():
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        folders = [t for t in md_literals(cells[0]) if "/" in t]
        yield folders, cells[2] if len(cells) > 2 else ""


FILE_SUFFIX = re.compile(r"\.(cpp|h|cuh|cu|py|pyi|yaml|cmake|txt|in|md|json|so)$")


def test_paths_named_in_the_readme_exist():
    missing = []
    for folders, holds in readme_map_rows():
        for folder in folders:
            if not exists(folder.rstrip("*")) and not folder.startswith("torch/lib"):
                missing.append(f"row folder {folder}")
        for token in md_literals(holds):
            token = token.strip("<>(),;")
            if token.startswith(TOP) or "/" in token or FILE_SUFFIX.search(token):
                if re.search(r"[()\[\]<>{}=]", token) or token.startswith(("-", ".")):
                    continue
                bases = [f.rstrip("/") for f in folders] + ["torch/csrc/api/include", "build"]
                found = exists(token, *bases) or any(
                    glob.glob(os.path.join(REPO, b, "**", os.path.basename(token)), recursive=True)
                    for b in bases + [""])
                if not found:
                    missing.append(f"{folders}: {token}")
    assert not missing, "paths named in the README's map that do not exist:\n" + "\n".join(missing)


MODULE = re.compile(r"^torch(\.[A-Za-z_][A-Za-z0-9_]*)+(\(\))?$")


def resolves(name):
    parts = name.removesuffix("()").split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return False
        return True
    return False


def test_torch_names_in_the_readme_and_guides_resolve():
    unresolved = []
    for path in [README] + GUIDES:
        for sentence in sentences(read(path)):
            tokens = md_literals(sentence) if path.endswith(".md") else rst_literals(sentence)
            for token in tokens:
                # torch.ops.<namespace> is filled in as libraries load: not a fixed name.
                if not MODULE.match(token) or token.startswith("torch.ops.") or resolves(token):
                    continue
                if not ABOUT_PYTORCH_OR_ABSENT.search(sentence):
                    unresolved.append(f"{os.path.relpath(path, REPO)}: {token}  ({sentence[:90]}...)")
    assert not unresolved, "names that do not import or resolve:\n" + "\n".join(sorted(set(unresolved)))


# ---- claims of absence ----------------------------------------------------------------------

ABSENT = re.compile(r"not there yet|not in this tree|not written yet|comes? with the [^.]* chapter|later chapters?",
                    re.IGNORECASE)


def test_what_the_docs_call_absent_is_absent():
    wrong = []
    for path in [README] + GUIDES:
        text = read(path)
        # list-table rows: "* - ``name``" ... "- Not in this tree." names the first cell.
        for row in re.split(r"\n\s*\* - ", text):
            cells = re.split(r"\n\s+- ", row)
            if len(cells) > 1 and ABSENT.match(cells[-1].strip()):
                for token in rst_literals(cells[0]):
                    if path_like(token) and exists(path_like(token)):
                        wrong.append(f"{os.path.relpath(path, REPO)}: {token} is called absent but exists")
        for sentence in re.split(r"(?<=[.;])\s+", text):
            if not ABSENT.search(sentence):
                continue
            tokens = md_literals(sentence) if path.endswith(".md") else rst_literals(sentence)
            for token in tokens:
                p = path_like(token)
                if (p and exists(p)) or (MODULE.match(token) and resolves(token)):
                    wrong.append(f"{os.path.relpath(path, REPO)}: {token} is called absent but exists")
    assert not wrong, "\n".join(wrong)


# ---- nothing outside the repository ---------------------------------------------------------

OUTSIDE = [
    re.compile(r"\.\./" + "shared"),
    re.compile("PYTORCH_" + "REFERENCE"),
    re.compile("SEED_" + "MAP"),
    re.compile(r"(?<![\w.])/" + r"work/"),
    re.compile(r"\.\./\.\./\.\./\.\./\.\./"),  # deeper than any file in the tree needs
]


@pytest.mark.parametrize("pattern", OUTSIDE, ids=lambda p: p.pattern)
def test_nothing_names_a_path_outside_the_repository(pattern):
    hits = []
    for f in tracked_files():
        if f.endswith((".png", ".svg", ".gz", ".zip", ".pt", ".bin")):
            continue
        for n, line in enumerate(read(os.path.join(REPO, f)).splitlines(), 1):
            if pattern.search(line):
                hits.append(f"{f}:{n}: {line.strip()[:100]}")
    assert not hits, "\n".join(hits)
