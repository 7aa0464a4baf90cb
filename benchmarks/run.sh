#!/usr/bin/env bash
# Runs the benchmark suite and writes docs/benchmarks.md from the results. Builds nothing: run
#   ./build.sh -DskipTests install
# first (it leaves benchmarks/target/benchmarks.jar and piranha-crawler/target/piranha.jar).
#
#   benchmarks/run.sh quick    about 27 minutes on 2 cores (in a run of 2026-11-29: 7.5 of them the loopback echo,
#                              8 Piranha's figures, 3.6 the third-party server on shared cores in three rounds and
#                              1.3 with a core each, 40 s the compute+sleep workload, 25 s the command line's and
#                              the agent's start-up, 65 s the million-thread program, 55 s the footprint's three
#                              rounds): 1 fork, short iterations
#   benchmarks/run.sh full     the annotations' settings (2-3 forks, 5+5 one-second iterations)
# Both run the million-thread program with the seed's 1,000,000 threads.
#
# Environment: BENCH_JAR (default benchmarks/target/benchmarks.jar), PIRANHA_JAR (default
# piranha-crawler/target/piranha.jar; set it empty to skip Piranha's figures), CLI_JAR and AGENT_JAR (default
# pico-transform/target/pico-transform.jar and pico-agent.jar), START_UP_LIBRARIES (default the start-up directory
# beside BENCH_JAR: Guava's and jsoup's published jars, which the build copies there), JAVA (default: a JDK 21+ found
# as build.sh finds it), RESULTS (default benchmarks/target/results), REPORT (default docs/benchmarks.md), THIRD_PARTY (default
# the third-party directory beside BENCH_JAR: NanoHTTPD's published jars, which the build copies there).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-quick}
case "$mode" in quick|full) ;; *) echo "usage: benchmarks/run.sh quick|full" >&2; exit 2 ;; esac

jar=${BENCH_JAR:-benchmarks/target/benchmarks.jar}
results=${RESULTS:-benchmarks/target/results}
report=${REPORT:-docs/benchmarks.md}
[ -f "$jar" ] || { echo "run.sh: $jar is missing; run ./build.sh -DskipTests install first" >&2; exit 1; }
if [ -z "${JAVA:-}" ]; then
  for home in "${JAVA_HOME:-}" /usr/lib/jvm/*; do
    [ -n "$home" ] && [ -x "$home/bin/java" ] || continue
    major=$("$home/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p' | head -n 1)
    [ -n "$major" ] && [ "$major" -ge 21 ] && { JAVA=$home/bin/java; break; }
  done
fi
[ -n "${JAVA:-}" ] || { echo "run.sh: no JDK 21 or later found; set JAVA" >&2; exit 1; }
rm -rf "$results" && mkdir -p "$results"
echo "$mode" > "$results/mode"

if [ "$mode" = quick ]; then
  jmh_times=(-f 1 -wi 2 -w 500ms -i 3 -r 500ms)
  # the overhead target is 3%: three forks, each compiling the workload afresh, so that one fork's JIT luck does not
  # decide it (about two minutes)
  call_overhead_times=(-f 3 -wi 3 -w 500ms -i 5 -r 500ms)
  transformer_times=(-f 1 -wi 20 -i 5)
  # the seed's size: with 100,000 threads a run lasted 0.3 s, a third of it the JVM's start, and the two runtimes'
  # runs spread over the same range (0.29-0.42 s against 0.29-0.48 s in the report of 2026-11-29)
  million=1000000
  million_rounds=7
  footprint_rounds=3
  # the loopback echo: CONNECTIONS ROUNDS RUNS WARM_UPS per JVM (warm-up runs of about 2.5 and 5 s: after one run of
  # 1,000 connections the rewritten code was still being compiled, 87 compilations in the next run and 69 in the
  # fourth, against 30 and 16 for virtual threads), and how many rounds of alternated JVMs
  echo_sizes=("1000 100 4 3" "5000 100 2 1")
  echo_rounds=3
  start_up_rounds=7
  server_times=(5 10)
  # the NanoHTTPD harness with servers and clients sharing both cores, run this many times (each run two PicoThreads
  # and two platform windows): single runs of one runtime gave 0.99 in one report and 1.04 to 1.08 by hand an hour
  # later
  server_rounds=3
  # Piranha's Figures 3 and 4 (piranha.jar --figures, every point a crawl in a JVM of its own; Figure 4's three
  # times in each mode, since one crawl swings by more than the modes differ)
  figures=(--pages 1500 --seconds 15 --warmup 10 --pool-sizes 1,4,16,64,256 --sizes 1k,4k,16k --rounds 3)
else
  jmh_times=()
  call_overhead_times=()
  transformer_times=()
  million=1000000
  million_rounds=5
  footprint_rounds=5
  echo_sizes=("1000 100 6 3" "5000 100 3 1")
  echo_rounds=5
  start_up_rounds=15
  server_times=(10 30)
  server_rounds=3
  # not timed yet; the quick run's crawls with more pages, pool sizes and page sizes
  figures=(--pages 4000 --seconds 30 --warmup 20 --pool-sizes 1,2,4,8,16,32,64,128,256,512 --sizes 1k,2k,4k,8k,16k,64k
    --rounds 3)
fi

jmh() {  # jmh NAME ARGS...: one JMH run, its JSON to $results/NAME.json and its log to $results/NAME.log
  local name=$1; shift
  echo "run.sh: JMH $name" >&2
  "$JAVA" -jar "$jar" "$@" -rf json -rff "$results/$name.json" > "$results/$name.log" 2>&1 \
    || { tail -n 30 "$results/$name.log" >&2; exit 1; }
}
jmh call-overhead 'CallOverhead' "${call_overhead_times[@]}"
jmh yield 'YieldRoundTrip' "${jmh_times[@]}"
jmh spawn 'SpawnJoin' "${jmh_times[@]}"
jmh handoff 'Handoff' "${jmh_times[@]}"

# The loopback echo, each runtime in JVMs of its own (EchoCpuTime: WARM_UPS runs, then RUNS measured runs), the five
# configurations' JVMs alternating round by round, so that the machine's drift during the run falls on all of them
# alike; the report gives the medians. (JMH's LoopbackEcho ran the configurations one after the other, one run per
# iteration: with three iterations its errors were as large as the values.)
echo "run.sh: loopback echo, $echo_rounds rounds of alternated JVMs" >&2
: > "$results/echo.txt"
printf '%s\n' "${echo_sizes[@]}" > "$results/echo-sizes.txt"
for size in "${echo_sizes[@]}"; do
  read -r connections rounds runs warm_ups <<< "$size"
  for round in $(seq "$echo_rounds"); do
    for configuration in pico virtual pico-one-carrier virtual-one-carrier platform; do
      case $configuration in
        pico-one-carrier) runtime=pico; flags=(-Dpicothreads.carriers=1) ;;
        virtual-one-carrier)
          runtime=virtual; flags=(-Djdk.virtualThreadScheduler.parallelism=1 -Djdk.virtualThreadScheduler.maxPoolSize=1) ;;
        *) runtime=$configuration; flags=() ;;
      esac
      "$JAVA" "${flags[@]}" -cp "$jar" org.picothreads.benchmarks.EchoCpuTime "$runtime" "$connections" "$rounds" "$runs" "$warm_ups" \
        2>> "$results/echo.log" | sed "s/^/$configuration $connections $rounds $round /" >> "$results/echo.txt" \
        || { tail -n 30 "$results/echo.log" >&2; exit 1; }
    done
  done
done
# third_party_server NAME [PREFIX... --] [JVM FLAGS...]: one run of the NanoHTTPD harness (1,000 clients), under the
# command PREFIX if given (taskset), its JSON object appended as one line to $results/NAME.json, its log to NAME.log
third_party_server() {
  local name=$1 prefix=() word; shift
  if [[ " $* " == *" -- "* ]]; then
    while word=$1; shift; [ "$word" != -- ]; do prefix+=("$word"); done
  fi
  ${prefix[@]+"${prefix[@]}"} "$JAVA" "$@" -cp "$jar" org.picothreads.benchmarks.thirdparty.ThirdPartyServerHarness \
    "${THIRD_PARTY:-$(dirname "$jar")/third-party}" 1000 "${server_times[@]}" \
    >> "$results/$name.json" 2>> "$results/$name.log" || { tail -n 30 "$results/$name.log" >&2; exit 1; }
}
for round in $(seq "$server_rounds"); do
  echo "run.sh: third-party server (NanoHTTPD rewritten by the CLI against platform threads), 1,000 clients," \
    "round $round of $server_rounds" >&2
  third_party_server third-party-server
done
if command -v taskset > /dev/null && [ "$(nproc)" -ge 2 ]; then
  # The same measurement with the server confined to CPU 0 and the clients to CPU 1: each server gets one core of
  # its own, as on a one-core server machine with its load generator elsewhere.
  echo "run.sh: third-party server, server on CPU 0 and clients on CPU 1" >&2
  third_party_server third-party-server-one-core taskset -c 1 -- -Dthirdparty.serverCpus=0
fi
jmh transformer 'TransformerThroughput' "${transformer_times[@]}"
"$JAVA" -cp "$jar" org.picothreads.benchmarks.TransformStatistics > "$results/transform-statistics.json"
# Issue 14's start-up targets from cold JVMs: the command line on Guava's jar, and a hello under pico-agent with and
# without Guava and jsoup on its class path, against the same hello plain and under an agent that does nothing.
echo "run.sh: the command line and the agent from cold JVMs, $start_up_rounds rounds" >&2
"$JAVA" -cp "$jar" org.picothreads.benchmarks.startup.ToolStartUp "${CLI_JAR:-pico-transform/target/pico-transform.jar}" \
  "${AGENT_JAR:-pico-transform/target/pico-agent.jar}" "${START_UP_LIBRARIES:-$(dirname "$jar")/start-up}" \
  "$start_up_rounds" > "$results/start-up.json" 2> "$results/start-up.log" \
  || { tail -n 30 "$results/start-up.log" >&2; exit 1; }

# Each runtime's JVMs alternate, $footprint_rounds rounds, and the report gives the medians: a virtual thread's own
# figure varies from JVM to JVM (heap per thread at depth 1: 1,068 to 1,780 bytes in four JVMs in a row by hand,
# 910 in one report's single run), while a PicoThread's does not (373 to 378).
echo "run.sh: footprint, $footprint_rounds rounds" >&2
for round in $(seq "$footprint_rounds"); do
  for depth in 1 20; do
    for runtime in pico virtual platform; do
      threads=100000; [ "$runtime" = platform ] && threads=10000
      "$JAVA" -Xms2g -Xmx2g -XX:+UseSerialGC -cp "$jar" org.picothreads.benchmarks.Footprint "$runtime" "$threads" \
        "$depth" >> "$results/footprint.jsonl"
    done
  done
done

# Each program runs $million_rounds times, the two runtimes' JVMs alternating: one run of a sub-second program is
# mostly the machine's noise (single runs of the 100,000-thread program without printing gave 0.85x to 1.18x from one
# report to the next), so the report gives the medians.
echo "run.sh: the million-thread program with $million threads, with and without printing, $million_rounds rounds" >&2
for printing in printing quiet; do
  for runtime in pico virtual; do
    suffix=$runtime; [ "$printing" = quiet ] && suffix=quiet-$runtime
    : > "$results/million-$suffix.txt"
  done
  for round in $(seq "$million_rounds"); do
    for runtime in pico virtual; do
      main=org.picothreads.benchmarks.pico.MillionThreads
      [ "$runtime" = virtual ] && main=org.picothreads.benchmarks.jdk.MillionVirtualThreads
      suffix=$runtime; [ "$printing" = quiet ] && suffix=quiet-$runtime
      /usr/bin/time -v "$JAVA" -cp "$jar" "$main" "$million" "$printing" > /dev/null 2>> "$results/million-$suffix.txt"
    done
  done
done

# Issue 12's thread-per-task compute+sleep workload: 2,000 threads, each computing about 2.5 ms and sleeping 1 ms,
# twice; each JVM runs it three times, and the two runtimes' JVMs alternate, two of each.
echo "run.sh: compute+sleep, 2,000 threads" >&2
: > "$results/compute-sleep.txt"
for round in 1 2; do
  for main in org.picothreads.benchmarks.pico.ComputeSleepThreads org.picothreads.benchmarks.jdk.ComputeSleepVirtualThreads; do
    "$JAVA" -cp "$jar" "$main" 2000 2 5 >> "$results/compute-sleep.txt"
  done
done

piranha_jar=${PIRANHA_JAR-piranha-crawler/target/piranha.jar}
if [ -n "$piranha_jar" ]; then
  [ -f "$piranha_jar" ] || { echo "run.sh: $piranha_jar is missing; build it or set PIRANHA_JAR empty" >&2; exit 1; }
  echo "run.sh: Piranha's Figures 3 and 4" >&2
  mkdir -p "$results/piranha"
  echo "java -jar piranha.jar --figures DIR --rate 0 ${figures[*]}" > "$results/piranha-command.txt"
  "$JAVA" -jar "$piranha_jar" --figures "$results/piranha" --rate 0 "${figures[@]}" > "$results/piranha/log" 2>&1 \
    || { tail -n 30 "$results/piranha/log" >&2; exit 1; }
fi

{ nproc; grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'; grep MemTotal /proc/meminfo; uname -sr;
  "$JAVA" -version 2>&1 | sed -n 2p; uptime; } > "$results/machine.txt"
python3 benchmarks/report.py "$results" "$report" "benchmarks/run.sh $mode"
echo "run.sh: wrote $report" >&2
