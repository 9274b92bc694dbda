"""simulated: run one of this folder's example scripts in a fresh interpreter on the simulated CUDA device.

No PyTorch counterpart. Guide: docs/source/internals/cuda_simulated_device.rst. The simulated
device is chosen when torch loads (TORCH_CUDA_SIMULATE), so an example that records what the
device did runs as a script of its own, which prints its record as JSON.
"""

import json
import os
import subprocess
import sys


def run_script(path, devices):
    """Run the script at `path` with `devices` simulated devices; return the JSON it prints."""
    env = dict(os.environ, TORCH_CUDA_SIMULATE=str(devices))
    out = subprocess.run([sys.executable, os.path.abspath(path)], env=env,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)
