#!/usr/bin/env bash
# Installs the system libraries of the benchmark's C peers (libxml2, expat) and pkg-config,
# through which the bench crate's build script finds them. Idempotent; Debian/Ubuntu only.
set -euo pipefail

packages=(pkg-config libxml2-dev libexpat1-dev)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-peers: ${packages[*]} already installed"
    exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi
echo "install-peers: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
