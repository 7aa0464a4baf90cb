// The shaded jar runs with java -jar alone: its rewritten classes find the runtime inside it.
def java = new File(System.getProperty('java.home'), 'bin/java').path
def jar = new File(basedir, 'target/executable-jar-1.0.jar')
assert jar.isFile()
def process = [java, '-jar', jar.path, '20000', '300'].execute()
def output = new StringBuilder()
def errors = new StringBuilder()
process.waitForProcessOutput(output, errors)
assert process.exitValue() == 0 : errors
assert output.toString().trim() == 'woke 20000 of 20000, thread classes [org.picothreads.runtime.PicoThread], peak platform threads under 50'
true
