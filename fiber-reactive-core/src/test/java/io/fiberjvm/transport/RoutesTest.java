package io.fiberjvm.transport;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.test.publisher.TestPublisher;

import io.fiberjvm.codec.Codec;
import io.fiberjvm.codec.CodecException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link Routes} on its own: handlers are called directly, no connection is involved. */
class RoutesTest {

	record Point(int x, int y) implements java.io.Serializable {
	}

	private final Codec codec = Codec.standard();

	private static byte[] utf8(String s) {
		return s.getBytes(StandardCharsets.UTF_8);
	}

	private static String text(byte[] b) {
		return new String(b, StandardCharsets.UTF_8);
	}

	private static final byte[] GARBAGE = {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef};

	// ---- raw handlers -------------------------------------------------------------------

	@Test
	void rawRequestResponse() {
		Routes routes = Routes.empty().withResponse("upper", bytes -> Mono.just(utf8(text(bytes).toUpperCase())));
		StepVerifier.create(routes.requestResponse("upper", utf8("abc")).map(RoutesTest::text))
				.expectNext("ABC")
				.verifyComplete();
	}

	@Test
	void rawRequestStream() {
		Routes routes = Routes.empty().withStream("chars", bytes -> Flux.fromArray(text(bytes).split("")).map(RoutesTest::utf8));
		StepVerifier.create(routes.requestStream("chars", utf8("xyz")).map(RoutesTest::text))
				.expectNext("x", "y", "z")
				.verifyComplete();
	}

	@Test
	void rawRequestChannel() {
		Routes routes = Routes.empty().withChannel("reverse",
				in -> in.map(b -> utf8(new StringBuilder(text(b)).reverse().toString())));
		StepVerifier.create(routes.requestChannel("reverse", Flux.just(utf8("ab"), utf8("cd"))).map(RoutesTest::text))
				.expectNext("ba", "dc")
				.verifyComplete();
	}

	@Test
	void aChannelsReaderReadsEachDatumHandedOverAsAnArrayAndItsHandlerNamesIt() {
		// Reads a datum as its length, from the runs it is given.
		InboundReader<Integer> lengths = size -> new InboundAssembly<>() {
			private int taken;

			@Override
			public void take(java.nio.ByteBuffer bytes) {
				assertThat(bytes.isReadOnly()).isTrue();
				taken += bytes.remaining();
				bytes.position(bytes.limit());
			}

			@Override
			public Integer end() {
				assertThat(taken).isEqualTo(size);
				return taken;
			}
		};
		Routes routes = Routes.empty().withChannel("lengths", lengths, in -> in.map(n -> utf8("" + n)))
				.withChannels("raw/", (rest, in) -> in.map(b -> utf8(rest + text(b))));
		StepVerifier.create(routes.requestChannel("lengths", Flux.just(utf8("abc"), new byte[0], utf8("hello"))).map(RoutesTest::text))
				.expectNext("3", "0", "5")
				.verifyComplete();
		assertThat(routes.channel("lengths").reader()).isSameAs(lengths);
		StepVerifier.create(Flux.from(routes.channel("raw/x").answerArrays(Flux.just(utf8("y")))).map(RoutesTest::text))
				.expectNext("xy")
				.verifyComplete();
		StepVerifier.create(routes.channel("nowhere").answer(Flux.never()))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(UnknownRouteException.class).hasMessageContaining("'nowhere'"))
				.verify();
	}

	@Test
	void theArrayReaderRefusesMoreOrFewerBytesThanItsSize() {
		InboundAssembly<byte[]> three = InboundReader.bytes().begin(3);
		three.take(java.nio.ByteBuffer.wrap(new byte[] {1, 2}));
		assertThatThrownBy(three::end).isInstanceOf(IllegalStateException.class).hasMessage("a datum of 3 bytes ended after 2");
		assertThatThrownBy(() -> three.take(java.nio.ByteBuffer.wrap(new byte[] {3, 4})))
				.isInstanceOf(IllegalStateException.class).hasMessage("a datum of 3 bytes was given 4");
		three.take(java.nio.ByteBuffer.wrap(new byte[] {3}));
		assertThat(three.end()).containsExactly(1, 2, 3);
		assertThatThrownBy(() -> InboundReader.bytes().begin(-1)).isInstanceOf(IllegalArgumentException.class);
	}

	@Test
	void aMappedReaderMapsEachDatumOnceItIsWhole() {
		InboundAssembly<Integer> sum = InboundReader.bytes().map(bytes -> bytes[0] + bytes[1] + bytes[2]).begin(3);
		sum.take(java.nio.ByteBuffer.wrap(new byte[] {1, 2}));
		assertThatThrownBy(sum::end).isInstanceOf(IllegalStateException.class).hasMessage("a datum of 3 bytes ended after 2");
		sum.take(java.nio.ByteBuffer.wrap(new byte[] {3}));
		assertThat(sum.end()).isEqualTo(6);
		assertThatThrownBy(() -> InboundReader.bytes().map(bytes -> bytes).begin(-1)).isInstanceOf(IllegalArgumentException.class);
	}

	@Test
	void rawFireAndForget() {
		List<String> seen = new CopyOnWriteArrayList<>();
		Routes routes = Routes.empty().withFireAndForget("log", bytes -> Mono.fromRunnable(() -> seen.add(text(bytes))));
		StepVerifier.create(routes.fireAndForget("log", utf8("hello"))).verifyComplete();
		assertThat(seen).containsExactly("hello");
	}

	// ---- typed handlers -----------------------------------------------------------------

	@Test
	void typedRequestResponseDecodesInputAndEncodesOutput() {
		Routes routes = Routes.empty().withResponse("swap", Point.class, p -> Mono.just(new Point(p.y(), p.x())));
		StepVerifier.create(routes.requestResponse("swap", codec.encode(new Point(1, 2))).map(b -> codec.decode(b, Point.class)))
				.expectNext(new Point(2, 1))
				.verifyComplete();
	}

	@Test
	void typedRequestStream() {
		Routes routes = Routes.empty().withStream("count", Integer.class, n -> Flux.range(0, n));
		StepVerifier.create(routes.requestStream("count", codec.encode(4)).map(b -> codec.decode(b, Integer.class)))
				.expectNext(0, 1, 2, 3)
				.verifyComplete();
	}

	@Test
	void typedRequestStreamHonoursDemand() {
		AtomicInteger produced = new AtomicInteger();
		Routes routes = Routes.empty().withStream("naturals", Integer.class,
				start -> Flux.range(start, 1_000_000).doOnNext(i -> produced.incrementAndGet()));
		StepVerifier.create(routes.requestStream("naturals", codec.encode(10)).map(b -> codec.decode(b, Integer.class)), 0)
				.expectSubscription()
				.thenRequest(2)
				.expectNext(10, 11)
				.thenCancel()
				.verify();
		assertThat(produced.get()).isEqualTo(2);
	}

	@Test
	void typedRequestChannel() {
		Routes routes = Routes.empty().withChannel("double", Integer.class, in -> in.map(i -> i * 2));
		Flux<byte[]> input = Flux.just(1, 2, 3).map(codec::encode);
		StepVerifier.create(routes.requestChannel("double", input).map(b -> codec.decode(b, Integer.class)))
				.expectNext(2, 4, 6)
				.verifyComplete();
	}

	@Test
	void typedFireAndForget() {
		List<Point> seen = new CopyOnWriteArrayList<>();
		Routes routes = Routes.empty().withFireAndForget("record", Point.class, p -> Mono.fromRunnable(() -> seen.add(p)));
		StepVerifier.create(routes.fireAndForget("record", codec.encode(new Point(7, 8)))).verifyComplete();
		assertThat(seen).containsExactly(new Point(7, 8));
	}

	@Test
	void typedHandlersUseTheTablesCodec() {
		AtomicInteger encodes = new AtomicInteger();
		Codec counting = new Codec() {
			@Override
			public byte[] encode(Object value) {
				encodes.incrementAndGet();
				return Codec.standard().encode(value);
			}

			@Override
			public <T> T decode(byte[] bytes, Class<T> type) {
				return Codec.standard().decode(bytes, type);
			}
		};
		Routes routes = Routes.empty(counting).withResponse("id", String.class, Mono::just);
		StepVerifier.create(routes.requestResponse("id", codec.encode("x"))).expectNextCount(1).verifyComplete();
		assertThat(encodes).hasValue(1);
		assertThatThrownBy(() -> Routes.empty(null)).isInstanceOf(NullPointerException.class);
	}

	@Test
	void anEmptyTypedResponseIsAnEmptyResponse() {
		Routes routes = Routes.empty().withResponse("nothing", String.class, s -> Mono.empty());
		StepVerifier.create(routes.requestResponse("nothing", codec.encode("x"))).verifyComplete();
	}

	@Test
	void handlerErrorsReachTheRequester() {
		Routes routes = Routes.empty()
				.withResponse("boom", String.class, s -> Mono.error(new IllegalStateException("boom: " + s)))
				.withStream("boomStream", String.class, s -> Flux.concat(Flux.just("ok"), Flux.error(new IllegalStateException(s))))
				.withResponse("throws", String.class, s -> {
					throw new IllegalArgumentException("thrown: " + s);
				});
		StepVerifier.create(routes.requestResponse("boom", codec.encode("x")))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(IllegalStateException.class).hasMessage("boom: x"))
				.verify();
		StepVerifier.create(routes.requestStream("boomStream", codec.encode("late")).map(b -> codec.decode(b, String.class)))
				.expectNext("ok")
				.expectErrorMessage("late")
				.verify();
		StepVerifier.create(routes.requestResponse("throws", codec.encode("y")))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(IllegalArgumentException.class).hasMessage("thrown: y"))
				.verify();
	}

	@Test
	void handlersRunOnlyOnSubscription() {
		AtomicInteger calls = new AtomicInteger();
		Routes routes = Routes.empty()
				.withResponse("r", bytes -> {
					calls.incrementAndGet();
					return Mono.just(bytes);
				})
				.withResponse("typed", String.class, s -> {
					calls.incrementAndGet();
					return Mono.just(s);
				});
		Mono<byte[]> raw = routes.requestResponse("r", utf8("x"));
		Mono<byte[]> typed = routes.requestResponse("typed", codec.encode("x"));
		assertThat(calls).hasValue(0);
		StepVerifier.create(raw).expectNextCount(1).verifyComplete();
		StepVerifier.create(typed).expectNextCount(1).verifyComplete();
		assertThat(calls).hasValue(2);
	}

	// ---- unknown routes -----------------------------------------------------------------

	@Test
	void unknownRoutesErrorNamingTheRouteModelAndKnownRoutes() {
		Routes routes = Routes.empty()
				.withResponse("alpha", b -> Mono.just(b))
				.withResponse("beta", b -> Mono.just(b))
				.withStream("gamma", b -> Flux.just(b))
				.withChannel("delta", in -> in)
				.withFireAndForget("epsilon", b -> Mono.empty());

		StepVerifier.create(routes.requestResponse("nope", new byte[0]))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(UnknownRouteException.class)
						.hasMessageContaining("'nope'").hasMessageContaining("request-response")
						.hasMessageContaining("alpha").hasMessageContaining("beta"))
				.verify();
		StepVerifier.create(routes.requestStream("nope", new byte[0]))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(UnknownRouteException.class)
						.hasMessageContaining("'nope'").hasMessageContaining("request-stream").hasMessageContaining("gamma"))
				.verify();
		StepVerifier.create(routes.requestChannel("nope", Flux.empty()))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(UnknownRouteException.class)
						.hasMessageContaining("'nope'").hasMessageContaining("request-channel").hasMessageContaining("delta"))
				.verify();
		StepVerifier.create(routes.fireAndForget("nope", new byte[0]))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(UnknownRouteException.class)
						.hasMessageContaining("'nope'").hasMessageContaining("fire-and-forget").hasMessageContaining("epsilon"))
				.verify();
	}

	@Test
	void aRouteIsOnlyKnownInItsOwnModel() {
		Routes routes = Routes.empty().withResponse("only-response", b -> Mono.just(b));
		StepVerifier.create(routes.requestStream("only-response", new byte[0]))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(UnknownRouteException.class)
						.hasMessageContaining("'only-response'"))
				.verify();
	}

	@Test
	void theEmptyTableAndRouterNoneKnowNothing() {
		StepVerifier.create(Routes.empty().requestResponse("x", new byte[0])).expectError(UnknownRouteException.class).verify();
		StepVerifier.create(Router.none().requestResponse("x", new byte[0])).expectError(UnknownRouteException.class).verify();
		StepVerifier.create(Router.none().fireAndForget("x", new byte[0])).expectError(UnknownRouteException.class).verify();
	}

	// ---- undecodable input --------------------------------------------------------------

	@Test
	void undecodableBytesAreACodecExceptionNamingTheRouteAndType() {
		Routes routes = Routes.empty()
				.withResponse("swap", Point.class, p -> Mono.just(p))
				.withStream("points", Point.class, p -> Flux.just(p))
				.withFireAndForget("sink", Point.class, p -> Mono.empty());

		StepVerifier.create(routes.requestResponse("swap", GARBAGE))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(CodecException.class)
						.hasMessageContaining("route 'swap'").hasMessageContaining(Point.class.getName()))
				.verify();
		StepVerifier.create(routes.requestStream("points", GARBAGE))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(CodecException.class)
						.hasMessageContaining("route 'points'").hasMessageContaining(Point.class.getName()))
				.verify();
		StepVerifier.create(routes.fireAndForget("sink", GARBAGE))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(CodecException.class)
						.hasMessageContaining("route 'sink'").hasMessageContaining(Point.class.getName()))
				.verify();
	}

	@Test
	void wrongTypeIsACodecExceptionNamingTheRoute() {
		Routes routes = Routes.empty().withResponse("swap", Point.class, p -> Mono.just(p));
		StepVerifier.create(routes.requestResponse("swap", codec.encode("not a point")))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(CodecException.class).hasMessageContaining("route 'swap'"))
				.verify();
	}

	@Test
	void anUndecodableChannelItemFailsTheChannelAfterTheGoodOnes() {
		Routes routes = Routes.empty().withChannel("double", Integer.class, in -> in.map(i -> i * 2));
		TestPublisher<byte[]> input = TestPublisher.create();

		StepVerifier.create(routes.requestChannel("double", input).map(b -> codec.decode(b, Integer.class)))
				.then(() -> input.next(codec.encode(21)))
				.expectNext(42)
				.then(() -> input.next(GARBAGE))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(CodecException.class)
						.hasMessageContaining("route 'double'").hasMessageContaining("java.lang.Integer"))
				.verify();
		input.assertCancelled();
	}

	// ---- registration -------------------------------------------------------------------

	@Test
	void registeringARouteTwiceInOneModelIsRefused() {
		Routes routes = Routes.empty()
				.withResponse("r", b -> Mono.just(b))
				.withStream("s", b -> Flux.just(b))
				.withChannel("c", in -> in)
				.withFireAndForget("f", b -> Mono.empty());

		assertThatThrownBy(() -> routes.withResponse("r", b -> Mono.just(b)))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'r'");
		assertThatThrownBy(() -> routes.withResponse("r", String.class, Mono::just))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'r'");
		assertThatThrownBy(() -> routes.withStream("s", b -> Flux.just(b)))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'s'");
		assertThatThrownBy(() -> routes.withStream("s", String.class, s -> Flux.just(s)))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'s'");
		assertThatThrownBy(() -> routes.withChannel("c", in -> in))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'c'");
		assertThatThrownBy(() -> routes.withChannel("c", String.class, in -> in))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'c'");
		assertThatThrownBy(() -> routes.withFireAndForget("f", b -> Mono.empty()))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'f'");
		assertThatThrownBy(() -> routes.withFireAndForget("f", String.class, s -> Mono.empty()))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'f'");
	}

	@Test
	void theSameNameMayServeDifferentModels() {
		Routes routes = Routes.empty()
				.withResponse("x", b -> Mono.just(utf8("response")))
				.withStream("x", b -> Flux.just(utf8("stream")));
		StepVerifier.create(routes.requestResponse("x", new byte[0]).map(RoutesTest::text)).expectNext("response").verifyComplete();
		StepVerifier.create(routes.requestStream("x", new byte[0]).map(RoutesTest::text)).expectNext("stream").verifyComplete();
	}

	@Test
	void badRegistrationsAreRefused() {
		Function<byte[], Mono<byte[]>> echo = Mono::just;
		assertThatThrownBy(() -> Routes.empty().withResponse("", echo)).isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> Routes.empty().withResponse(null, echo)).isInstanceOf(NullPointerException.class);
		assertThatThrownBy(() -> Routes.empty().withResponse("r", (Function<byte[], Mono<byte[]>>) null))
				.isInstanceOf(NullPointerException.class);
		assertThatThrownBy(() -> Routes.empty().withResponse("r", String.class, null)).isInstanceOf(NullPointerException.class);
	}

	@Test
	void withReturnsANewTableAndLeavesTheOldOneUnchanged() {
		Routes base = Routes.empty().withResponse("a", b -> Mono.just(utf8("a")));

		Routes withB = base.withResponse("b", b -> Mono.just(utf8("b")));
		Routes withS = base.withStream("s", b -> Flux.just(utf8("s")));
		Routes withC = base.withChannel("c", in -> in);
		Routes withF = base.withFireAndForget("f", b -> Mono.empty());

		assertThat(withB).isNotSameAs(base);
		StepVerifier.create(withB.requestResponse("b", new byte[0]).map(RoutesTest::text)).expectNext("b").verifyComplete();
		StepVerifier.create(withB.requestResponse("a", new byte[0]).map(RoutesTest::text)).expectNext("a").verifyComplete();
		StepVerifier.create(withS.requestStream("s", new byte[0])).expectNextCount(1).verifyComplete();
		StepVerifier.create(withC.requestChannel("c", Flux.just(new byte[0]))).expectNextCount(1).verifyComplete();
		StepVerifier.create(withF.fireAndForget("f", new byte[0])).verifyComplete();

		StepVerifier.create(base.requestResponse("b", new byte[0])).expectError(UnknownRouteException.class).verify();
		StepVerifier.create(base.requestStream("s", new byte[0])).expectError(UnknownRouteException.class).verify();
		StepVerifier.create(base.requestChannel("c", Flux.empty())).expectError(UnknownRouteException.class).verify();
		StepVerifier.create(base.fireAndForget("f", new byte[0])).expectError(UnknownRouteException.class).verify();
		StepVerifier.create(withS.requestResponse("b", new byte[0])).expectError(UnknownRouteException.class).verify();

		// Two tables built from one base are independent: both may add the same name.
		Routes other = base.withResponse("b", b -> Mono.just(utf8("other b")));
		StepVerifier.create(other.requestResponse("b", new byte[0]).map(RoutesTest::text)).expectNext("other b").verifyComplete();
		StepVerifier.create(withB.requestResponse("b", new byte[0]).map(RoutesTest::text)).expectNext("b").verifyComplete();
	}
}
