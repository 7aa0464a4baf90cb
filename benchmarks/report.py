#!/usr/bin/env python3
"""Turns the results benchmarks/run.sh collected into docs/benchmarks.md and its SVG charts.

usage: report.py RESULTS_DIR REPORT_FILE COMMAND

RESULTS_DIR holds the JMH JSON files (call-overhead, yield, spawn, handoff, transformer), echo.txt (EchoCpuTime's
lines, each prefixed by its configuration, connections, rounds and round), footprint.jsonl,
third-party-server.json and third-party-server-one-core.json (ThirdPartyServerHarness's output, the second with
the server on CPU 0 and the clients on CPU 1), start-up.json (ToolStartUp's),
transform-statistics.json, million-{pico,virtual}.txt and million-quiet-{pico,virtual}.txt (the output of
/usr/bin/time -v, with and without the per-thread lines), compute-sleep.txt (the compute+sleep programs' lines) and
machine.txt. The
prose in benchmarks/report-notes.md (the analysis, what is not done) is copied in after the tables.
"""
import json
import math
import os
import re
import statistics
import sys

results_dir, report_file, command = sys.argv[1], sys.argv[2], sys.argv[3]
report_dir = os.path.dirname(os.path.abspath(report_file))


def load_jmh(name):
    path = os.path.join(results_dir, name + '.json')
    try:
        entries = json.load(open(path))
    except (OSError, ValueError):
        return {}
    scores = {}
    for entry in entries:
        method = entry['benchmark'].rsplit('.', 1)[1]
        params = tuple(sorted((entry.get('params') or {}).items()))
        metric = entry['primaryMetric']
        scores[(method, params)] = (metric['score'], metric['scoreError'], metric['scoreUnit'])
    return scores


def score(scores, method, **params):
    return scores.get((method, tuple(sorted((k, str(v)) for k, v in params.items()))))


def fmt(value, digits=3):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return 'n/a'
    if abs(value) >= 1000:
        return f'{value:,.0f}'
    return f'{value:.{digits}g}'


def cell(result):
    if result is None:
        return 'n/a'
    value, error, _ = result
    if error is None or (isinstance(error, float) and math.isnan(error)):
        return fmt(value)
    return f'{fmt(value)} ± {fmt(error, 2)}'


def ratio(numerator, denominator):
    if numerator is None or denominator is None or denominator[0] == 0:
        return None
    return numerator[0] / denominator[0]


def ratio_cell(value):
    return 'n/a' if value is None else f'{value:.2f}×'


def ratio_with_range(overall, per_round):
    """`overall` as a ratio cell and, in brackets, the lowest and highest of the rounds' ratios when there were
    several: the ratio and its text."""
    spread = f' ({min(per_round):.2f}-{max(per_round):.2f})' if len(per_round) > 1 else ''
    return overall, ratio_cell(overall) + spread


def verdict(condition):
    return 'n/a' if condition is None else ('**met**' if condition else '**not met**')


def table(header, rows):
    lines = ['| ' + ' | '.join(header) + ' |', '|' + '---|' * len(header)]
    lines += ['| ' + ' | '.join(str(c) for c in row) + ' |' for row in rows]
    return '\n'.join(lines)


def svg_bars(file_name, title, groups, series, values, unit, log_scale=False):
    """A grouped horizontal bar chart: values[group][series] (None to skip). Returns the markdown image link."""
    colours = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b']
    present = [v for g in groups for v in (values.get(g, {}).get(s) for s in series) if v and v > 0]
    if not present:
        return ''
    high = max(present)
    low = min(present)
    left, width, bar, gap = 190, 460, 14, 10

    def length(v):
        if log_scale:
            floor = math.log10(low) - 0.3
            return max(2, width * (math.log10(v) - floor) / (math.log10(high) - floor + 1e-9))
        return max(2, width * v / high)

    y = 40
    parts = []
    for group in groups:
        parts.append(f'<text x="4" y="{y + bar}" font-size="12" font-weight="bold">{group}</text>')
        for index, name in enumerate(series):
            v = values.get(group, {}).get(name)
            if not v or v <= 0:
                continue
            parts.append(f'<rect x="{left}" y="{y}" width="{length(v):.1f}" height="{bar - 2}" '
                         f'fill="{colours[index % len(colours)]}"/>')
            parts.append(f'<text x="{left - 6}" y="{y + bar - 4}" font-size="11" text-anchor="end">{name}</text>')
            parts.append(f'<text x="{left + length(v) + 4:.1f}" y="{y + bar - 4}" font-size="11">{fmt(v)} {unit}</text>')
            y += bar
        y += gap
    scale = ' (log scale)' if log_scale else ''
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 120}" height="{y + 10}" '
           f'font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>'
           f'<text x="4" y="20" font-size="14" font-weight="bold">{title}{scale}</text>' + ''.join(parts) + '</svg>\n')
    with open(os.path.join(report_dir, file_name), 'w') as out:
        out.write(svg)
    return f'![{title}]({file_name})'


def read(name, default=''):
    path = os.path.join(results_dir, name)
    return open(path).read() if os.path.exists(path) else default


mode = read('mode', 'unknown').strip()
machine = read('machine.txt').strip().splitlines()
out = []
targets = []

out.append('# Benchmarks\n')
out.append('Generated by `benchmarks/report.py` from the results of `' + command + '` (mode: ' + mode + '). '
           'Every number below comes from that run; regenerate them all with\n\n'
           '    ./build.sh -DskipTests install && benchmarks/run.sh quick   # or: full\n\n'
           'Times are JMH averages with the 99.9% confidence half-width (`±`) where JMH gives one. '
           'Each JMH comparison ran side by side in one JMH invocation, one JVM fork per benchmark method; the '
           'loopback echo, the million-thread program and the compute+sleep workload ran as programs in JVMs of their '
           'own, the runtimes\' JVMs alternating, and give medians. '
           'Ratios are PicoThreads over the rival, so below 1 means PicoThreads is faster or smaller.\n')
out.append('## Machine\n')
if machine:
    out.append(table(['', ''], [['cores', machine[0]], ['CPU', machine[1] if len(machine) > 1 else ''],
                                ['memory', machine[2] if len(machine) > 2 else ''],
                                ['kernel', machine[3] if len(machine) > 3 else ''],
                                ['JDK', machine[4] if len(machine) > 4 else ''],
                                ['load when the run ended', machine[5].split('load average:')[-1].strip()
                                 if len(machine) > 5 else '']]))
out.append('\nThe machine was shared: other engineers built and tested the project on the same two cores during '
           'the run, so absolute numbers are noisy; the ratios of benchmarks run side by side are the thing to read.\n')

# 1. Overhead on code that never suspends.
calls = load_jmh('call-overhead')
out.append('## 1. Overhead on code that never suspends\n')
out.append('`CallOverhead`: the same call-heavy class loaded twice, as javac wrote it and rewritten by '
           '`PicoTransformer`, each in a class loader of its own (`WorkloadLoader`). Every method in it can reach a '
           '`Thread.yield()` behind a test that is never true, so the transformer rewrites them all (the setup '
           'fails if it does not); on this path nothing is captured. fib(25); a walk over a complete binary tree '
           'of 16,383 nodes; 100,000 calls of a small method in a loop. Target: transformed within 3% (ratio ≤ 1.03).\n')
rows = []
for workload, label in [('fib', 'recursive fib(25)'), ('treeWalk', 'tree walk'), ('smallCalls', 'loop of small calls')]:
    plain = score(calls, workload + 'Untransformed')
    rewritten = score(calls, workload + 'Transformed')
    r = ratio(rewritten, plain)
    judged = verdict(None if r is None else r <= 1.03)
    if r is not None and r > 1.03 and abs(rewritten[0] - plain[0]) < (rewritten[1] or 0) + (plain[1] or 0):
        judged += ' (the difference is within the error)'
    rows.append([label, cell(plain), cell(rewritten), ratio_cell(r), judged])
    targets.append((f'1. {label}: transformed within 3% of untransformed', ratio_cell(r), judged))
out.append(table(['workload', 'untransformed (µs/op)', 'transformed (µs/op)', 'ratio', 'target ≤ 1.03'], rows))

# 2. Yield round trip.
yields = load_jmh('yield')
out.append('\n## 2. Suspend and resume round trip\n')
out.append('`YieldRoundTrip`: two threads each descend *depth* frames of a recursive method and call `Thread.yield()` '
           '10,000 times at the bottom; one round trip is one yield of each (two suspensions and two resumptions), '
           'thread start and join amortized over the 10,000. Virtual threads run on one carrier '
           '(`-Djdk.virtualThreadScheduler.parallelism=1 -Djdk.virtualThreadScheduler.maxPoolSize=1`), and so do '
           'PicoThreads (`-Dpicothreads.carriers=1`): with two carriers the two threads would run side by side and '
           'a yield would find nobody to switch to. Platform threads are two OS threads on two cores: their yield is `sched_yield`, not a '
           'handoff. "no frame check" is PicoThreads with `-Dpicothreads.checkFrames=false`, which skips the walk '
           'over the carrier stack that precedes every capture. The baseline descends and loops on the calling '
           'thread without yielding. ns per round trip. Targets: at depth 10, PicoThreads no slower than virtual '
           'threads (ratio ≤ 1); issue 13: no slower at every depth, and the cost at depth 200 within 1.5× of the '
           'cost at depth 1.\n')
rows = []
chart = {}
for depth in (1, 10, 50, 200):
    pico = score(yields, 'pico', depth=depth)
    unchecked = score(yields, 'picoWithoutFrameCheck', depth=depth)
    virtual = score(yields, 'virtualOneCarrier', depth=depth)
    platform = score(yields, 'platform', depth=depth)
    rows.append([depth, cell(score(yields, 'baseline', depth=depth)), cell(pico), cell(unchecked), cell(virtual),
                 cell(platform), ratio_cell(ratio(pico, virtual)), ratio_cell(ratio(unchecked, virtual)),
                 ratio_cell(ratio(pico, platform))])
    chart[f'depth {depth}'] = {name: (r[0] if r else None) for name, r in
                              [('PicoThreads', pico), ('Pico, no frame check', unchecked),
                               ('virtual, 1 carrier', virtual), ('platform', platform)]}
    if depth == 10:
        r = ratio(pico, virtual)
        targets.append(('2. yield round trip at depth 10: PicoThreads no slower than virtual threads', ratio_cell(r),
                        verdict(None if r is None else r <= 1.0)))
        r2 = ratio(unchecked, virtual)
        targets.append(('2. (same, with `-Dpicothreads.checkFrames=false`)', ratio_cell(r2),
                        verdict(None if r2 is None else r2 <= 1.0)))
    if depth != 10:
        r = ratio(pico, virtual)
        targets.append((f'issue 13: yield round trip at depth {depth}: PicoThreads no slower than virtual threads',
                        ratio_cell(r), verdict(None if r is None else r <= 1.0)))
    if depth == 200:
        r = ratio(pico, score(yields, 'pico', depth=1))
        targets.append(('issue 13: PicoThreads\' round trip at depth 200 within 1.5× of depth 1', ratio_cell(r),
                        verdict(None if r is None else r <= 1.5)))
out.append(table(['depth', 'baseline', 'PicoThreads', 'Pico, no frame check', 'virtual, 1 carrier', 'platform',
                  'Pico / virtual', 'no check / virtual', 'Pico / platform'], rows))
out.append('\n' + svg_bars('benchmarks-yield.svg', 'Yield round trip, ns', list(chart),
                           ['PicoThreads', 'Pico, no frame check', 'virtual, 1 carrier', 'platform'], chart, 'ns',
                           log_scale=True) + '\n')

# 3. Spawn and join.
spawn = load_jmh('spawn')
out.append('## 3. Spawn, run and join\n')
out.append('`SpawnJoin`: a parent thread starts 1,000 threads with an empty body and joins them all; ns per thread. '
           'Virtual threads with the default scheduler (as many carriers as cores) and on one carrier. The baseline '
           'runs the empty body 1,000 times on the calling thread.\n')
pico = score(spawn, 'pico')
rows = [[label, cell(score(spawn, method)), ratio_cell(ratio(pico, score(spawn, method)))]
        for method, label in [('baseline', 'baseline'), ('pico', 'PicoThreads'), ('virtual', 'virtual (default scheduler)'),
                              ('virtualOneCarrier', 'virtual, 1 carrier'), ('platform', 'platform')]]
out.append(table(['runtime', 'ns per thread', 'PicoThreads / this'], rows))
chart = {'per thread': {label: (score(spawn, m)[0] if score(spawn, m) else None) for m, label in
                        [('pico', 'PicoThreads'), ('virtual', 'virtual'), ('virtualOneCarrier', 'virtual, 1 carrier'),
                         ('platform', 'platform')]}}
out.append('\n' + svg_bars('benchmarks-spawn.svg', 'Spawn, run and join, ns per thread', list(chart),
                           ['PicoThreads', 'virtual', 'virtual, 1 carrier', 'platform'], chart, 'ns', log_scale=True) + '\n')

# 4. Handoff.
handoff = load_jmh('handoff')
out.append('## 4. Monitor and queue handoff\n')
out.append('`Handoff`: two threads, 10,000 round trips, ns per round trip (start and join amortized). `monitor`: '
           '`synchronized` + `wait`/`notify` on a turn flag; `synchronousQueue`, `arrayBlockingQueue` (capacity 1): '
           'a ball sent through one queue and back through another. Virtual threads and PicoThreads on one carrier. The baseline takes '
           'the monitor and notifies twice per round on one thread with nobody waiting.\n')
rows = []
for kind in ('monitor', 'synchronousQueue', 'arrayBlockingQueue'):
    pico = score(handoff, 'pico', kind=kind)
    virtual = score(handoff, 'virtualOneCarrier', kind=kind)
    platform = score(handoff, 'platform', kind=kind)
    rows.append([kind, cell(score(handoff, 'baseline', kind=kind)), cell(pico), cell(virtual), cell(platform),
                 ratio_cell(ratio(pico, virtual)), ratio_cell(ratio(pico, platform))])
out.append(table(['handoff', 'baseline', 'PicoThreads', 'virtual, 1 carrier', 'platform', 'Pico / virtual',
                  'Pico / platform'], rows))

# 5. Loopback echo (EchoCpuTime in alternated JVMs: echo.txt).
ECHO_CONFIGURATIONS = [('pico', 'PicoThreads, all cores'), ('virtual', 'virtual, all cores'),
                       ('pico-one-carrier', 'PicoThreads, 1 carrier'), ('virtual-one-carrier', 'virtual, 1 carrier'),
                       ('platform', 'platform')]
echo_runs = {}  # (configuration, connections, rounds) -> {round: [(wall, user, system), ...]}
for line in read('echo.txt').splitlines():
    match = re.match(r'(\S+) (\d+) (\d+) (\d+) \S+ wall_ms (\d+) cpu_ms \d+ user_ms (-?\d+) system_ms (-?\d+)$', line)
    if match:
        key = (match.group(1), int(match.group(2)), int(match.group(3)))
        echo_runs.setdefault(key, {}).setdefault(int(match.group(4)), []).append(
            tuple(int(match.group(index)) for index in (5, 6, 7)))
echo_rounds = max((len(by_round) for by_round in echo_runs.values()), default=0)
echo_size_text = '; '.join(f'{int(fields[0]):,} connections, {fields[1]} rounds, {fields[3]} warm-up and {fields[2]} '
                           'measured runs' for fields in (line.split() for line in read('echo-sizes.txt').splitlines())
                           if len(fields) == 4) or 'sizes not recorded'
out.append('\n## 5. Loopback echo\n')
out.append('Thread-per-connection `java.net` code in one JVM (`PicoEcho`, rewritten by the plugin, and `JdkEcho`, the same '
           'code not rewritten): a `ServerSocket` on 127.0.0.1 whose accept loop starts one thread per connection '
           'echoing 64-byte messages, and N client threads that each connect and make `rounds` round trips (write a '
           'message, read the echo whole; `TCP_NODELAY`), then close. One run is a whole echo, connection set-up and '
           'teardown included. Measured by `EchoCpuTime` (`java [flags] -cp benchmarks.jar '
           'org.picothreads.benchmarks.EchoCpuTime pico|virtual|platform N ROUNDS RUNS WARM_UPS`: WARM_UPS runs, then '
           f'RUNS measured runs; here {echo_size_text}), each configuration in a JVM of its own, the five '
           f'configurations\' JVMs alternating, {echo_rounds} rounds: PicoThreads (with pico-net sockets) and virtual '
           'threads each on the default number of carriers (as many as cores) and on one carrier '
           '(`-Dpicothreads.carriers=1`; `-Djdk.virtualThreadScheduler.parallelism=1 '
           '-Djdk.virtualThreadScheduler.maxPoolSize=1`), and platform threads. The table gives echoed messages per '
           'second from the median run time of all the measured runs (N × rounds / median); each ratio is that of the '
           'medians, with in brackets the lowest and highest of the rounds\' ratios (each round\'s from the medians of '
           'its JVMs\' runs). Server and clients share the process, so a run holds two descriptors per connection: '
           'under `ulimit -n` 20,000 the largest size is 5,000 connections, not the 10,000 of the issue.\n')


def echo_median(configuration, connections, rounds, index=0, round_number=None):
    by_round = echo_runs.get((configuration, connections, rounds), {})
    values = [run[index] for number, runs in by_round.items() if round_number in (None, number) for run in runs]
    return statistics.median(values) if values else None


def echo_ratio_cell(numerator, denominator, connections, rounds):
    """The rate of `numerator` over that of `denominator` (their median times inverted) and the rounds' range."""
    overall_numerator = echo_median(numerator, connections, rounds)
    overall_denominator = echo_median(denominator, connections, rounds)
    if not overall_numerator or not overall_denominator:
        return None, 'n/a'
    overall = overall_denominator / overall_numerator
    per_round = []
    for number in sorted(echo_runs.get((numerator, connections, rounds), {})):
        top = echo_median(numerator, connections, rounds, round_number=number)
        bottom = echo_median(denominator, connections, rounds, round_number=number)
        if top and bottom:
            per_round.append(bottom / top)
    return ratio_with_range(overall, per_round)


echo_sizes = sorted({(connections, rounds) for (_, connections, rounds) in echo_runs})
rows = []
cpu_rows = []
chart = {}
for connections, rounds in echo_sizes:
    messages = connections * rounds
    rates = {}
    for configuration, _ in ECHO_CONFIGURATIONS:
        wall = echo_median(configuration, connections, rounds)
        rates[configuration] = messages / (wall / 1000) if wall else None
        if wall:
            cpu_rows.append([f'{connections:,}', dict(ECHO_CONFIGURATIONS)[configuration], fmt(wall),
                             fmt(echo_median(configuration, connections, rounds, 1)),
                             fmt(echo_median(configuration, connections, rounds, 2))])
    pico_virtual, pico_virtual_cell = echo_ratio_cell('pico', 'virtual', connections, rounds)
    one_carrier, one_carrier_cell = echo_ratio_cell('pico-one-carrier', 'virtual-one-carrier', connections, rounds)
    _, platform_cell = echo_ratio_cell('pico', 'platform', connections, rounds)
    rows.append([f'{connections:,}', rounds] + [fmt(rates[configuration]) if rates[configuration] else 'n/a'
                                                for configuration, _ in ECHO_CONFIGURATIONS]
                + [pico_virtual_cell, one_carrier_cell, platform_cell])
    chart[f'{connections:,} connections'] = {label: rates[configuration]
                                             for configuration, label in ECHO_CONFIGURATIONS}
    if (connections, rounds) == max(echo_sizes):
        targets.append((f'5. loopback echo, {connections:,} connections: PicoThreads at least virtual threads, both '
                        'on the default number of carriers', ratio_cell(pico_virtual),
                        verdict(None if pico_virtual is None else pico_virtual >= 1.0)))
        targets.append(('5. same, each on one carrier', ratio_cell(one_carrier),
                        verdict(None if one_carrier is None else one_carrier >= 1.0)))
if rows:
    out.append(table(['connections', 'rounds', 'PicoThreads, msg/s', 'virtual', 'PicoThreads, 1 carrier',
                      'virtual, 1 carrier', 'platform', 'Pico / virtual', 'Pico / virtual, 1 carrier each',
                      'Pico / platform'], rows))
    out.append('\nPer run, the medians in ms: wall time, and the process\'s user and system CPU time (from /proc, at '
               'the kernel\'s 10 ms tick).\n')
    out.append(table(['connections', 'runtime', 'wall', 'user CPU', 'system CPU'], cpu_rows))
    out.append('\n' + svg_bars('benchmarks-echo.svg', 'Loopback echo, messages per second', list(chart),
                               [label for _, label in ECHO_CONFIGURATIONS], chart, 'msg/s') + '\n')
else:
    out.append('No result: `echo.txt` is missing from the results.\n')

# 5b. The third-party server of issue 4.
out.append('## 5b. A third-party server: NanoHTTPD\n')
out.append('`ThirdPartyServerHarness`: NanoHTTPD 2.3.1\'s `SimpleWebServer` (Maven Central\'s `nanohttpd` and '
           '`nanohttpd-webserver` jars, unmodified; one `new Thread` per connection, a keep-alive loop per '
           'connection) serving a generated directory of eleven files from 0 bytes to 100 KB and a missing path, from '
           'a child JVM. PicoThreads: the jars rewritten by the pico-transform CLI, on the class path with '
           'pico-runtime and pico-net. Platform: the same jars unrewritten (its `new Thread` cannot be given virtual '
           'threads without changing it). The harness JVM drives the same number of keep-alive clients (virtual '
           'threads, one request at a time each, every status and body checked byte for byte) for a warm-up and a '
           'measured window; server CPU is the child JVM\'s user and system time over the window, from /proc, and '
           'client CPU the harness JVM\'s own (clients and checking). In the first row the servers and the clients '
           'share both cores; in the second each server runs under `taskset -c 0` and the harness under '
           '`taskset -c 1`, so that each server has one core of its own. Each side is measured twice, in the order '
           'PicoThreads, platform, platform, PicoThreads, each time with a server JVM of its own, and the table gives '
           'its two windows together: the harness JVM\'s own JIT is still warming up in the first window, which '
           'before fell to PicoThreads alone, and the shared machine\'s speed drifts. A row may hold several runs '
           'of the harness (rounds, each in a harness JVM of its own, one after the other): its rates are each '
           'side\'s responses over its seconds in all of them, its CPU figures weighted by responses, and the '
           'brackets give the range of the rounds\' own ratios. Single runs of the first row with one runtime '
           'gave 0.99 (the report before this row had rounds) and 1.04 to 1.08 (four runs by hand an hour later).\n')


def load_server(name):
    """The harness's results in file `name`, one JSON object per line (one per round), combined into one: each side's
    responses and seconds summed, its CPU per request weighted by its responses; with `rounds`, the rounds' ratios of
    PicoThreads' request rate to platform threads'. None when the file is missing or holds no result."""
    rounds = []
    for line in read(name, '').splitlines():
        if line.strip():
            try:
                rounds.append(json.loads(line))
            except ValueError:
                return None
    if not rounds:
        return None

    def side(key):
        sides = [result[key] for result in rounds]
        responses = sum(s['responses'] for s in sides)
        seconds = sum(s['seconds'] for s in sides)
        combined = {'responses': responses, 'seconds': seconds, 'requestsPerSecond': responses / seconds,
                    'serverThreads': max(s['serverThreads'] for s in sides),
                    'serverCpuMicrosPerRequest': sum(s['serverCpuMicrosPerRequest'] * s['responses']
                                                     for s in sides) / responses}
        if all('clientCpuMicrosPerRequest' in s for s in sides):
            combined['clientCpuMicrosPerRequest'] = sum(s['clientCpuMicrosPerRequest'] * s['responses']
                                                        for s in sides) / responses
        return combined

    combined = dict(rounds[0], pico=side('pico'), platform=side('platform'))
    combined['rounds'] = [result['pico']['requestsPerSecond'] / result['platform']['requestsPerSecond']
                          for result in rounds]
    return combined


def server_ratio_cell(result):
    """The ratio of the combined request rates, with the rounds' range when there were several."""
    return ratio_with_range(result['pico']['requestsPerSecond'] / result['platform']['requestsPerSecond'],
                            result['rounds'])


server = load_server('third-party-server.json')
one_core = load_server('third-party-server-one-core.json')
if server:
    rows = []
    for where, result in (('both cores, shared with the clients', server),
                          ('server on CPU 0, clients on CPU 1', one_core)):
        if not result:
            continue
        pico, platform = result['pico'], result['platform']
        rows.append([where, f"{result['clients']:,}", len(result['rounds']), f"{pico['requestsPerSecond']:,.0f}",
                     f"{platform['requestsPerSecond']:,.0f}", server_ratio_cell(result)[1],
                     f"{pico['serverCpuMicrosPerRequest']:.0f} / {platform['serverCpuMicrosPerRequest']:.0f}",
                     (f"{pico['clientCpuMicrosPerRequest']:.0f} / {platform['clientCpuMicrosPerRequest']:.0f}"
                      if 'clientCpuMicrosPerRequest' in pico else 'not measured'),
                     f"{pico['serverThreads']} / {platform['serverThreads']}", f"{pico['seconds']:.0f}"])
    out.append(table(['CPUs', 'clients', 'rounds', 'PicoThreads, requests/s', 'platform, requests/s',
                      'Pico / platform (rounds\' range)',
                      'server CPU per request, Pico / platform (µs)',
                      'client JVM CPU per request, Pico / platform (µs)', 'server JVM threads, Pico / platform',
                      'measured (s)'], rows))
    out.append(f"\nThe CLI's reports for the two jars list {server['pinnedCallSites']} pinned call sites (none in "
               'the serving code; see docs/net.md).\n')
    r, ratio_text = server_ratio_cell(server)
    targets.append((f"issue 4: NanoHTTPD rewritten, {server['clients']:,} keep-alive clients: PicoThreads at least "
                    'the platform-thread request rate (both cores, shared with the clients)', ratio_text,
                    verdict(r >= 1.0)))
    if one_core:
        r, ratio_text = server_ratio_cell(one_core)
        targets.append(('issue 4, the same with each server on one core of its own and the clients on the other',
                        ratio_text, verdict(r >= 1.0)))
else:
    out.append('No result: `third-party-server.json` is missing from the results.\n')

# 6. Transformer throughput.
transformer = load_jmh('transformer')
transform_statistics = json.loads(read('transform-statistics.json', '{}') or '{}')
out.append('## 6. Transformer throughput\n')
out.append('`TransformerThroughput`: all of Guava\'s classes (read from its jar, a benchmark dependency from Maven '
           'Central) rewritten in one `PicoTransformer.transform` call, as the plugin makes it, bytes in memory to '
           'bytes in memory; JMH single-shot time per whole jar, after 20 warm-up rewrites (HotSpot takes about '
           'that many to settle on the transformer\'s code; the cold rewrite, JVM start included, is the command '
           'line\'s, docs/cli.md). The baseline only checks each class for the rewrite marker. '
           '`TransformStatistics` counts what the rewrite changed. Target (issue 14): 5,000 classes per second.\n')
whole = score(transformer, 'transformGuava')
classes = transform_statistics.get('classes')
rows = [['Guava classes read from', transform_statistics.get('jar', 'n/a')], ['classes', classes if classes else 'n/a'],
        ['classes rewritten', f"{transform_statistics['rewritten']} ({100.0 * transform_statistics['rewritten'] / classes:.1f}%)"
         if classes else 'n/a'],
        ['bytes in / out', f"{transform_statistics.get('bytesIn', 0):,} / {transform_statistics.get('bytesOut', 0):,}" if classes else 'n/a'],
        ['time per jar (ms)', cell(whole)], ['baseline per jar (ms)', cell(score(transformer, 'baseline'))],
        ['classes per second', f'{classes / (whole[0] / 1000.0):,.0f}' if whole and classes else 'n/a']]
out.append(table(['', 'Guava'], rows))
rate = classes / (whole[0] / 1000.0) if whole and classes else None
targets.append(('issue 14: Guava rewritten in memory (steady state) at 5,000 classes per second or more',
                'n/a' if rate is None else f'{rate:,.0f} classes/s', verdict(None if rate is None else rate >= 5000)))

# 6b. The command line and the agent from cold JVMs.
start_up = json.loads(read('start-up.json', '{}') or '{}')
out.append('\n## 6b. The command line and the agent, from cold JVMs\n')
out.append('`ToolStartUp`: every run a JVM of its own, started by the harness with the JDK of the run; each round runs '
           'every case once, in the order of the table, and the table gives each case\'s median over the rounds: wall '
           'time from start to exit, and the JVM\'s user and system CPU time (its children\'s times in '
           '`/proc/self/stat`, 10 ms ticks). The command line: `java -jar pico-transform.jar guava.jar out.jar` on '
           'Guava\'s published jar; beside it, for reference, what ASM alone takes in such a JVM to read the same jar, '
           'parse each class into its tree, run its `Analyzer` over every method and write the classes back into a '
           'jar, on every processor (`AsmRoundTrip`: the floor under any ASM-based rewriter, with none of the '
           'transformer\'s whole-program analysis, plans or weaving). The hello: a class that prints one line, with '
           'itself alone on the class path and with Guava\'s and jsoup\'s published jars on it too (neither is used), '
           'started plain, under an agent whose '
           'premain does nothing (what `-javaagent` costs the JVM itself), and under pico-agent with its cache warm (one '
           'run of each case before the rounds) and with `cache=off` (every class that loads rewritten, as in a first '
           'run). Targets (issue 14): the command line at 2,000 classes per second or more for the whole process; the '
           'one-class hello under the agent within 250 ms; the hello with Guava and jsoup on the class path under the '
           'agent within 2× of its start-up without the agent.\n')
cases = start_up.get('cases', {})
if cases:
    rounds = start_up.get('rounds')
    guava_classes = start_up.get('guavaClasses')
    def wall(name):
        return cases.get(name, {}).get('medianWallMillis')
    def cpu(name):
        return cases.get(name, {}).get('medianCpuMillis')
    cli_wall = wall('cli-guava')
    cli_rate = guava_classes / (cli_wall / 1000.0) if cli_wall and guava_classes else None
    command_rows = [[f"`java -jar pico-transform.jar {start_up.get('guavaJar', 'guava')} out.jar`",
                     f'{guava_classes:,}' if guava_classes else 'n/a', fmt(cli_wall), fmt(cpu('cli-guava')),
                     f'{cli_rate:,.0f}' if cli_rate else 'n/a']]
    asm_wall = wall('asm-round-trip-guava')
    if asm_wall:
        asm_rate = guava_classes / (asm_wall / 1000.0) if guava_classes else None
        command_rows.append(['for reference, ASM alone reads, analyses and writes it (`AsmRoundTrip`)',
                             f'{guava_classes:,}' if guava_classes else 'n/a', fmt(asm_wall),
                             fmt(cpu('asm-round-trip-guava')), f'{asm_rate:,.0f}' if asm_rate else 'n/a'])
    out.append(table(['command line', 'classes', 'wall (ms)', 'CPU (ms)', 'classes per second (wall)'],
                     command_rows))
    rows = []
    labels = {'plain': 'plain', 'no-op-agent': 'agent that does nothing', 'agent-cache': 'pico-agent, cache warm',
              'agent-no-cache': 'pico-agent, `cache=off`'}
    for path, path_label in (('alone', 'the hello alone'),
                             ('libraries', f"with `{start_up.get('guavaJar')}` and `{start_up.get('jsoupJar')}`")):
        plain = wall(f'hello-{path}-plain')
        for key, label in labels.items():
            name = f'hello-{path}-{key}'
            rows.append([path_label, label, fmt(wall(name)), fmt(cpu(name)),
                         ratio_cell(wall(name) / plain if wall(name) and plain else None)])
    out.append('\n' + table(['class path', 'started', 'wall (ms)', 'CPU (ms)', 'wall / plain'], rows))
    out.append(f'\nMedians of {rounds} rounds.')
    targets.append(('issue 14: the command line rewrites Guava at 2,000 classes per second or more (whole process)',
                    'n/a' if cli_rate is None else f'{cli_rate:,.0f} classes/s',
                    verdict(None if cli_rate is None else cli_rate >= 2000)))
    for key, label in (('agent-cache', 'cache warm'), ('agent-no-cache', '`cache=off`')):
        milliseconds = wall(f'hello-alone-{key}')
        targets.append((f'issue 14: a one-class hello under the agent ({label}) within 250 ms',
                        'n/a' if milliseconds is None else f'{milliseconds:,} ms',
                        verdict(None if milliseconds is None else milliseconds <= 250)))
    plain = wall('hello-libraries-plain')
    for key, label in (('agent-cache', 'cache warm'), ('agent-no-cache', '`cache=off`'),
                       ('no-op-agent', 'for comparison, an agent that does nothing')):
        milliseconds = wall(f'hello-libraries-{key}')
        r = milliseconds / plain if milliseconds and plain else None
        if key == 'no-op-agent':
            targets.append((f'(issue 14: hello with Guava and jsoup on the class path, {label}: within 2× of its '
                            'start-up without an agent)', ratio_cell(r), 'the floor under any agent'))
        else:
            targets.append((f'issue 14: hello with Guava and jsoup on the class path under the agent ({label}) within '
                            '2× of its start-up without the agent', ratio_cell(r), verdict(None if r is None else r <= 2.0)))
else:
    out.append('No result: `start-up.json` is missing from the results.\n')

# Memory per suspended thread.
footprint = [json.loads(line) for line in read('footprint.jsonl').splitlines() if line.strip()]
out.append('\n## Memory per suspended thread\n')
out.append('`Footprint RUNTIME THREADS DEPTH`, one JVM each (`-Xms2g -Xmx2g -XX:+UseSerialGC`): the threads each '
           'descend DEPTH frames and sleep; once all have arrived and a second has passed, the growth of the used heap '
           'after five `System.gc()` and of VmRSS, divided by the thread count. 100,000 PicoThreads and virtual '
           'threads, 10,000 platform threads. Platform threads keep their stacks outside the heap, so their heap number '
           'is only the `Thread` objects. Targets (issue 13): a PicoThread\'s heap a third of a virtual thread\'s (ratio '
           '≤ 0.33), its RSS half (ratio ≤ 0.5).\n')
rows = []
chart = {}
footprint_runs = {}
for entry in footprint:
    footprint_runs.setdefault((entry['runtime'], entry['depth']), []).append(entry)
footprint_rounds = max((len(entries) for entries in footprint_runs.values()), default=0)
if footprint_rounds > 1:
    out.append(f'Each JVM ran {footprint_rounds} times, the runtimes\' JVMs alternating; the table gives the medians, '
               'with the lowest and highest figure of each runtime\'s JVMs in brackets (a virtual thread\'s figure '
               'varies from JVM to JVM).\n')


def footprint_values(entries, key):
    """The JVMs' figures; a growth below zero (older results, before Footprint read the heap as its last collection
    left it) says nothing about the threads and is left out."""
    values = [entry.get(key) for entry in entries or []]
    return [value for value in values if value is not None and value >= 0]


def footprint_median(entries, key):
    values = footprint_values(entries, key)
    return statistics.median(values) if values else None


def footprint_spread(entries, key):
    values = footprint_values(entries, key)
    return f' ({fmt(min(values))}-{fmt(max(values))})' if len(values) > 1 else ''


for depth in (1, 20):
    pico, virtual, platform = (footprint_runs.get((r, depth)) for r in ('pico', 'virtual', 'platform'))
    heap_ratio, rss_ratio = (footprint_median(pico, key) / footprint_median(virtual, key)
                             if footprint_median(pico, key) and footprint_median(virtual, key) else None
                             for key in ('heapPerThread', 'rssPerThread'))
    rows.append([depth] + [fmt(footprint_median(entries, key)) + footprint_spread(entries, key)
                           for key in ('heapPerThread', 'rssPerThread') for entries in (pico, virtual, platform)]
                + [ratio_cell(heap_ratio), ratio_cell(rss_ratio)])
    chart[f'depth {depth}, heap'] = {label: footprint_median(entries, 'heapPerThread') for label, entries in
                                     (('PicoThreads', pico), ('virtual', virtual), ('platform', platform))}
    chart[f'depth {depth}, RSS'] = {label: footprint_median(entries, 'rssPerThread') for label, entries in
                                    (('PicoThreads', pico), ('virtual', virtual), ('platform', platform))}
    for what, r, share, bound in (('heap', heap_ratio, 'a third', 1 / 3), ('RSS', rss_ratio, 'half', 1 / 2)):
        targets.append((f'memory at depth {depth} ({what}): {share} of a virtual thread', ratio_cell(r),
                        verdict(None if r is None else r <= bound)))
out.append(table(['depth', 'Pico heap', 'virtual heap', 'platform heap', 'Pico RSS', 'virtual RSS', 'platform RSS',
                  'Pico / virtual heap', 'Pico / virtual RSS'], rows))
if any('n/a' in row[1:7] for row in rows):
    out.append('\nn/a: not measured, or the measurement gave no figure (the heap or RSS after the threads started was '
               'below the one before).')
out.append('\nBytes per thread. ' + svg_bars('benchmarks-memory.svg', 'Bytes per suspended thread', list(chart),
                                              ['PicoThreads', 'virtual', 'platform'], chart, 'B', log_scale=True) + '\n')

# The seed program.
def time_v(text):
    def field(pattern):
        match = re.search(pattern, text)
        return match.group(1) if match else None
    elapsed = field(r'Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)')
    seconds = None
    if elapsed:
        parts = [float(p) for p in elapsed.split(':')]
        seconds = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
    rss = field(r'Maximum resident set size \(kbytes\): (\d+)')
    taken = field(r'Time Taken = (\d+)')
    number = field(r'Number = (\d+)')
    return seconds, (int(rss) / 1024 if rss else None), (int(taken) if taken else None), number

def median(values):
    values = sorted(values)
    return values[len(values) // 2] if values else None


def time_v_median(text):
    """The medians of the runs that one file holds, one `/usr/bin/time -v` account after another (an older run.sh
    wrote one), with the number of runs and the range of their wall times."""
    runs = [time_v(match.group(0)) for match in re.finditer(r'.*?Exit status: \d+', text, re.DOTALL)
            if 'Elapsed' in match.group(0)]
    if not runs:
        return (None, None, None, None, 0, None)
    walls = [run[0] for run in runs if run[0] is not None]
    return (median(walls), median([run[1] for run in runs if run[1] is not None]),
            median([run[2] for run in runs if run[2] is not None]), runs[0][3], len(runs),
            (min(walls), max(walls)) if walls else None)


out.append('## The million-thread program\n')
pico_run, virtual_run = time_v_median(read('million-pico.txt')), time_v_median(read('million-virtual.txt'))
quiet_pico, quiet_virtual = (time_v_median(read('million-quiet-pico.txt')),
                             time_v_median(read('million-quiet-virtual.txt')))
count = pico_run[3] or virtual_run[3] or 'n/a'
million_runs = min(run[4] for run in (pico_run, virtual_run, quiet_pico, quiet_virtual))
out.append(f'A program with {count} threads: each prints a line (to /dev/null here), increments a counter, '
           'sleeps 5 ms and counts down a latch that `main` awaits; run again without the line (argument `quiet`). '
           'PicoThreads: its platform-thread version '
           '(`new Thread(...).start()`, `benchmarks/src/main/java/org/picothreads/benchmarks/pico/MillionThreads.java`)'
           ' rewritten by the plugin; virtual threads: its `Thread.startVirtualThread` version '
           '(`benchmarks/src/main/java/org/picothreads/benchmarks/jdk/MillionVirtualThreads.java`) with the default '
           'scheduler. '
           f'Measured with `/usr/bin/time -v`, {million_runs} runs of each, the two runtimes\' JVMs alternating; '
           'the table gives the medians, and the range of the wall times. Target: PicoThreads faster than virtual '
           'threads, with and without printing.\n')


def seed_rows(label, pico, virtual):
    def r(index):
        return ratio_cell(pico[index] / virtual[index] if pico[index] and virtual[index] else None)

    def wall_range(run):
        return f' ({fmt(run[5][0])}-{fmt(run[5][1])})' if run[5] and run[4] > 1 else ''
    return [[f'{label}: wall time of the JVM (s)', fmt(pico[0]) + wall_range(pico),
             fmt(virtual[0]) + wall_range(virtual), r(0)],
            [f'{label}: "Time Taken" the program prints (ms)', fmt(pico[2]), fmt(virtual[2]), r(2)],
            [f'{label}: peak RSS (MiB)', fmt(pico[1]), fmt(virtual[1]), r(1)]]


rows = seed_rows('printing', pico_run, virtual_run) + seed_rows('without printing', quiet_pico, quiet_virtual)
out.append(table(['', 'PicoThreads', 'virtual threads', 'Pico / virtual'], rows))
for label, pico, virtual in [('printing', pico_run, virtual_run), ('without printing', quiet_pico, quiet_virtual)]:
    r = pico[0] / virtual[0] if pico[0] and virtual[0] else None
    targets.append((f'the million-thread program with {count} threads, {label}: faster than virtual threads '
                    '(wall time)', ratio_cell(r), verdict(None if r is None else r < 1.0)))

# Issue 12's compute+sleep workload (ComputeSleepThreads and ComputeSleepVirtualThreads, alternating JVMs).
out.append('## Thread-per-task compute+sleep\n')
out.append('2,000 threads, each computing about 2.5 ms and sleeping 1 ms, twice; three runs in each JVM, two JVMs of '
           'each runtime, alternating (`java -cp benchmarks.jar org.picothreads.benchmarks.pico.ComputeSleepThreads '
           '2000 2 5`, rewritten by the plugin, and `...jdk.ComputeSleepVirtualThreads 2000 2 5`, virtual threads on '
           'the default scheduler). Each JVM\'s first run warms it up and is left out; the table gives the medians '
           'of the others. Target: PicoThreads\' wall time at most 1.10× virtual threads\'.\n')
compute_runs = {'pico': [], 'virtual': []}
compute_checksums = {'pico': set(), 'virtual': set()}
for line in read('compute-sleep.txt').splitlines():
    match = re.match(r'(pico|virtual) run (\d+) wall_ms (\d+) cpu_ms (\d+) checksum (-?\d+)', line)
    if match:
        side = match.group(1)
        compute_checksums[side].add(match.group(5))
        if match.group(2) != '0':
            compute_runs[side].append((int(match.group(3)), int(match.group(4))))


def compute_cell(side, index):
    return median([run[index] for run in compute_runs[side]])


compute_agree = (len(compute_checksums['pico']) == 1 and compute_checksums['pico'] == compute_checksums['virtual'])
rows = []
for label, index in [('wall time per run (ms)', 0), ('process CPU time per run (ms)', 1)]:
    pico, virtual = compute_cell('pico', index), compute_cell('virtual', index)
    rows.append([label, fmt(pico), fmt(virtual), ratio_cell(pico / virtual if pico and virtual else None)])
out.append(table(['', 'PicoThreads', 'virtual threads', 'Pico / virtual'], rows))
out.append('Every run\'s checksum of the threads\' results: ' + ('the same on both runtimes.\n' if compute_agree else
           'NOT the same on both runtimes: ' + str(compute_checksums) + '.\n'))
pico_wall, virtual_wall = compute_cell('pico', 0), compute_cell('virtual', 0)
r = pico_wall / virtual_wall if pico_wall and virtual_wall else None
targets.append(('compute+sleep, 2,000 threads: wall time at most 1.10× virtual threads\' (and the same results)',
                ratio_cell(r), verdict(None if r is None else r <= 1.10 and compute_agree)))

# Piranha: the paper's Figures 3 and 4 (piranha.jar --figures, each point a crawl in a JVM of its own).
figures_dir = os.path.join(results_dir, 'piranha')
try:
    figures = json.load(open(os.path.join(figures_dir, 'figures.json')))
except (OSError, ValueError):
    figures = None
out.append('## 7. Piranha: the paper\'s Figures 3 and 4\n')
if figures is None:
    out.append('No results (`piranha.jar --figures` did not run).\n')
else:
    web = figures['web']
    rate = 'unthrottled' if web['rate'] == 0 else f"{web['rate']:,} bytes/s"
    out.append(f"`piranha.jar --figures` ({read('piranha-command.txt').strip() or 'see run.sh'}): every point is a "
               f"crawl of the whole synthetic web ({web['pages']:,} pages, {web['links']} links per page, "
               f"{web['hosts']} hosts, {rate} per connection after {web['latency']} ms) in a JVM of its own, after "
               'crawling the same web again and again for the warm-up\'s seconds, against a web server in another '
               'JVM; throughput is body bytes over the crawl\'s '
               'time (to the time limit when it did not finish). See [piranha.md](piranha.md) for the method.\n')
    points = figures['points']
    for name in ('figure3.svg', 'figure4.svg'):
        source = os.path.join(figures_dir, name)
        if os.path.exists(source):
            with open(source) as src, open(os.path.join(report_dir, 'benchmarks-piranha-' + name), 'w') as dst:
                dst.write(src.read())
    def kbs(point):
        return point['kilobytesPerSecond']
    def done(point):
        return '' if point['finished'] else ' (time limit)'
    three = [p for p in points if p['figure'] == 3]
    out.append(f"**Figure 3**, the thread pool (queue of 1,000, overflow discarded) on pages of "
               f"{three[0]['pageSize'] if three else 'n/a'}, against one thread per URL:\n")
    rows = [[f"pool of {p['poolSize']}", fmt(kbs(p)) + done(p), p['pages'], p['discarded'], fmt(p['cpuSeconds'])]
            for p in three if p['mode'] == 'pool']
    rows += [[p['mode'] + ' (one thread per URL)', fmt(kbs(p)) + done(p), p['pages'], p['discarded'],
              fmt(p['cpuSeconds'])] for p in three if p['mode'] != 'pool']
    out.append(table(['crawler', 'KB/s', 'pages', 'URLs discarded', 'crawler CPU s'], rows))
    out.append('\n![Figure 3](benchmarks-piranha-figure3.svg)\n')
    four = [p for p in points if p['figure'] == 4]
    sizes = []
    for p in four:
        if p['pageSize'] not in sizes:
            sizes.append(p['pageSize'])
    four_rounds = max([p.get('round', 1) for p in four] or [1])
    if four_rounds > 1:
        out.append(f'**Figure 4**, one thread per URL, a web of pages of one size per size: {four_rounds} crawls in '
                   'each mode, the modes\' order rotating from one round to the next; the table gives each mode\'s '
                   'crawl of median throughput, and the range of all its crawls:\n')
    else:
        out.append('**Figure 4**, one thread per URL, one crawl of a web of pages of one size per size and mode:\n')
    def median_crawl(crawls):
        ordered = sorted(crawls, key=kbs)
        return ordered[(len(ordered) - 1) // 2] if ordered else None
    def kbs_cell(p, crawls):
        if not p:
            return 'n/a'
        spread = f' ({fmt(min(map(kbs, crawls)))}-{fmt(max(map(kbs, crawls)))})' if len(crawls) > 1 else ''
        return fmt(kbs(p)) + done(p) + spread
    rows = []
    for size in sizes:
        crawls_by_mode = {}
        for p in four:
            if p['pageSize'] == size:
                crawls_by_mode.setdefault(p['mode'], []).append(p)
        by_mode = {mode: median_crawl(crawls) for mode, crawls in crawls_by_mode.items()}
        pico, platform, virtual = by_mode.get('pico'), by_mode.get('platform'), by_mode.get('virtual')
        def r(a, b):
            return ratio_cell(kbs(a) / kbs(b)) if a and b and kbs(b) > 0 else 'n/a'
        rows.append([size] + [kbs_cell(by_mode.get(mode), crawls_by_mode.get(mode, []))
                              for mode in ('pico', 'platform', 'virtual')]
                    + [r(pico, platform), r(pico, virtual),
                       f"{pico['busiestThreadCpuSeconds'] / pico['seconds']:.0%}" if pico else 'n/a'])
        if pico and platform:
            targets.append((f'Piranha, {size} pages: PicoThreads ahead of one platform thread per URL (the paper saw 3-15×)',
                            r(pico, platform), verdict(kbs(pico) > kbs(platform))))
        if pico and virtual:
            targets.append((f'Piranha, {size} pages: PicoThreads at least level with virtual threads',
                            r(pico, virtual), verdict(kbs(pico) >= kbs(virtual))))
    out.append(table(['page size', 'pico KB/s', 'platform KB/s', 'virtual KB/s', 'pico / platform',
                      'pico / virtual', 'pico carrier busy'], rows))
    out.append('\n![Figure 4](benchmarks-piranha-figure4.svg)\n')

out.append('\n## Targets\n')
out.append(table(['target', 'measured ratio', 'verdict'], [list(t) for t in targets]))
notes = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'report-notes.md')
if os.path.exists(notes):
    out.append('\n' + open(notes).read().strip())
with open(report_file, 'w') as handle:
    handle.write('\n'.join(out) + '\n')
