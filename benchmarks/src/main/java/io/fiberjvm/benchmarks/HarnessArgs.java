package io.fiberjvm.benchmarks;

/** Command-line options of the simpler harnesses: {@code --name value} pairs. */
final class HarnessArgs {

	private HarnessArgs() {
	}

	/** The integer after {@code name} in {@code args}, or {@code fallback} when it is not there. */
	static int intOption(String[] args, String name, int fallback) {
		for (int i = 0; i + 1 < args.length; i++) {
			if (args[i].equals(name)) {
				return Integer.parseInt(args[i + 1]);
			}
		}
		return fallback;
	}

	/**
	 * Hands each {@code --name value} pair of {@code args} to {@code option}, in order; an option with no value
	 * after it is an error naming it.
	 */
	static void pairs(String[] args, java.util.function.BiConsumer<String, String> option) {
		for (int i = 0; i < args.length; i += 2) {
			if (i + 1 >= args.length) {
				throw new IllegalArgumentException("no value after " + args[i]);
			}
			option.accept(args[i], args[i + 1]);
		}
	}

	/** What {@code parse} makes of {@code args}; when it refuses them, says why and {@code usage} and exits with status 2. */
	static <T> T parseOrExit(String[] args, java.util.function.Function<String[], T> parse, String usage) {
		try {
			return parse.apply(args);
		}
		catch (IllegalArgumentException e) {
			System.err.println(e.getMessage());
			System.err.println(usage);
			System.exit(2);
			throw e;
		}
	}

	/** {@code value} as a whole number of at least 1; otherwise an error naming {@code option} and what was given. */
	static int positive(String option, String value) {
		int number;
		try {
			number = Integer.parseInt(value.trim());
		}
		catch (NumberFormatException e) {
			throw new IllegalArgumentException(option + " takes a whole number, not '" + value + "'");
		}
		if (number < 1) {
			throw new IllegalArgumentException(option + " must be at least 1, not " + number);
		}
		return number;
	}
}
