package io.fiberjvm.transport;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OutboundTest {

	@Test
	void anArrayIsItsOwnArrayAndWritesItself() {
		byte[] data = {1, 2, 3};
		Outbound outbound = Outbound.of(data);
		assertThat(outbound.size()).isEqualTo(3);
		assertThat(outbound.toArray()).isSameAs(data);
		ByteBuffer target = ByteBuffer.allocate(5).position(1);
		outbound.writeTo(target);
		assertThat(target.array()).containsExactly(0, 1, 2, 3, 0);
		assertThat(target.position()).isEqualTo(4);
	}

	@Test
	void aWrittenDatumMakesAnArrayOfWhatItWrites() {
		Outbound outbound = Outbound.of(2, target -> target.put((byte) 7).put((byte) 8));
		assertThat(outbound.toArray()).containsExactly(7, 8);
	}

	@Test
	void aLargeDatumIsWrittenIntoAnArrayAtOnceAndASmallOneOnlyWhenAsked() {
		int[] writes = new int[1];
		Outbound small = Outbound.of(Outbound.WRITTEN_LIMIT, target -> {
			writes[0]++;
			target.position(target.limit());
		});
		assertThat(writes[0]).isZero();
		assertThat(small.toArray()).hasSize(Outbound.WRITTEN_LIMIT);
		assertThat(writes[0]).isOne();
		Outbound large = Outbound.of(Outbound.WRITTEN_LIMIT + 1, target -> {
			writes[0]++;
			target.put(target.limit() - 1, (byte) 4).position(target.limit());
		});
		assertThat(writes[0]).isEqualTo(2);
		assertThat(large.toArray()).isSameAs(large.toArray()).endsWith(4);
		assertThat(writes[0]).isEqualTo(2);
	}

	@Test
	void aWrittenDatumLetsItsMakerKnowWhenTheTransportReleasesIt() {
		int[] released = new int[2];
		Outbound small = Outbound.of(1, target -> target.put((byte) 1), () -> released[0]++);
		Outbound large = Outbound.of(Outbound.WRITTEN_LIMIT + 1, target -> target.position(target.limit()), () -> released[1]++);
		assertThat(released).containsExactly(0, 0);
		small.released();
		large.released();
		assertThat(released).containsExactly(1, 1);
		Outbound plain = Outbound.of(1, target -> target.put((byte) 1));
		plain.released();
		assertThat(plain.toArray()).containsExactly(1);
	}

	@Test
	void aDatumThatWritesOtherThanItsSizeOrANegativeSizeIsRefused() {
		assertThatThrownBy(() -> Outbound.of(3, target -> target.put((byte) 1)).toArray())
				.isInstanceOf(IllegalStateException.class).hasMessage("a datum of 3 bytes wrote 1");
		assertThatThrownBy(() -> Outbound.of(1, target -> target.putInt(1)).toArray())
				.isInstanceOf(IllegalStateException.class).hasMessage("a datum of 1 bytes wrote more than its size");
		assertThatThrownBy(() -> Outbound.of(-1, target -> { })).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("-1");
		assertThatThrownBy(() -> Outbound.of(null)).isInstanceOf(NullPointerException.class).hasMessage("data");
		assertThatThrownBy(() -> Outbound.of(1, target -> { }, null)).isInstanceOf(NullPointerException.class)
				.hasMessage("whenReleased");
	}
}
