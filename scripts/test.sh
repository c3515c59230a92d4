#!/usr/bin/env bash
# Every test of floe: the Rust test suite (unit, integration, reference figures, hostile
# inputs, the web server over HTTP), the web page in headless Chromium, the Python module
# (pytest, scripts/test-python), then a short run of every fuzz target when a nightly
# toolchain is present (cargo-fuzz is installed from crates.io when it is missing).
# FUZZ_SECONDS sets the seconds per fuzz target (default 10); FUZZ_SECONDS=0 skips fuzzing.
set -euo pipefail
cd "$(dirname "$0")/.."

# `learn`: the learned predictors' commands (a feature of the binary, off in a plain build)
cargo test --workspace --release --features floe-cli/learn

# The web page in a real headless Chromium (Debian's chromium package), driven by
# playwright-core from the npm registry; both are installed here when missing.
# BROWSER_TESTS=0 skips this step.
if [ "${BROWSER_TESTS:-1}" = 0 ]; then
    echo "browser tests: skipped (BROWSER_TESTS=0)"
else
    if ! command -v chromium >/dev/null 2>&1; then
        echo "installing chromium (Debian) for the browser tests"
        SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
        $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium
    fi
    if ! command -v node >/dev/null 2>&1; then
        echo "installing Node.js (Debian) for the browser tests"
        SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
        $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q nodejs npm
    fi
    web=crates/floe-cli/tests/web
    if [ ! -d "$web/node_modules/playwright-core" ] || [ ! -d "$web/node_modules/axe-core" ]; then
        (cd "$web" && npm ci --no-audit --no-fund)
    fi
    cargo build --release -p floe-cli --features learn
    (cd "$web" && CHROMIUM="$(command -v chromium)" node --test --test-concurrency=1 browser.test.mjs hands.test.mjs players.test.mjs looks.test.mjs)
    echo "browser tests: screenshots in target/web-screenshots/"
fi
# --- the Python module (crates/floe-py): the wheel built and installed into target/py, then
# pytest (scripts/test-python says what it installs). FLOE_PYTHON=0 skips it, loudly.
if [ "${FLOE_PYTHON:-1}" = 0 ]; then
    echo "python module tests: SKIPPED (FLOE_PYTHON=0); the Python module is untested"
else
    scripts/test-python
fi
# --- end of the Python module

if [ "${FUZZ_SECONDS:-10}" = 0 ]; then
    echo "fuzz smoke run: skipped (FUZZ_SECONDS=0)"
elif cargo +nightly --version >/dev/null 2>&1; then
    if ! cargo fuzz --version >/dev/null 2>&1; then
        echo "installing cargo-fuzz (for the fuzz smoke run)"
        cargo install cargo-fuzz --locked --quiet
    fi
    scripts/fuzz-smoke
else
    echo "fuzz smoke run: skipped (no nightly toolchain: rustup toolchain install nightly)"
fi
