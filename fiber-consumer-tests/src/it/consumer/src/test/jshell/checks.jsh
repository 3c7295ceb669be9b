// Fiber from jshell: a target class from the class path runs in a child JVM; a lambda typed here is refused at
// once, saying why, since no other JVM can load the class jshell made for it. Exits 0 only when both checks
// passed: a snippet that does not compile is skipped by jshell, so passes are counted, not failures.
import io.fiberjvm.Fiber;
import io.fiberjvm.FiberProcess;
import java.time.Duration;

int passed = 0;
try (Fiber fiber = Fiber.open()) {
    FiberProcess greeter = fiber.process(org.example.consumer.Greeter.class).name("greeter").start().block(Duration.ofMinutes(2));
    greeter.join().block(Duration.ofMinutes(2));
    String line = greeter.logs().filter(l -> l.startsWith("hello from")).next().block(Duration.ofMinutes(2));
    if ("hello from a Greeter in a child JVM".equals(line)) {
        System.out.println("consumer under jshell: a target class ran");
        passed++;
    } else {
        System.out.println("FAILED: the Greeter's output was " + line);
    }
    try {
        fiber.process(() -> System.out.println("typed")).name("typed").start().block(Duration.ofMinutes(2));
        System.out.println("FAILED: a lambda typed into jshell was started");
    } catch (RuntimeException refused) {
        if (String.valueOf(refused.getMessage()).contains("typed into jshell")) {
            System.out.println("consumer under jshell: a typed lambda was refused: " + refused.getMessage());
            passed++;
        } else {
            System.out.println("FAILED: a typed lambda failed otherwise: " + refused);
        }
    }
} catch (Throwable t) {
    System.out.println("FAILED: " + t);
}
/exit passed == 2 ? 0 : 1
