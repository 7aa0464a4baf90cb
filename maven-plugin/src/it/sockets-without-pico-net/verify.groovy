// Builds 1 and 2 (rewriting, then with nothing left to rewrite) each name the class that uses sockets in one warning,
// and the test passes on PicoThreads with the JDK's sockets; build 3 (failOnPinned) fails with the same message. The
// test class, which uses no socket type itself, is not named. The rewritten program runs with pico-runtime alone.
def log = new File(basedir, 'build.log').text
def warning = 'PicoThreads: example.Greeting uses sockets, but pico-net is not on the classpath: its socket calls' +
        ' block the carrier thread, and every PicoThread waits with them; add the dependency org.picothreads:pico-net'
assert log.contains('PicoThreads: rewrote 1 of 1 class')
assert log.contains('PicoThreads: nothing to rewrite, 1 class up to date')
assert log.contains('Tests run: 1, Failures: 0, Errors: 0, Skipped: 0')
assert log.readLines().count { it == '[WARNING] ' + warning } == 2
assert log.contains(warning + ' (failOnPinned is set)')
assert !log.contains('PicoThreads: example.GreetingTest uses sockets')

def java = new File(System.getProperty('java.home'), 'bin/java').path
def classPath = new File(basedir, 'target/classes').path + File.pathSeparator + runtimeJar
def process = [java, '-cp', classPath, 'example.Greeting'].execute()
def output = new StringBuilder()
def errors = new StringBuilder()
process.waitForProcessOutput(output, errors)
assert process.exitValue() == 0 : errors
assert output.toString().trim() == 'hello from org.picothreads.runtime.PicoThread'
true
