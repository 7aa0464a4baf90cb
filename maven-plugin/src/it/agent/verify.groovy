// The same unchanged program runs on platform threads without the agent and on PicoThreads with it.
def java = new File(System.getProperty('java.home'), 'bin/java').path
def jar = new File(basedir, 'target/agent-1.0.jar').path
assert new File(agentJar).isFile() : "build pico-transform first: no ${agentJar}"

def run = { List<String> command ->
    def process = command.execute()
    def output = new StringBuilder()
    def errors = new StringBuilder()
    process.waitForProcessOutput(output, errors)
    assert process.exitValue() == 0 : errors
    [output.toString().trim(), errors.toString().trim()]
}

def (plain, plainErrors) = run([java, '-cp', jar, 'example.Sleepers', '100', '100'])
assert plain == 'woke 100 of 100, thread classes [java.lang.Thread], peak platform threads ' + plain.substring(plain.lastIndexOf(' ') + 1)

def report = new File(basedir, 'target/agent-report.json')
def (rewritten, rewrittenErrors) = run([java, "-javaagent:${agentJar}=includes=example.*;report=${report.path};verbose".toString(),
        '-cp', jar, 'example.Sleepers', '20000', '300'])
assert rewritten == 'woke 20000 of 20000, thread classes [org.picothreads.runtime.PicoThread], peak platform threads under 50'
assert rewrittenErrors == 'pico-agent: rewrote 1 of 1 class from the class path (2 methods)' : rewrittenErrors
assert report.text.contains('"className": "example/Sleepers"')

// A program that uses java.io's decorators and no socket needs nothing beyond the agent jar; run twice, the second
// time with its class from the agent's cache (kept under target/, not the user's cache directory).
def cache = new File(basedir, 'target/agent-cache')
for (attempt in 1..2) {
    def (streams, streamsErrors) = run([java, "-javaagent:${agentJar}=includes=streams.*;cache=${cache.path}".toString(),
            '-cp', jar, 'streams.Streams', '100'])
    assert streams == 'line 0/line 1 0; total 49500 on org.picothreads.runtime.PicoThread'
    assert streamsErrors == ''
}

// A malformed option ends the JVM before main with one line and exit code 1, not a native abort.
def wrong = [java, "-javaagent:${agentJar}=include=example.*".toString(), '-cp', jar, 'example.Sleepers', '1', '1'].execute()
def wrongOutput = new StringBuilder()
def wrongErrors = new StringBuilder()
wrong.waitForProcessOutput(wrongOutput, wrongErrors)
assert wrong.exitValue() == 1 : wrongErrors
assert wrongOutput.toString() == ''
assert wrongErrors.toString().trim().readLines().size() == 1 : wrongErrors
assert wrongErrors.toString().startsWith("pico-agent: 'include=example.*' is not an option; the options are")
true
