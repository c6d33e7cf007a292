#!/usr/bin/env bash
# What npm test needs beyond npm: Debian's Chromium without the desktop shell (the browser tests,
# playwright.config.ts) and PostgreSQL's server (the suites on a real PostgreSQL). Installs what
# is missing when it can (root or sudo, with apt), else stops at once with the one command to run.
# Sourced by scripts/test.sh and .ci/run.
system_packages() {
  local need=()
  command -v chromium-headless-shell >/dev/null 2>&1 || [ -x /usr/bin/chromium ] ||
    need+=(chromium-headless-shell)
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
  [ ${#need[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  local command="$sudo apt-get update && $sudo apt-get install -y --no-install-recommends ${need[*]}"
  if ! command -v apt-get >/dev/null 2>&1 || { [ -n "$sudo" ] && ! sudo -n true 2>/dev/null; }; then
    printf 'npm test needs Debian packages it cannot install here (%s). Run this, then npm test:\n  %s\n' \
      "${need[*]}" "${command# }" >&2
    return 1
  fi
  echo "Installing Debian packages npm test needs: ${need[*]}"
  $sudo apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      "${need[@]}" >/dev/null
}
