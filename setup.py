"""Builds the one native part: the verifier's multi-scalar multiplication (and the
audit's fixed-base products).

Everything else is declared in pyproject.toml. The extension is optional: where no C
compiler is found the build goes on, and ``lodam_p2p.fairdeal.group`` falls back to
one libsecp256k1 multiplication per term (the same results; a proof of shuffle is checked
1.6 to 1.9 times as slowly, and ``lodam bench deal`` reports which one ran).
"""

from setuptools import Extension, setup

setup(ext_modules=[
    Extension("lodam_p2p.fairdeal._msm", ["lodam_p2p/fairdeal/_msm.c"],
              depends=["lodam_p2p/fairdeal/_curve.h"], extra_compile_args=["-O3"],
              optional=True),
])
