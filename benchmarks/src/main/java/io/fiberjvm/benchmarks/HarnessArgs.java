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
