package io.fiberjvm.examples.rl;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The example's cart-pole replays episodes recorded from gymnasium's {@code CartPole-v1} ({@code cartpole-v1.txt},
 * made by {@code src/test/python/record_cartpole_v1.py}) bit for bit: every state the same double, every
 * observation the same float, the same step terminated or truncated.
 */
class CartPoleTest {

	/** One recorded episode: its starting state, then each step's action and what gymnasium made of it. */
	private record Episode(String name, double[] start, List<String[]> steps) {
	}

	private static List<Episode> recorded() throws IOException {
		List<Episode> episodes = new ArrayList<>();
		try (BufferedReader in = new BufferedReader(new InputStreamReader(Objects.requireNonNull(
				CartPoleTest.class.getResourceAsStream("cartpole-v1.txt"), "the recorded episodes"), StandardCharsets.UTF_8))) {
			for (String line = in.readLine(); line != null; line = in.readLine()) {
				String[] fields = line.split(" ");
				if (line.startsWith("#")) {
					continue;
				}
				if (fields[0].equals("episode")) {
					episodes.add(new Episode(fields[1], doubles(fields, 2), new ArrayList<>()));
				}
				else {
					episodes.get(episodes.size() - 1).steps().add(fields);
				}
			}
		}
		return episodes;
	}

	private static double[] doubles(String[] fields, int from) {
		double[] values = new double[4];
		for (int i = 0; i < 4; i++) {
			values[i] = Double.parseDouble(fields[from + i]);
		}
		return values;
	}

	@Test
	void everyRecordedEpisodeOfGymnasiumIsReplayedBitForBit() throws IOException {
		List<Episode> episodes = recorded();
		assertThat(episodes).hasSize(6);
		assertThat(episodes).as("episodes that run to the 500-step limit").filteredOn(e -> e.steps().size() == 500).hasSize(3);
		CartPole pole = new CartPole();
		for (Episode episode : episodes) {
			double[] observation = pole.reset(episode.start());
			assertThat(observation).isEqualTo(episode.start());
			for (int n = 0; n < episode.steps().size(); n++) {
				String[] recorded = episode.steps().get(n);
				Step step = pole.step(Integer.parseInt(recorded[0]));
				double[] state = doubles(recorded, 1);
				double[] gymObservation = doubles(recorded, 5);
				String where = "episode " + episode.name() + ", step " + (n + 1);
				for (int i = 0; i < 4; i++) {
					assertThat(Double.doubleToRawLongBits(step.observation()[i])).as("%s, state[%d]", where, i)
							.isEqualTo(Double.doubleToRawLongBits(state[i]));
					assertThat((double) (float) step.observation()[i]).as("%s, observation[%d] as float", where, i)
							.isEqualTo(gymObservation[i]);
				}
				assertThat(step.reward()).isEqualTo(1.0);
				assertThat(step.terminated()).as("%s, terminated", where).isEqualTo(recorded[9].equals("1"));
				assertThat(step.truncated()).as("%s, truncated", where).isEqualTo(recorded[10].equals("1"));
			}
			assertThatThrownBy(() -> pole.step(0)).as("after the episode's last step").isInstanceOf(IllegalStateException.class);
		}
	}

	@Test
	void anEpisodeThatIsOverMustBeResetAndBadInputIsRefused() {
		CartPole pole = new CartPole(3);
		pole.reset(new double[] {0, 0, 0.2, 2});
		Step last = pole.step(1);
		assertThat(last.terminated()).isTrue();
		assertThat(last.done()).isTrue();
		assertThatThrownBy(() -> pole.step(1)).isInstanceOf(IllegalStateException.class).hasMessageContaining("reset()");
		assertThatThrownBy(() -> pole.step(2)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0 (left) or 1 (right)");
		assertThatThrownBy(() -> pole.reset(new double[3])).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("not 3 numbers");
		assertThat(java.util.Arrays.stream(pole.reset()).map(Math::abs).max().orElseThrow()).isLessThan(0.05);
	}
}
