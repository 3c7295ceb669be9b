package io.fiberjvm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class RemoteExceptionTest {

	private static RemoteException roundTrip(Throwable t) {
		return RemoteException.decode(RemoteException.encode(t));
	}

	private static void assertSameFrames(StackTraceElement[] actual, StackTraceElement[] expected) {
		assertThat(actual).hasSameSizeAs(expected);
		for (int i = 0; i < expected.length; i++) {
			assertThat(actual[i].getClassName()).isEqualTo(expected[i].getClassName());
			assertThat(actual[i].getMethodName()).isEqualTo(expected[i].getMethodName());
			assertThat(actual[i].getFileName()).isEqualTo(expected[i].getFileName());
			assertThat(actual[i].getLineNumber()).isEqualTo(expected[i].getLineNumber());
		}
	}

	@Test
	void typeMessageAndStackTraceSurvive() {
		IllegalStateException original = new IllegalStateException("disk on fire");

		RemoteException back = roundTrip(original);

		assertThat(back).isInstanceOf(FiberException.class);
		assertThat(back.remoteType()).isEqualTo("java.lang.IllegalStateException");
		assertThat(back.remoteMessage()).isEqualTo("disk on fire");
		assertThat(back.getMessage()).isEqualTo("java.lang.IllegalStateException: disk on fire");
		assertThat(back.getStackTrace()).isNotEmpty();
		assertSameFrames(back.getStackTrace(), original.getStackTrace());
		assertThat(back.getStackTrace()[0].getMethodName()).isEqualTo("typeMessageAndStackTraceSurvive");
		assertThat(back.getCause()).isNull();
	}

	@Test
	void theCauseChainSurvivesInOrder() {
		IOException root = new IOException("no space left");
		UncheckedIOException middle = new UncheckedIOException("write failed", root);
		RuntimeException top = new RuntimeException("task failed", middle);

		RemoteException back = roundTrip(top);

		assertThat(back.remoteType()).isEqualTo("java.lang.RuntimeException");
		assertThat(back.remoteMessage()).isEqualTo("task failed");
		assertThat(back.getCause()).isInstanceOf(RemoteException.class);
		RemoteException c1 = (RemoteException) back.getCause();
		assertThat(c1.remoteType()).isEqualTo("java.io.UncheckedIOException");
		assertThat(c1.remoteMessage()).isEqualTo("write failed");
		assertSameFrames(c1.getStackTrace(), middle.getStackTrace());
		RemoteException c2 = (RemoteException) c1.getCause();
		assertThat(c2.remoteType()).isEqualTo("java.io.IOException");
		assertThat(c2.remoteMessage()).isEqualTo("no space left");
		assertSameFrames(c2.getStackTrace(), root.getStackTrace());
		assertThat(c2.getCause()).isNull();
	}

	@Test
	void aNullMessageStaysNull() {
		RemoteException back = roundTrip(new NullPointerException());
		assertThat(back.remoteType()).isEqualTo("java.lang.NullPointerException");
		assertThat(back.remoteMessage()).isNull();
		assertThat(back.getMessage()).isEqualTo("java.lang.NullPointerException");
	}

	@Test
	void framesWithoutFileOrLineSurvive() {
		Exception e = new Exception("synthetic");
		e.setStackTrace(new StackTraceElement[] {
				new StackTraceElement("com.acme.Native", "call", null, -2),
				new StackTraceElement("com.acme.Unknown", "run", "Unknown.java", -1),
				new StackTraceElement("com.acme.Known", "main", "Known.java", 42),
		});

		RemoteException back = roundTrip(e);

		assertSameFrames(back.getStackTrace(), e.getStackTrace());
		assertThat(back.getStackTrace()[0].isNativeMethod()).isTrue();
	}

	@Test
	void anEmptyStackTraceSurvives() {
		Exception e = new Exception("no trace");
		e.setStackTrace(new StackTraceElement[0]);
		assertThat(roundTrip(e).getStackTrace()).isEmpty();
	}

	@Test
	void aRemoteExceptionReEncodedKeepsItsRemoteTypeNotItsOwn() {
		RemoteException once = roundTrip(new IllegalArgumentException("bad input", new ArithmeticException("/ by zero")));

		RemoteException twice = roundTrip(once);

		assertThat(twice.remoteType()).isEqualTo("java.lang.IllegalArgumentException");
		assertThat(twice.remoteMessage()).isEqualTo("bad input");
		assertSameFrames(twice.getStackTrace(), once.getStackTrace());
		assertThat(((RemoteException) twice.getCause()).remoteType()).isEqualTo("java.lang.ArithmeticException");
	}

	@Test
	void messagesWithSpecialCharactersSurvive() {
		String message = "line one\nline two \"quoted\" \\ back slash, tab\t, unicode ✓ and {json: [1]}";
		assertThat(roundTrip(new RuntimeException(message)).remoteMessage()).isEqualTo(message);
	}

	@Test
	void aCyclicCauseChainIsCutNotFollowedForever() {
		RuntimeException a = new RuntimeException("a");
		RuntimeException b = new RuntimeException("b");
		a.initCause(b);
		b.initCause(a);

		RemoteException back = roundTrip(a);

		int length = 0;
		List<String> messages = new ArrayList<>();
		for (Throwable t = back; t != null; t = t.getCause()) {
			messages.add(((RemoteException) t).remoteMessage());
			length++;
			assertThat(length).isLessThan(100);
		}
		assertThat(messages).startsWith("a", "b", "a", "b");
	}

	@Test
	void aVeryLongCauseChainIsBounded() {
		Throwable t = new RuntimeException("0");
		for (int i = 1; i < 50; i++) {
			t = new RuntimeException(Integer.toString(i), t);
		}
		RemoteException back = roundTrip(t);
		int length = 0;
		for (Throwable c = back; c != null; c = c.getCause()) {
			length++;
		}
		assertThat(back.remoteMessage()).isEqualTo("49");
		assertThat(length).isBetween(2, 49);
	}

	@Test
	void encodedTextIsMarked() {
		assertThat(RemoteException.encode(new RuntimeException("x"))).startsWith("fiber-remote-error:");
	}

	@ParameterizedTest
	@ValueSource(strings = {"plain text from a peer", "", "fiber-remote-error:", "fiber-remote-error:{not json",
			"fiber-remote-error:[1,2,3]", "java.lang.IllegalStateException: looks like one"})
	void textThatIsNotAnEncodedErrorIsKeptAsTheMessageOfAnUnknownType(String text) {
		RemoteException back = RemoteException.decode(text);
		assertThat(back.remoteType()).isEqualTo("unknown");
		assertThat(back.remoteMessage()).isEqualTo(text);
		assertThat(back.getMessage()).contains(text);
		assertThat(back.getStackTrace()).isEmpty();
		assertThat(back.getCause()).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = {
			"fiber-remote-error:{\"type\":\"x.Y\",\"message\":\"m\",\"trace\":[[\"a\"]]}",
			"fiber-remote-error:{\"type\":\"x.Y\",\"message\":\"m\",\"trace\":[[\"a\",\"b\",\"c\",\"not a number\"]]}",
			"fiber-remote-error:{\"type\":\"x.Y\",\"message\":\"m\",\"trace\":[[null,null,null,\"1\"]]}",
	})
	void aMarkedButMalformedErrorIsKeptAsTextRatherThanThrown(String text) {
		RemoteException back = RemoteException.decode(text);
		assertThat(back.remoteType()).isEqualTo("unknown");
		assertThat(back.remoteMessage()).isEqualTo(text);
	}

	@Test
	void nullTextDecodesToAnUnknownErrorWithoutMessage() {
		RemoteException back = RemoteException.decode(null);
		assertThat(back.remoteType()).isEqualTo("unknown");
		assertThat(back.remoteMessage()).isNull();
	}

	@Test
	void aHandWrittenEncodingWithoutTraceDecodes() {
		RemoteException back = RemoteException.decode("fiber-remote-error:{\"type\":\"com.acme.Oops\",\"message\":\"m\"}");
		assertThat(back.remoteType()).isEqualTo("com.acme.Oops");
		assertThat(back.remoteMessage()).isEqualTo("m");
		assertThat(back.getStackTrace()).isEmpty();
	}
}
