#!/usr/bin/env bash
# Installs every optional peer of `xwire bench`: the C and C++ libraries (Debian packages, found
# by the bench crate's build script through pkg-config; xsdcxx, CodeSynthesis XSD, on PATH), the
# Java harness (bench/java, built with Maven) and the Python harness's packages (bench/python,
# pip). Idempotent; Debian/Ubuntu.
# The suite runs with whatever is present; `xwire bench --list` shows what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi

# --- C and C++ peers (Debian packages) ------------------------------------------------------
debian_packages=(pkg-config libxml2-dev libexpat1-dev libxml2-utils libxerces-c-dev libpugixml-dev xsdcxx)

install_debian() {
    local missing=()
    for p in "${debian_packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        echo "install-peers: Debian packages already installed"
        return
    fi
    echo "install-peers: installing ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
}

install_debian

# --- Java peers (bench/java, built with Maven into one jar) ----------------------------------
install_java() {
    if ! command -v mvn >/dev/null || ! command -v java >/dev/null; then
        echo "install-peers: mvn or java not found; the Java peers will be listed as missing"
        return
    fi
    local jar=bench/java/target/xwire-bench-harness.jar
    if [ -f "$jar" ] && [ -z "$(find bench/java/pom.xml bench/java/src -newer "$jar" -print -quit)" ]; then
        echo "install-peers: Java harness up to date"
        return
    fi
    echo "install-peers: building the Java harness (mvn package)"
    mvn -q -B -f bench/java/pom.xml -DskipTests package
}

# --- Python peers (bench/python, pip) --------------------------------------------------------
install_python() {
    if ! command -v python3 >/dev/null; then
        echo "install-peers: python3 not found; the Python peers will be listed as missing"
        return
    fi
    echo "install-peers: pip install -r bench/python/requirements.txt"
    python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore -r bench/python/requirements.txt
}

install_java
install_python
