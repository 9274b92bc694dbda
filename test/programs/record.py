"""Record what each program in test/programs/ prints under real PyTorch: the fixtures of test_programs.py.

The files in expected/ come from PyTorch 2.13.0 (the CPU build), each program run at one intra-op
thread exactly as test_programs.py runs it here. Guide: docs/source/internals/programs/index.rst.

Run from anywhere, naming PyTorch's interpreter in TORCH_REFERENCE_PYTHON or --python, e.g.:

    TORCH_REFERENCE_PYTHON=<python with PyTorch 2.13> .venv/bin/python test/programs/record.py [name ...]

Each program runs with the working directory set to a fresh temporary folder and without
PYTHONPATH, so the interpreter imports its own torch and not this tree's.
"""
import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXPECTED = HERE / "expected"
REFERENCE_VERSION = "2.13.0"


def programs():
    return sorted(p.stem for p in HERE.glob("*.py") if p.stem not in ("record", "test_programs"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     epilog="example: TORCH_REFERENCE_PYTHON=/path/to/venv/bin/python")
    parser.add_argument("names", nargs="*", help="programs to record (default: all)")
    parser.add_argument("--python", default=os.environ.get("TORCH_REFERENCE_PYTHON"),
                        help="an interpreter with PyTorch installed (default: $TORCH_REFERENCE_PYTHON)")
    args = parser.parse_args()
    if not args.python:
        parser.error("name PyTorch's interpreter with --python or TORCH_REFERENCE_PYTHON")

    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(OMP_NUM_THREADS="1", PYTHONHASHSEED="0")  # as test_programs.run_program
    with tempfile.TemporaryDirectory() as cwd:
        version = subprocess.run([args.python, "-c", "import torch; print(torch.__version__)"],
                                 cwd=cwd, env=env, capture_output=True, text=True, check=True).stdout.strip()
        if not version.startswith(REFERENCE_VERSION):
            sys.exit(f"{args.python} has torch {version}; the fixtures are PyTorch {REFERENCE_VERSION}'s")
        EXPECTED.mkdir(exist_ok=True)
        for name in args.names or programs():
            proc = subprocess.run([args.python, str(HERE / f"{name}.py")], cwd=cwd, env=env,
                                  capture_output=True, text=True, timeout=600)
            if proc.returncode != 0:
                sys.exit(f"{name}.py failed under torch {version}:\n{proc.stderr}")
            (EXPECTED / f"{name}.txt").write_text(proc.stdout)
            print(f"{name}: {len(proc.stdout.splitlines())} lines")


if __name__ == "__main__":
    main()
