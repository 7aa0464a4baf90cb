// The first build rewrote, wrote the scheduling defaults and tested; the second rewrote nothing. The rewritten main
// program also runs alone.
def log = new File(basedir, 'build.log').text
assert log.contains('PicoThreads: rewrote 1 of 1 class')
assert log.contains('PicoThreads: nothing to rewrite, 1 class up to date')
assert log.contains('Tests run: 2, Failures: 0, Errors: 0, Skipped: 0')
assert new File(basedir, 'target/pico/transform-report.json').text.contains('"className": "example/Sleepers"')
def defaults = new File(basedir, 'target/classes/META-INF/picothreads.properties').text
assert defaults.contains('scheduler=lifo') && defaults.contains('carriers=3') : defaults
// Written by the first build only: the second finds the same text.
assert log.count('PicoThreads: wrote the scheduling defaults (scheduler lifo, carriers 3) to') == 1

def java = new File(System.getProperty('java.home'), 'bin/java').path
def classPath = new File(basedir, 'target/classes').path + File.pathSeparator + runtimeJar
def process = [java, '-cp', classPath, 'example.Sleepers', '20000', '300'].execute()
def output = new StringBuilder()
def errors = new StringBuilder()
process.waitForProcessOutput(output, errors)
assert process.exitValue() == 0 : errors
assert output.toString().trim() == 'woke 20000 of 20000, thread classes [org.picothreads.runtime.PicoThread], peak platform threads under 50'
true
