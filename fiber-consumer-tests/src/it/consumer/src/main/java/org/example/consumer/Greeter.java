package org.example.consumer;

/** A process target as a class: what a jshell session can start, since the class is on the class path. */
public class Greeter implements Runnable {

	@Override
	public void run() {
		System.out.println("hello from a Greeter in a child JVM");
	}
}
