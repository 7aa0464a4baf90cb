// The help goal lists the plugin's goals and, with -Ddetail, each goal's options with their properties.
def log = new File(basedir, 'build.log').text
assert log.contains('pico-maven-plugin:') && log.contains(':help')
assert log.contains('This plugin has 3 goals:')
['pico:help', 'pico:transform', 'pico:transform-test'].each { goal ->
    assert log.contains(goal) : "the help lists the goal ${goal}"
}
['includes', 'excludes', 'failOnPinned', 'rewriteDependencies', 'skip', 'scheduler', 'seed', 'carriers',
 'reportFile', 'testReportFile'].each { option ->
    assert log.contains("  ${option}") : "the help lists the option ${option}"
}
assert log.contains('User property: pico.failOnPinned')
assert log.contains('BUILD SUCCESS')
true
