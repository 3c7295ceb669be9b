package org.example.consumer;

/** The consumer's main: runs the checks, naming the launcher it was started by; fails by throwing. */
public final class Main {

	private Main() {
	}

	public static void main(String[] args) {
		System.out.println(Checks.run(args.length > 0 ? args[0] : "an unnamed launcher"));
	}
}
