"""pip install . — the Python package tdisc (python/), built by the project's CMake: a Release build of
the target tdisc_python only (no tests, no CUDA), for the interpreter running pip. Needs what
scripts/deps.sh installs (a C++20 compiler, CMake, Ninja, GMP, Eigen, Boost, pybind11, python3-dev).
Offline, give pip the setuptools it already has: pip install --no-build-isolation .
TDISC_BUILD_DIR=build/release reuses a configured build folder instead of configuring a new one.
Without pip: cmake builds it into <build>/python (docs/python.md)."""
import glob
import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
    VERSION = re.search(r"project\(tdisc VERSION (\S+)", f.read()).group(1)


class CMakeBuild(build_ext):
    """Runs CMake for the extension and copies it, with _build.py, beside the package's .py files."""

    def build_extension(self, ext):
        build = os.environ.get("TDISC_BUILD_DIR")  # a configured build folder to reuse (build/release)
        if build:
            build = os.path.abspath(build)
        else:
            build = os.path.abspath(os.path.join(self.build_temp, "cmake"))
            generator = ["-G", "Ninja"] if shutil.which("ninja") else []
            subprocess.check_call(["cmake", "-S", ROOT, "-B", build, *generator, "-DCMAKE_BUILD_TYPE=Release",
                                   "-DTDISC_TESTS=OFF", "-DTDISC_CUDA=OFF", "-DTDISC_MPI=OFF", "-DTDISC_PYTHON=ON",
                                   f"-DPython3_EXECUTABLE={sys.executable}"])
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
        subprocess.check_call(["cmake", "--build", build, "--target", "tdisc_python", "-j", jobs])
        target = os.path.dirname(os.path.abspath(self.get_ext_fullpath(ext.name)))
        os.makedirs(target, exist_ok=True)
        built = os.path.join(build, "python", "tdisc")
        for path in glob.glob(os.path.join(built, "_tdisc*.so")) + [os.path.join(built, "_build.py")]:
            shutil.copy2(path, target)


setup(name="tdisc", version=VERSION, description="Fast matrix-multiplication schemes: exact verification, "
      "formats, catalogue, searches (Python bindings of tdisc)", license="see LICENSE",
      packages=["tdisc"], package_dir={"": "python"}, python_requires=">=3.9",
      ext_modules=[Extension("tdisc._tdisc", sources=[])], cmdclass={"build_ext": CMakeBuild})
