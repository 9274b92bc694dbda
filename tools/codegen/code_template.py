"""tools/codegen/code_template.py - ${name} substitution in the templates of aten/src/ATen/templates.

Mirrors PyTorch's torchgen/code_template.py. Guide: docs/source/internals/generated_code.rst.

``${name}`` is replaced by a string; a ``${name}`` alone on its line and bound to a list
becomes one line per element, each indented like the placeholder.
"""

import re


class CodeTemplate:
    substitution = re.compile(r"(^[^\n\S]*)?\$\{(\w+)\}", re.MULTILINE)

    def __init__(self, text: str) -> None:
        self.text = text

    @staticmethod
    def from_file(path: str) -> "CodeTemplate":
        with open(path) as f:
            return CodeTemplate(f.read())

    def substitute(self, **env) -> str:
        def replace(match):
            indent, key = match.group(1), match.group(2)
            value = env[key]
            if isinstance(value, (list, tuple)):
                prefix = indent or ""
                lines = []
                for item in value:
                    for line in str(item).split("\n"):
                        lines.append(prefix + line if line else line)
                return "\n".join(lines)
            return (indent or "") + str(value)

        return self.substitution.sub(replace, self.text)
