// The project set up as docs/maven-plugin.md says, without pico-net, builds and passes its test on PicoThreads, and
// its rewritten program runs with pico-runtime alone on the class path.
def log = new File(basedir, 'build.log').text
assert log.contains('PicoThreads: rewrote 1 of 1 class')
assert log.contains('Tests run: 1, Failures: 0, Errors: 0, Skipped: 0')

def java = new File(System.getProperty('java.home'), 'bin/java').path
def classPath = new File(basedir, 'target/classes').path + File.pathSeparator + runtimeJar
def process = [java, '-cp', classPath, 'example.Streams', '100'].execute()
def output = new StringBuilder()
def errors = new StringBuilder()
process.waitForProcessOutput(output, errors)
assert process.exitValue() == 0 : errors
assert output.toString().trim() == 'line 0/line 1 0; total 49500 on org.picothreads.runtime.PicoThread'
true
