package io.fiberjvm.progress;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProgressTest {

	private final VirtualTimeScheduler time = VirtualTimeScheduler.create();

	/** Ten elements, one every 100 ms from 50 ms on: the last arrives at 950 ms. */
	private Flux<Integer> tenElements() {
		return Flux.interval(Duration.ofMillis(50), Duration.ofMillis(100), time).take(10).map(Long::intValue);
	}

	@Test
	void reportsAtEachIntervalThenOnceWhenEverythingIsDone() {
		Progress progress = Progress.expecting(10, Duration.ofMillis(200)).on(time);
		List<ProgressSnapshot> seen = new ArrayList<>();
		progress.snapshots().subscribe(seen::add);
		List<Integer> out = new ArrayList<>();
		tenElements().transform(progress::count).subscribe(out::add);

		time.advanceTimeBy(Duration.ofSeconds(3));

		assertThat(out).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
		assertThat(seen).extracting(ProgressSnapshot::done).containsExactly(2L, 4L, 6L, 8L, 10L);
		assertThat(seen).extracting(ProgressSnapshot::finished).containsExactly(false, false, false, false, true);
		assertThat(seen).filteredOn(s -> s.fraction() == 1.0).hasSize(1);
		assertThat(seen.get(4).elapsed()).isEqualTo(Duration.ofMillis(950));
		StepVerifier.create(progress.snapshots()).expectNextMatches(ProgressSnapshot::finished).verifyComplete();
	}

	@Test
	void rateAndEtaFollowThePaceSoFar() {
		Progress progress = Progress.expecting(10, Duration.ofMillis(500)).on(time);
		List<ProgressSnapshot> seen = new ArrayList<>();
		progress.snapshots().subscribe(seen::add);
		tenElements().transform(progress::count).subscribe();

		time.advanceTimeBy(Duration.ofMillis(500));

		ProgressSnapshot half = seen.get(0);
		assertThat(half.done()).isEqualTo(5);
		assertThat(half.perSecond()).isEqualTo(10.0);
		assertThat(half.eta()).hasValue(Duration.ofMillis(500));
		assertThat(half.toString()).isEqualTo("5/10 (50.0%), 10/s, ETA 0:01");
		time.advanceTimeBy(Duration.ofSeconds(1));
		assertThat(seen.get(seen.size() - 1).eta()).isEmpty();
		assertThat(seen.get(seen.size() - 1).toString()).isEqualTo("10/10 (100.0%), 11/s, in 0:01");
	}

	@Test
	void aFailedOrCancelledStreamEndsTheReportShortOfTheTotal() {
		Progress failing = Progress.expecting(10, Duration.ofMillis(250)).on(time);
		List<ProgressSnapshot> seenFailing = new ArrayList<>();
		failing.snapshots().subscribe(seenFailing::add);
		tenElements().map(i -> {
			if (i == 4) {
				throw new IllegalStateException("element 4 fails");
			}
			return i;
		}).transform(failing::count).subscribe(i -> { }, e -> { });

		Progress cancelled = Progress.expecting(10, Duration.ofMillis(250)).on(time);
		cancelled.snapshots().subscribe();
		tenElements().transform(cancelled::count).take(3).subscribe();

		time.advanceTimeBy(Duration.ofSeconds(3));

		ProgressSnapshot lastFailing = seenFailing.get(seenFailing.size() - 1);
		assertThat(lastFailing.finished()).isTrue();
		assertThat(lastFailing.done()).isEqualTo(4);
		assertThat(lastFailing.fraction()).isEqualTo(0.4);
		assertThat(seenFailing).filteredOn(ProgressSnapshot::finished).hasSize(1);
		StepVerifier.create(cancelled.snapshots()).expectNextMatches(s -> s.finished() && s.done() == 3).verifyComplete();
	}

	@Test
	void anEmptyStreamOfAnExpectedZeroIsDoneOnce() {
		Progress progress = Progress.expecting(0).on(time);
		List<ProgressSnapshot> seen = new ArrayList<>();
		progress.snapshots().subscribe(seen::add);
		Flux.<Integer>empty().transform(progress::count).subscribe();
		assertThat(seen).hasSize(1);
		assertThat(seen.get(0).finished()).isTrue();
		assertThat(seen.get(0).fraction()).isEqualTo(1.0);
	}

	@Test
	void anUnboundedStreamReportsCountsWithoutFractionOrEta() {
		Progress progress = Progress.unbounded(Duration.ofMillis(200)).on(time);
		List<ProgressSnapshot> seen = new ArrayList<>();
		progress.snapshots().subscribe(seen::add);
		tenElements().transform(progress::count).subscribe();
		time.advanceTimeBy(Duration.ofSeconds(3));
		assertThat(seen).extracting(ProgressSnapshot::done).containsExactly(2L, 4L, 6L, 8L, 10L);
		assertThat(seen).allSatisfy(s -> {
			assertThat(s.total()).isEqualTo(-1);
			assertThat(s.fraction()).isNaN();
			assertThat(s.eta()).isEmpty();
		});
		assertThat(seen.get(0).toString()).isEqualTo("2, 10/s");
	}

	@Test
	void oneProgressTracksOneSubscription() {
		Progress progress = Progress.expecting(3).on(time);
		Flux<Integer> counted = Flux.just(1, 2, 3).transform(progress::count);
		StepVerifier.create(counted).expectNext(1, 2, 3).verifyComplete();
		StepVerifier.create(counted).expectErrorSatisfies(e -> assertThat(e).isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("tracks one subscription")).verify();
	}

	@Test
	void aSecondSubscriberIsRefusedWithoutEndingTheFirstOnesReport() {
		Progress progress = Progress.expecting(10, Duration.ofMillis(200)).on(time);
		List<ProgressSnapshot> seen = new ArrayList<>();
		progress.snapshots().subscribe(seen::add);
		Flux<Integer> counted = tenElements().transform(progress::count);
		List<Integer> first = new ArrayList<>();
		counted.subscribe(first::add);
		time.advanceTimeBy(Duration.ofMillis(450));
		List<Throwable> refused = new ArrayList<>();
		counted.subscribe(x -> { }, refused::add);

		time.advanceTimeBy(Duration.ofSeconds(2));

		assertThat(refused).singleElement().satisfies(e -> assertThat(e).hasMessageContaining("tracks one subscription"));
		assertThat(first).hasSize(10);
		assertThat(seen).filteredOn(ProgressSnapshot::finished).singleElement().satisfies(last -> assertThat(last.done()).isEqualTo(10));
	}

	@Test
	void badArgumentsAreRefusedByName() {
		assertThatThrownBy(() -> Progress.expecting(-1)).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("0 or more, not -1");
		assertThatThrownBy(() -> Progress.expecting(5, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("positive interval");
		assertThatThrownBy(() -> Progress.expecting(5, null)).isInstanceOf(NullPointerException.class).hasMessage("every");
		assertThatThrownBy(() -> Progress.expecting(5).count(null)).isInstanceOf(NullPointerException.class).hasMessage("results");
	}

	@Test
	void onATerminalTheBarIsRedrawnInPlaceAndEndsWithANewLine() {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		ProgressBar bar = ProgressBar.to(new PrintStream(bytes, true, StandardCharsets.UTF_8), true);
		bar.accept(new ProgressSnapshot(5, 10, Duration.ofMillis(500), false));
		bar.accept(new ProgressSnapshot(10, 10, Duration.ofSeconds(1), true));
		String shown = bytes.toString(StandardCharsets.UTF_8);
		assertThat(shown).startsWith("\r[" + "#".repeat(15) + ".".repeat(15) + "] 5/10 (50.0%)");
		assertThat(shown).contains("\r[" + "#".repeat(30) + "] 10/10 (100.0%)").endsWith(System.lineSeparator());
		assertThat(shown.chars().filter(c -> c == '\n').count()).isEqualTo(1);
	}

	@Test
	void elsewhereTheBarPrintsAPlainLineAtEachTenthAndAtTheEnd() {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		ProgressBar bar = ProgressBar.to(new PrintStream(bytes, true, StandardCharsets.UTF_8), false);
		for (int done = 0; done < 100; done += 3) {
			bar.accept(new ProgressSnapshot(done, 100, Duration.ofSeconds(1), false));
		}
		bar.accept(new ProgressSnapshot(100, 100, Duration.ofSeconds(2), true));
		List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
		assertThat(lines).hasSize(11);
		assertThat(lines.get(0)).startsWith("progress: 0/100 (0.0%)");
		assertThat(lines.get(10)).isEqualTo("done: 100/100 (100.0%), 50/s, in 0:02");
		assertThat(lines).noneMatch(line -> line.contains("\r"));
	}
}
