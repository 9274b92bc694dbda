"""torch/utils/hooks.py - RemovableHandle: what register_hook returns.

Mirrors PyTorch's torch/utils/hooks.py. Guide: docs/source/internals/autograd.rst.

Hooks live in an OrderedDict (on the tensor, or held by the C++ node); the handle knows
that dict and its own key, so handle.remove() takes the hook out again.
"""

import weakref
from typing import Any


class RemovableHandle:
    """A handle which provides the capability to remove a hook."""

    id: int
    next_id: int = 0

    def __init__(self, hooks_dict: Any) -> None:
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1

    def remove(self) -> None:
        hooks_dict = self.hooks_dict_ref()
        if hooks_dict is not None and self.id in hooks_dict:
            del hooks_dict[self.id]

    def __enter__(self) -> "RemovableHandle":
        return self

    def __exit__(self, type: Any, value: Any, tb: Any) -> None:
        self.remove()
