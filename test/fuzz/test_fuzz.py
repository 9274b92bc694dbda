# test/fuzz/test_fuzz.py - the bounded differential fuzz run of `make test`: about a minute of
# Hypothesis-generated calls with a fixed seed, asserting no crash, no hang and only PyTorch's
# exception types. Inspired by PyTorch's test/test_ops.py (OpInfo-driven consistency tests);
# guide: docs/source/internals/building.rst (the tests, layer by layer).
#
# With TORCH_REFERENCE_PYTHON set to the python of a separate venv with torch==2.13.0, the same
# calls are replayed there and the differential figures are printed (not asserted: the tree is
# still catching up); crashes, hangs and foreign exception types are asserted either way.
import os
import sys

import fuzz_driver
import fuzz_ops

SEED = 0
CALLS = int(os.environ.get("TORCH_FUZZ_CALLS", "12000"))


def test_generation_is_deterministic_and_renders():
    # Shrinking replays a chunk with the same seed and expects the very same calls back.
    ctx = fuzz_ops.Ctx(fuzz_ops.needed_names())
    a = fuzz_driver.generate(ctx, 7, 300)
    b = fuzz_driver.generate(ctx, 7, 300)
    assert [fuzz_ops.short(c) for c in a] == [fuzz_ops.short(c) for c in b]
    for c in a:
        setup, stmt = fuzz_ops.render(c)
        compile(setup + "\n" + stmt, "<fuzz call>", "exec")  # every call is valid Python
    assert len({c["op"] for c in a}) > 60  # the catalog is covered, not just its first ops


def _failures(fz, sections):
    lines = []
    shrunk = getattr(fz, "shrunk", {})
    for key, items in fz.groups():
        if key[0] not in sections:
            continue
        call, o, r = shrunk.get(key) or min(items, key=lambda it: len(fuzz_ops.short(it[0])))
        lines.append("%s %s %s (x%d): %s\n    -> %s" % (key[0], key[1], key[2], len(items),
                                                       fuzz_ops.one_liner(call, ".venv/bin/python"),
                                                       fuzz_driver.describe(o)))
        if r is not None:
            lines.append("    reference: " + fuzz_driver.describe(r))
    return lines


def test_fuzz_bounded(capsys):
    reference = os.environ.get("TORCH_REFERENCE_PYTHON") or None
    fz = fuzz_driver.Fuzzer(sys.executable, reference=reference, jobs=2, seed=SEED)
    fz.run(CALLS)
    must = ("crash", "hang", "bad_type")
    fz.shrink_groups(sections=must, budget_s=15.0, total_s=60.0)
    with capsys.disabled():
        print("\nfuzz: %d calls in %.0f s, seed %d%s" % (len(fz.results), fz.run_s, SEED,
                                                         ", against " + fz.info["reference"] if reference else ""))
        print(fz.figures_table())
        if reference:
            for (sec, op, detail), items in fz.groups()[:15]:
                print("  %-13s %-40s %-30s x%d" % (sec, op, detail[:30], len(items)))
    failures = _failures(fz, must)
    assert not failures, "the fuzzer found crashes, hangs or non-PyTorch exception types:\n" + "\n".join(failures)
