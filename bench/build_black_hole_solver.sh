#!/bin/bash
# Build black-hole-solver 1.14.0 (Shlomi Fish's C solver of Black Hole, All in a Row and Golf) outside this
# repository, for bench/bench_family.py: bash bench/build_black_hole_solver.sh [FOLDER] (default ../bhs).
# Needs git, cmake, a C compiler and Perl's Path::Tiny (Debian: apt-get install cmake libpath-tiny-perl).
# The binaries land in FOLDER/build: black-hole-solve, and multi-bhs-solver (many boards in one process).
set -euo pipefail
ROOT=$(realpath -m "${1:-../bhs}")
SOURCES=$ROOT/src
mkdir -p "$SOURCES"
fetch() {  # fetch URL REF FOLDER: the tree of REF, without history
    test -d "$3/.git" || git clone -q "$1" "$3"
    git -C "$3" -c advice.detachedHead=false checkout -q "$2"
}
fetch https://github.com/shlomif/black-hole-solitaire "c-solver/releases/1.14.0" "$SOURCES/black-hole-solitaire"  # the repository, whose black-hole-solitaire/c-solver is the C solver
git -C "$SOURCES/black-hole-solitaire" submodule -q update --init  # xxHash-wrapper
fetch https://github.com/shlomif/rinutils 0.10.3 "$SOURCES/rinutils"
fetch https://github.com/shlomif/shlomif-cmake-modules 2fa3e9be1a1df74ad0e10f0264bfa60e1e3a755c "$SOURCES/cmake-modules"
MODULES=$SOURCES/cmake-modules/shlomif-cmake-modules
cd "$ROOT"
# rinutils is a header library: installed into FOLDER/prefix, where the solver's CMake finds it
mkdir -p build-rinutils
(cd build-rinutils && cmake -S "$SOURCES/rinutils" -B . -DCMAKE_INSTALL_PREFIX="$ROOT/prefix" \
    -DCMAKE_MODULE_PATH="$MODULES" -DSHLOMIF_SYSTEM_INSTALL_DIR="$MODULES" -DWITH_TEST_SUITE=OFF >/dev/null)
cmake --build build-rinutils >/dev/null && cmake --install build-rinutils >/dev/null
# the solver: Release (-O3), no test suite; cmake runs in the build folder, where its generators write
mkdir -p build
(cd build && cmake -S "$SOURCES/black-hole-solitaire/black-hole-solitaire/c-solver" -B . -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$ROOT/prefix" -DCMAKE_INSTALL_PREFIX="$ROOT/prefix" \
    -DCMAKE_MODULE_PATH="$MODULES" -DSHLOMIF_SYSTEM_INSTALL_DIR="$MODULES" -DFCS_WITH_TEST_SUITE=OFF >/dev/null)
cmake --build build -j2 >/dev/null
echo "$ROOT/build/black-hole-solve"
