"""Builds the one native part: the verifier's multi-scalar multiplication (and the
audit's fixed-base products).

Everything else is declared in pyproject.toml. The extension is optional: where no C
compiler is found the build goes on, and ``lodam_p2p.fairdeal.group`` falls back to
one libsecp256k1 multiplication per term (the same results; a proof of shuffle is checked
1.6 to 1.9 times as slowly, and ``lodam bench deal`` reports which one ran).
"""

import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py


class BuildWithDocs(build_py):
    """Also copies the pages of docs/ into the package (``lodam_p2p/docs/``), so that an
    installed ``lodam`` can show the players' guides it names (lodam_p2p.guides)."""

    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "lodam_p2p" / "docs"
        target.mkdir(parents=True, exist_ok=True)
        for page in sorted(Path(__file__).resolve().parent.joinpath("docs").glob("*.md")):
            shutil.copyfile(page, target / page.name)


setup(cmdclass={"build_py": BuildWithDocs}, ext_modules=[
    Extension("lodam_p2p.fairdeal._msm", ["lodam_p2p/fairdeal/_msm.c"],
              depends=["lodam_p2p/fairdeal/_curve.h"], extra_compile_args=["-O3"],
              optional=True),
])
