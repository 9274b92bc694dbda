# test/fuzz/run.py - command line for long fuzzing runs: figures on stdout, a grouped
# disagreement report (crashes first) in --report. Inspired by PyTorch's test/test_ops.py
# (OpInfo consistency tests, here against a reference build); guide: docs/source/internals/building.rst.
#
#   .venv/bin/python test/fuzz/run.py --calls 100000 --seed 1 --reference PY --jobs 2 --report FILE
#
# (test/ is not a package - and "test" is also the standard library's test package - so this is
# run as a script, from the repository root.)
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import fuzz_driver  # noqa: E402
import fuzz_ops  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--calls", type=int, default=5000, help="distinct calls to generate and run")
    ap.add_argument("--seed", type=int, default=0, help="Hypothesis seed (same seed, same calls)")
    ap.add_argument("--reference", default=os.environ.get("TORCH_REFERENCE_PYTHON"),
                    help="python of a separate venv with the reference torch (default: $TORCH_REFERENCE_PYTHON)")
    ap.add_argument("--jobs", type=int, default=2, help="batches run in parallel")
    ap.add_argument("--report", help="write the grouped report here")
    ap.add_argument("--json", help="write every non-agreeing call (data + outcomes) here, one JSON per line")
    ap.add_argument("--ops", help="comma-separated substrings: only ops whose name contains one")
    ap.add_argument("--timeout", type=float, default=fuzz_driver.CALL_TIMEOUT, help="seconds per call")
    ap.add_argument("--shrink-seconds", type=float, default=20.0,
                    help="Hypothesis shrinking budget per disagreement group (0: no shrinking)")
    ap.add_argument("--shrink-total", type=float, default=900.0, help="shrinking budget for the whole run")
    ap.add_argument("--start-retry", type=float, default=900.0,
                    help="seconds to keep retrying an interpreter that cannot import torch (a rebuild)")
    args = ap.parse_args(argv)
    fuzz_driver.START_RETRY_S = args.start_retry

    fz = fuzz_driver.Fuzzer(sys.executable, reference=args.reference, jobs=args.jobs, seed=args.seed,
                            call_timeout=args.timeout)
    if args.ops:
        subs = args.ops.split(",")
        fz.ctx.ops = [(n, f) for n, f in fz.ctx.ops if any(s in n for s in subs)]
        if not fz.ctx.ops:
            ap.error("no op matches --ops")
    print("this tree: %s" % fz.info["ours"])
    if args.reference:
        print("reference: %s" % fz.info["reference"])
    fz.run(args.calls)
    print("ran %d calls in %.0f s (generation %.1f s)" % (len(fz.results), fz.run_s, fz.gen_s))
    if args.shrink_seconds > 0:
        t0 = time.monotonic()
        shrunk = fz.shrink_groups(budget_s=args.shrink_seconds, total_s=args.shrink_total)
        print("shrank %d groups in %.0f s" % (len(shrunk), time.monotonic() - t0))
    print(fz.figures_table())
    if args.report:
        with open(args.report, "w") as f:
            f.write(fz.report())
        print("report: %s" % args.report)
    if args.json:
        with open(args.json, "w") as f:
            for call, o, r, sec, detail in fz.results:
                if sec != "agree":
                    f.write(json.dumps({"section": sec, "detail": detail, "call": call,
                                        "source": fuzz_ops.short(call), "ours": o, "reference": r}) + "\n")
    bad = sum(1 for *_, sec, _ in fz.results if sec in ("crash", "hang", "bad_type"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
