// Only example.Modern was chosen; example.legacy.Legacy is neither rewritten nor in the report.
def log = new File(basedir, 'build.log').text
assert log.contains('PicoThreads: rewrote 1 of 1 class')
assert log.contains('Tests run: 2, Failures: 0, Errors: 0, Skipped: 0')
def report = new File(basedir, 'target/pico/transform-report.json').text
assert report.contains('"className": "example/Modern"')
assert !report.contains('Legacy')
true
