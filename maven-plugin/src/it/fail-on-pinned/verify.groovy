// The build failed, naming the class, method, line and target of the call site, and wrote no class back.
def log = new File(basedir, 'build.log').text
assert log.contains('call site blocks in place, pinning its thread, instead of suspending (failOnPinned is set)')
assert log =~ /example\.Pinned\.<init>\(\)V line 8: calls \S+\.sleep\(J\)V: in a constructor/
assert !new File(basedir, 'target/pico/transform-state').exists()
true
