"""Builds td2048's native library with Go (go build -buildmode=c-shared
./capi, from the repository this folder is in) into the package, so that
`pip install ./python` gives a working td2048. Needs Go (go.mod's
version) on PATH and the module's dependencies (downloaded by the Go
command, or already in its module cache: then it builds offline)."""

import os
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))


def libname():
    return {"darwin": "libtd2048.dylib", "win32": "td2048.dll"}.get(sys.platform, "libtd2048.so")


def source():
    root = os.environ.get("TD2048_SOURCE") or os.path.dirname(HERE)
    if not os.path.exists(os.path.join(root, "go.mod")):
        sys.exit("td2048: building the native library needs td2048's Go source around this folder "
                 "(or TD2048_SOURCE naming it): %s has no go.mod" % root)
    return root


class BuildWithGo(build_py):
    """build_py, and the native library built by Go into the package."""

    def run(self):
        super().run()
        out = os.path.abspath(os.path.join(self.build_lib, "td2048", libname()))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        cmd = ["go", "build", "-trimpath", "-buildmode=c-shared", "-o", out, "./capi"]
        print("td2048: " + " ".join(cmd))
        env = dict(os.environ, CGO_ENABLED="1")
        try:
            subprocess.run(cmd, cwd=source(), env=env, check=True)
        except FileNotFoundError:
            sys.exit("td2048: the Go command (go) is not on PATH: install Go from https://go.dev/dl/")
        header = out.rsplit(".", 1)[0] + ".h"
        if os.path.exists(header):
            os.remove(header)


class BinaryDistribution(Distribution):
    """A distribution with a native library: its wheels name the platform."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithGo}, distclass=BinaryDistribution)
