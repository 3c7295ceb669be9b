// Quiet by default: at the default level of the program's binding (slf4j-simple logs INFO and above), nothing but
// the program's own output and WARN or ERROR lines; Fiber, Reactor and Netty log nothing at INFO or below.
def chatty = new File(basedir, 'build.log').readLines().findAll { it ==~ /^\[[^\]]+\] (TRACE|DEBUG|INFO) .*/ }
assert chatty.isEmpty() : "logged below WARN at the default level:\n" + chatty.take(10).join("\n")
def ran = new File(basedir, 'build.log').readLines().findAll { it.startsWith('consumer under ') }
assert ran.size() == 8 : "expected the program to report under 8 launchers, got:\n" + ran.join("\n")
