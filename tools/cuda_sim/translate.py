"""tools/cuda_sim/translate.py - rewrite a CUDA source (.cu/.cuh) as C++ for the simulated device.

Mirrors the role of PyTorch's torch/utils/hipify/hipify_python.py (CUDA sources rewritten for
ROCm); here the target is plain C++ that g++ compiles against c10/cuda/impl/sim/cuda_sim.h.
Guide: docs/source/internals/cuda_simulated_device.rst

Three things change; everything else (__global__, __device__, static __shared__ arrays,
threadIdx, __syncthreads, ...) stays as written because the runtime header defines it:

* ``kernel<<<grid, block[, shmem[, stream]]>>>(args)`` becomes
  ``::c10::cuda::sim::launch(grid, block, shmem, stream, [](auto&... _a) { kernel(_a...); }, args)``
  (shmem and stream default to 0; without arguments the body is ``[]() { kernel(); }``).
  The lambda hands each argument to the kernel by reference, so ``launch`` owns one copy of
  the arguments and decides how often and with which thread indices the body runs.
* ``extern __shared__ T name[];`` (with or without ``alignas(N)``/``__align__(N)``) becomes
  ``T* name = ::c10::cuda::sim::dynamic_shared_memory<T>();``. The alignment is dropped: the
  runtime's buffer is expected to be aligned for any type.
* ``#include <cuda_runtime.h>``, ``<cuda.h>``, ``<cuda_runtime_api.h>`` (angle or quoted) become
  ``#include <c10/cuda/impl/sim/cuda_sim.h>``.

Lines never move. The output is a one-line banner, ``#line 1 "<source>"`` and then the input
with line n still on line n, so compiler errors, __FILE__, assert messages and gdb name the
original .cu/.cuh. A rewrite that swallows newlines (a launch spread over lines, a declaration
split in two) puts them back inside its replacement.

Includes of other .cuh files are not rewritten. The build translates every .cu and .cuh into
one tree (the include root, ``--include-root DIR``) that mirrors the source tree, and puts that
root first on the include path: ``<ATen/native/cuda/Loops.cuh>`` then finds the translated
copy, and so does ``"Loops.cuh"``, because the compiler searches the directory of the file it
is really reading (not the name given by ``#line``), which is the translated tree. The CLI only
checks that OUTPUT lies under that root; the translation itself is the same with or without it.

The scanner is a small tokenizer (comments, string/char/raw-string literals, bracket nesting)
rather than regular expressions over the whole text, so ``<<<`` inside a comment or a string,
or ``>>`` closing two template lists in a kernel's name, cannot confuse it.
"""

import argparse
import os
import re
import sys
import tempfile
from typing import List, NamedTuple, Optional, Tuple

SIM_HEADER = "c10/cuda/impl/sim/cuda_sim.h"
CUDA_HEADERS = frozenset({"cuda_runtime.h", "cuda.h", "cuda_runtime_api.h"})
LAUNCH = "::c10::cuda::sim::launch"
DYNAMIC_SHARED = "::c10::cuda::sim::dynamic_shared_memory"


class TranslationError(Exception):
    """A source the translator cannot rewrite faithfully; str() is ``path:line: message``."""

    def __init__(self, path: str, line: int, message: str):
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line, self.message = path, line, message


class Token(NamedTuple):
    kind: str  # space comment string char ident number punct include directive
    text: str
    line: int  # 1-based line of the token's first character


_TOKEN = re.compile(
    r"""
    (?P<space>(?:[ \t\r\f\v\n]|\\\r?\n)+)
  | (?P<comment>//(?:\\\r?\n|[^\n])*|/\*.*?\*/)
  | (?P<string>(?:u8|[uUL])?R"(?P<delim>[^()\\\s"]{0,16})\(.*?\)(?P=delim)"
              |(?:u8|[uUL])?"(?:\\.|[^"\\\n])*")
  | (?P<char>(?:u8|[uUL])?'(?:\\.|[^'\\\n])+')
  | (?P<ident>[A-Za-z_$]\w*)
  | (?P<number>\.?\d(?:[eEpP][+-]|'\w|[\w.])*)
  | (?P<punct><<<|>>>|<<=|>>=|->\*|\.\.\.|::|->|<<|>>|&&|\|\||\+\+|--|[-+*/%&|^!=<>]=|.)
    """,
    re.S | re.X,
)
# Directives whose text is not C++ tokens: the header name of an include (``<a/b.h>`` is not
# a template list), and the free prose of #error/#warning (an apostrophe is not a char literal).
_INCLUDE = re.compile(r'\#[ \t]*include[ \t]*(?:<(?P<angle>[^>\n]*)>|"(?P<quote>[^"\n]*)")')
_PROSE_DIRECTIVE = re.compile(r"\#[ \t]*(?:error|warning)\b(?:\\\r?\n|[^\n])*")
_CONTINUATION = re.compile(r"\\\r?\n")
_LINE_BREAK = re.compile(r"\\?\r?\n")

_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = {")": "(", "]": "[", "}": "{"}
_TRIVIA = ("space", "comment")
# Words that may stand before ``::kernel<<<`` without being part of the kernel's name.
_STATEMENT_WORDS = frozenset({"return", "else", "do", "case", "throw", "co_return", "co_await"})


def tokenize(text: str) -> List[Token]:
    tokens: List[Token] = []
    pos, line, at_line_start = 0, 1, True
    while pos < len(text):
        m, kind = None, ""
        if at_line_start and text[pos] == "#":
            m = _INCLUDE.match(text, pos)
            kind = "include"
            if m is None:
                m, kind = _PROSE_DIRECTIVE.match(text, pos), "directive"
        if m is None:
            m = _TOKEN.match(text, pos)
            kind = m.lastgroup
        tok = m.group(0)
        tokens.append(Token(kind, tok, line))
        line += tok.count("\n")
        pos = m.end()
        if kind == "space":
            at_line_start = "\n" in _CONTINUATION.sub("", tok) or (at_line_start and "\n" not in tok)
        elif kind != "comment":  # a comment is whitespace: `/* x */ #include` is still a directive
            at_line_start = False
    return tokens


def _keep_if_multiline(s: str) -> str:
    # Whitespace that only separated tokens on one line may go; a line break may not.
    return s if "\n" in s else ""


def _closing_angles(tok: Token) -> int:
    return len(tok.text) if tok.kind == "punct" and set(tok.text) == {">"} else 0


class _Translator:
    def __init__(self, text: str, path: str):
        self.toks = tokenize(text)
        self.path = path

    def error(self, index: int, message: str) -> TranslationError:
        line = self.toks[min(index, len(self.toks) - 1)].line if self.toks else 1
        return TranslationError(self.path, line, message)

    def is_punct(self, k: int, text: str) -> bool:
        return 0 <= k < len(self.toks) and self.toks[k].kind == "punct" and self.toks[k].text == text

    def before(self, k: int, floor: int) -> int:
        """Index of the last non-trivia token at or before k, or floor - 1."""
        while k >= floor and self.toks[k].kind in _TRIVIA:
            k -= 1
        return k

    def after(self, k: int, hi: int) -> int:
        while k < hi and self.toks[k].kind in _TRIVIA:
            k += 1
        return k

    def text(self, lo: int, hi: int) -> str:
        return "".join(t.text for t in self.toks[lo:hi])

    def rewrite(self, lo: int, hi: int) -> str:
        """Translated text of tokens [lo, hi); nested launches (in arguments) are rewritten too."""
        out: List[Tuple[int, str]] = []  # (index of first source token, output text)
        floor, i = lo, lo
        while i < hi:
            tok = self.toks[i]
            if tok.kind == "punct" and tok.text == "<<<":
                prev = self.before(i - 1, floor)
                if not (prev >= floor and self.toks[prev].text == "operator"):  # operator<<<T>
                    start = self.kernel_name_start(i, floor)
                    while out and out[-1][0] >= start:
                        out.pop()  # the kernel's name moves into the launch's lambda
                    replacement, i = self.launch(start, i, hi)
                    out.append((start, replacement))
                    floor = i
                    continue
            if tok.kind == "ident" and tok.text in ("extern", "alignas", "__align__"):
                found = self.dynamic_shared(i, hi)
                if found is not None:
                    out.append((i, found[0]))
                    i = floor = found[1]
                    continue
            if tok.kind == "include":
                m = _INCLUDE.match(tok.text)
                if (m.group("angle") or m.group("quote")) in CUDA_HEADERS:
                    out.append((i, f"#include <{SIM_HEADER}>"))
                    i += 1
                    continue
            out.append((i, tok.text))
            i += 1
        return "".join(s for _, s in out)

    # -- kernel launches ---------------------------------------------------------------------

    def kernel_name_start(self, i: int, floor: int) -> int:
        """First token of the (possibly qualified, templated) kernel name before `<<<` at i."""
        j = self.before(i - 1, floor)
        while True:
            if j >= floor and _closing_angles(self.toks[j]):
                j = self.before(self.template_list_start(j, floor) - 1, floor)
            if j < floor or self.toks[j].kind != "ident":
                raise self.error(i, "expected a kernel name before '<<<'")
            start = j
            p = self.before(j - 1, floor)
            if p >= floor and self.toks[p].text == "template":  # ns::template kernel<T>
                q = self.before(p - 1, floor)
                if not self.is_punct(q, "::"):
                    return start
                p = q
            if not self.is_punct(p, "::") or p < floor:
                return start
            start = p
            q = self.before(p - 1, floor)
            if q < floor or not (
                (self.toks[q].kind == "ident" and self.toks[q].text not in _STATEMENT_WORDS)
                or _closing_angles(self.toks[q])
            ):
                return start  # a leading `::`
            j = q

    def template_list_start(self, j: int, floor: int) -> int:
        """Index of the `<` that opens the template argument list closed at token j.

        Angle brackets inside (), [] and {} do not count: `kernel<(N > 2)>`."""
        depth, k = 0, j
        while k >= floor:
            tok = self.toks[k]
            if tok.kind == "punct":
                if tok.text in _CLOSERS:
                    k = self.opener_before(k, floor)
                elif _closing_angles(tok):
                    depth += len(tok.text)
                elif tok.text == "<":
                    depth -= 1
                    if depth == 0:
                        return k
                elif tok.text in (";", "{"):
                    break
            k -= 1
        raise self.error(j, "cannot find the '<' of the kernel's template arguments")

    def opener_before(self, k: int, floor: int) -> int:
        close = self.toks[k].text
        depth = 0
        while k >= floor:
            if self.toks[k].kind == "punct":
                if self.toks[k].text == close:
                    depth += 1
                elif self.toks[k].text == _CLOSERS[close]:
                    depth -= 1
                    if depth == 0:
                        return k
            k -= 1
        raise self.error(floor, f"unbalanced '{close}' in a kernel name")

    def scan(self, k: int, hi: int, stop) -> int:
        """First index >= k, at bracket depth 0, whose token satisfies stop; -1 if none.

        Raises on a closing bracket that matches nothing opened since k."""
        stack: List[str] = []
        while k < hi:
            tok = self.toks[k]
            if tok.kind == "punct":
                if not stack and stop(tok):
                    return k
                if tok.text in _OPENERS:
                    stack.append(_OPENERS[tok.text])
                elif tok.text in _CLOSERS:
                    if not stack or stack.pop() != tok.text:
                        return -1
            k += 1
        return -1

    def launch(self, start: int, i: int, hi: int) -> Tuple[str, int]:
        name_end = self.before(i - 1, start) + 1
        name = self.text(start, name_end)
        close = self.scan(i + 1, hi, lambda t: t.text in (">>>", ";"))
        if close < 0 or self.toks[close].text != ">>>":
            raise self.error(i, "unbalanced '<<<': no matching '>>>'")
        commas = 0
        k = i + 1
        while True:
            k = self.scan(k, close, lambda t: t.text == ",")
            if k < 0:
                break
            commas, k = commas + 1, k + 1
        if not 1 <= commas <= 3 or not self.text(i + 1, close).strip():
            raise self.error(i, "a launch configuration takes 2 to 4 values: grid, block[, shmem[, stream]]")
        paren = self.after(close + 1, hi)
        if not self.is_punct(paren, "("):
            raise self.error(close, "expected '(' and the kernel's arguments after '>>>'")
        end = self.scan(paren + 1, hi, lambda t: t.text == ")")
        if end < 0:
            raise self.error(paren, "the argument list of this kernel launch never closes")

        config = self.rewrite(i + 1, close)
        lead = config[: len(config) - len(config.lstrip())]
        body = config.strip()
        trail = config[len(config.rstrip()) :]
        config = _keep_if_multiline(lead) + body + ", 0" * (3 - commas) + _keep_if_multiline(trail)
        # Line breaks between the name, `<<<`, `>>>` and `(` stay, after the lambda.
        breaks = _keep_if_multiline(self.text(name_end, i)) + _keep_if_multiline(self.text(close + 1, paren))
        args = self.rewrite(paren + 1, end)
        if any(t.kind not in _TRIVIA for t in self.toks[paren + 1 : end]):
            body = f"[](auto&... _a) {{ {name}(_a...); }}{breaks}," + ("" if args[:1].isspace() else " ") + args
        else:
            body = f"[]() {{ {name}(); }}{breaks}" + _keep_if_multiline(args)
        return f"{LAUNCH}({config}, {body})", end + 1

    # -- dynamic shared memory ---------------------------------------------------------------

    def dynamic_shared(self, i: int, hi: int) -> Optional[Tuple[str, int]]:
        """`extern __shared__ T name[];` starting at i -> (replacement, index after `;`)."""
        semi = self.scan(i, hi, lambda t: t.text in (";", "{", "}"))
        if semi < 0 or self.toks[semi].text != ";":
            return None
        words: List[int] = []  # significant tokens, minus the alignment specifiers
        k = i
        while k < semi:
            tok = self.toks[k]
            if tok.kind == "ident" and tok.text in ("alignas", "__align__"):
                paren = self.after(k + 1, semi)
                if not self.is_punct(paren, "("):
                    return None
                k = self.scan(paren + 1, semi, lambda t: t.text == ")") + 1
                if k == 0:
                    return None
                continue
            if tok.kind not in _TRIVIA:
                words.append(k)
            k += 1
        texts = [self.toks[w].text for w in words]
        if "extern" not in texts or "__shared__" not in texts or texts[-2:] != ["[", "]"]:
            return None
        name = words[-3]
        type_words = [w for w in words[:-3] if self.toks[w].text not in ("extern", "__shared__")]
        if self.toks[name].kind != "ident" or not type_words:
            return None
        # The removed specifiers may sit inside the type (`float __align__(16)`): rebuild it
        # from its own tokens, one space wherever something else stood.
        kept = set(type_words)
        pieces = (self.toks[k].text if k in kept else " " for k in range(type_words[0], type_words[-1] + 1))
        type_text = re.sub(r"\s+", " ", "".join(pieces)).strip()
        breaks = "".join(_LINE_BREAK.findall(self.text(i, semi)))
        return f"{type_text}* {self.toks[name].text} = {DYNAMIC_SHARED}<{type_text}>();{breaks}", semi + 1


def translate(text: str, source_path: str) -> str:
    """The simulated-device C++ for the CUDA source `text` read from `source_path`."""
    translator = _Translator(text, source_path)
    body = translator.rewrite(0, len(translator.toks))
    if body.count("\n") != text.count("\n"):
        raise AssertionError(f"{source_path}: translation changed the line count")
    quoted = source_path.replace("\\", "\\\\").replace('"', '\\"')
    first = text.find("\n")
    nl = "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"  # the source's own line ends
    banner = f"// Generated from {source_path} by tools/cuda_sim/translate.py - do not edit.{nl}"
    return f'{banner}#line 1 "{quoted}"{nl}{body}'


def write_if_changed(path: str, content: str) -> bool:
    """Write content to path unless it already holds exactly that, so make/ninja see no change."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            if f.read() == content:
                return False
    except FileNotFoundError:
        pass
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    # Write aside and rename, so a compiler running in parallel never reads half a file.
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=os.path.basename(path))
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(content)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return True


def _source_name(path: str) -> str:
    # Relative to the working directory (the repository root) when possible, so generated
    # files name the source the same way on every machine.
    rel = os.path.relpath(os.path.abspath(path))
    return (path if rel.startswith("..") else rel).replace(os.sep, "/")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input", help="the .cu or .cuh file")
    parser.add_argument("output", help="where the C++ goes (left untouched if already identical)")
    parser.add_argument("--include-root", help="the translated tree the build puts first on the include path")
    args = parser.parse_args(argv)
    if args.include_root:
        root = os.path.abspath(args.include_root)
        if os.path.commonpath([root, os.path.abspath(args.output)]) != root:
            parser.error(f"{args.output} is outside --include-root {args.include_root}")
    with open(args.input, encoding="utf-8", newline="") as f:
        text = f.read()
    try:
        content = translate(text, _source_name(args.input))
    except TranslationError as e:
        print(f"{e.path}:{e.line}: error: {e.message}", file=sys.stderr)
        return 1
    write_if_changed(args.output, content)
    return 0


if __name__ == "__main__":
    sys.exit(main())
