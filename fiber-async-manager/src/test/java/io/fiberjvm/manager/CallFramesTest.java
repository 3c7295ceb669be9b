package io.fiberjvm.manager;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.codec.CodecException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CallFramesTest {

	@Test
	void callsAndAnswersRoundTrip() {
		CallFrames.Call call = new CallFrames.Call(CallFrames.CALL_MANY, 7, 3, "step", List.of("int"), List.of("com.acme.*"),
				Arrays.asList(new byte[] {1}, null));
		CallFrames.Call back = CallFrames.decodeCall(CallFrames.encode(call));
		assertThat(back.kind()).isEqualTo(CallFrames.CALL_MANY);
		assertThat(back.id()).isEqualTo(7);
		assertThat(back.object()).isEqualTo(3);
		assertThat(back.name()).isEqualTo("step");
		assertThat(back.parameterTypes()).containsExactly("int");
		assertThat(back.allow()).containsExactly("com.acme.*");
		assertThat(back.args().get(0)).containsExactly(1);
		assertThat(back.args().get(1)).isNull();
		CallFrames.Answer answer = CallFrames.decodeAnswer(CallFrames.encode(new CallFrames.Answer(7, true, null, new byte[] {2})));
		assertThat(answer.failed()).isTrue();
		assertThat(answer.allow()).isNull();
	}

	@Test
	void malformedFramesAreRefusedSayingWhatWasWrong() {
		byte[] good = CallFrames.encode(new CallFrames.Call(CallFrames.CALL, 1, 1, "m", List.of(), List.of(), List.of(new byte[8])));
		assertThatThrownBy(() -> CallFrames.decodeCall(Arrays.copyOf(good, good.length - 2)))
				.isInstanceOf(CodecException.class).hasMessageContaining("malformed manager call");
		byte[] unknown = good.clone();
		unknown[0] = 9;
		assertThatThrownBy(() -> CallFrames.decodeCall(unknown)).isInstanceOf(CodecException.class).hasMessageContaining("unknown call kind 9");
		assertThatThrownBy(() -> CallFrames.decodeAnswer(new byte[] {0, 1})).isInstanceOf(CodecException.class)
				.hasMessageContaining("malformed manager answer");
	}

	/** An async interface with a method that is neither Mono nor Flux. */
	interface Wrong {
		Mono<Integer> fine();

		String notAsync();
	}

	/** An implementation of {@link Wrong}'s names. */
	public static class WrongImpl {
		public int fine() {
			return 1;
		}

		public String notAsync() {
			return "";
		}

		public int items() {
			return 0;
		}
	}

	/** A Flux method whose implementation returns no sequence. */
	interface NotASequence {
		Flux<Integer> items();
	}

	@Test
	void registrationsAreCheckedAtOnce() {
		assertThatThrownBy(() -> Registration.check(Wrong.class, WrongImpl.class))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("method notAsync");
		assertThatThrownBy(() -> Registration.check(NotASequence.class, WrongImpl.class))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Iterable, an array or a Stream");
	}
}
