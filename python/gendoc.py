"""Writes the API reference of the td2048 package, docs/reference/python.md,
from its docstrings; a test keeps it current.

    python3 python/gendoc.py          # rewrite docs/reference/python.md
"""

import inspect
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "docs", "reference", "python.md")


def _doc(obj):
    return inspect.cleandoc(obj.__doc__ or "").strip()


def _sig(name, obj):
    try:
        return "%s%s" % (name, inspect.signature(obj))
    except (TypeError, ValueError):
        return name


def render():
    """The reference as Markdown."""
    sys.path.insert(0, HERE)
    import td2048
    out = ["# td2048 for Python: API reference", "",
           "Generated from the package's docstrings by `python3 python/gendoc.py`; do not edit by hand.",
           "How to install and use the package: [the tutorial](../tutorials/python.md).", "",
           "```", _doc(td2048), "```", ""]
    for name in td2048.__all__:
        obj = getattr(td2048, name)
        if inspect.isclass(obj):
            out += ["## class %s" % _sig(name, obj), ""]
            if _doc(obj):
                out += [_doc(obj), ""]
            for mname, m in inspect.getmembers(obj):
                if mname.startswith("_") or not (inspect.isfunction(m) or isinstance(m, property)):
                    continue
                if inspect.isfunction(m) and m.__qualname__.split(".")[0] not in (name, obj.__mro__[1].__name__):
                    continue
                if isinstance(m, property):
                    out += ["### %s.%s (property)" % (name, mname), ""]
                else:
                    out += ["### %s.%s" % (name, _sig(mname, m)), ""]
                if _doc(m):
                    out += [_doc(m), ""]
        elif callable(obj):
            out += ["## %s" % _sig(name, obj), "", _doc(obj), ""]
        else:
            out += ["## %s" % name, "", "```", repr(obj), "```", ""]
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write(render())
    print("wrote " + os.path.normpath(OUT))
