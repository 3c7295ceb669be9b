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
}
