package io.fiberjvm.manager;

import java.util.ArrayList;
import java.util.List;

import io.fiberjvm.codec.ShippedValues;

/** A call's arguments on their way to a manager: each one's bytes, refused together when over the limit. */
final class Arguments {

	private Arguments() {
	}

	/**
	 * Each argument's bytes (null for a null argument); refused, naming it, when one cannot travel or all are over
	 * {@code max-value-size} together. {@code what} names the call.
	 */
	static List<byte[]> encode(ShippedValues values, Object[] args, String what) {
		List<byte[]> encoded = new ArrayList<>(args.length);
		long together = 0;
		for (int i = 0; i < args.length; i++) {
			int index = i;
			byte[] bytes = values.write(args[i], new Object() {
				@Override
				public String toString() {
					return "argument " + index + " of " + what;
				}
			});
			encoded.add(bytes);
			together += bytes == null ? 0 : bytes.length;
		}
		values.checkTogether(together, "the arguments of " + what);
		return encoded;
	}
}
