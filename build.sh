#!/usr/bin/env bash
# Builds PicoThreads with a JDK 21 or later, wherever the machine keeps one.
#
#   ./build.sh demo        build everything, then run the demo on PicoThreads with the same JDK
#   ./build.sh test        build everything and run every test (on JDK 17 too, when one is installed)
#   ./build.sh MVN-ARGS    any other arguments go to Maven as they are
set -euo pipefail
cd "$(dirname "$0")"

java_major() {  # prints the feature version of the java executable $1, or nothing
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p' | head -n 1
}

find_jdk() {  # find_jdk MIN [MAX]: prints a JDK home whose version is in [MIN, MAX]
  local min=$1 max=${2:-999} home major
  for home in "${JAVA_HOME:-}" /usr/lib/jvm/* /opt/java/* /opt/jdk* "$HOME"/.sdkman/candidates/java/*; do
    [ -n "$home" ] && [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || continue
    major=$(java_major "$home/bin/java")
    [ -n "$major" ] && [ "$major" -ge "$min" ] && [ "$major" -le "$max" ] && { echo "$home"; return 0; }
  done
  return 1
}

if ! build_jdk=$(find_jdk 21); then
  echo "build.sh: no JDK 21 or later found (looked at JAVA_HOME and /usr/lib/jvm); install one, for example Temurin 25, and set JAVA_HOME" >&2
  exit 1
fi
export JAVA_HOME=$build_jdk
mvn_args=(-B -ntp)

case "${1:-}" in
  demo)
    shift
    mvn "${mvn_args[@]}" -DskipTests install
    exec bash .ci/demo "$@"
    ;;
  test)
    shift
    if jdk17=$(find_jdk 17 17); then
      mvn_args+=("-Dpico.test.jdk17.java=$jdk17/bin/java")
    else
      echo "build.sh: no JDK 17 found; the tests run on $JAVA_HOME only" >&2
    fi
    exec mvn "${mvn_args[@]}" verify "$@"
    ;;
  *)
    exec mvn "${mvn_args[@]}" "$@"
    ;;
esac
