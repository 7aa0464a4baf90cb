// The library's class was unpacked into the application's output and rewritten there; the library jar is untouched.
def log = new File(basedir, 'build.log').text
assert log.contains('PicoThreads: unpacked 1 class of it.pico:library into')
assert log.contains('Tests run: 1, Failures: 0, Errors: 0, Skipped: 0')
assert new File(basedir, 'app/target/classes/example/library/Workers.class').exists()
assert new File(basedir, 'app/target/pico/transform-report.json').text.contains('"className": "example/library/Workers"')
true
