package io.fiberjvm.testing;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Fails a test during which a JVM-wide watch found something, naming each finding in the failure's message (where
 * a CI log shows it); a test that failed on its own says so in its message too, with what is still going on.
 *
 * @param <F> a finding, whose {@code toString()} says what and where
 */
abstract class FindingsReported<F> implements BeforeEachCallback, AfterEachCallback, TestExecutionExceptionHandler {

	private final ExtensionContext.Namespace here = ExtensionContext.Namespace.create(getClass());

	/** How many findings there are so far: what {@link #since} counts from. */
	abstract int mark();

	/** The findings from the {@code mark}-th on. */
	abstract List<F> since(int mark);

	/** Findings still going on, whenever they began: named in the message of any test that fails. */
	Collection<F> ongoing() {
		return List.of();
	}

	/** What the findings are, as the first line of the message. */
	abstract String heading();

	@Override
	public void beforeEach(ExtensionContext context) {
		context.getStore(here).put("from", mark());
	}

	@Override
	public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
		Set<F> findings = new LinkedHashSet<>(findingsOf(context));
		findings.addAll(ongoing());
		if (findings.isEmpty()) {
			throw failure;
		}
		context.getStore(here).put("reported", true);
		throw new AssertionError(failure + "\n" + describe(findings), failure);
	}

	@Override
	public void afterEach(ExtensionContext context) {
		if (context.getStore(here).get("reported") != null) {
			return;
		}
		List<F> findings = findingsOf(context);
		if (!findings.isEmpty()) {
			throw new AssertionError(describe(findings));
		}
	}

	private List<F> findingsOf(ExtensionContext context) {
		Integer from = context.getStore(here).get("from", Integer.class);
		return from == null ? List.of() : since(from);
	}

	private String describe(Collection<F> findings) {
		return heading() + ":\n" + findings.stream().map(Object::toString).collect(Collectors.joining("\n"));
	}
}
