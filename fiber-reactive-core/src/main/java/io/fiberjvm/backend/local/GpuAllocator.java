package io.fiberjvm.backend.local;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import io.fiberjvm.FiberException;

/** Hands out this machine's GPU device ids, each to one job at a time. */
final class GpuAllocator {

	private final List<String> all;
	private final Deque<String> free;

	GpuAllocator(List<String> deviceIds) {
		this.all = List.copyOf(deviceIds);
		this.free = new ArrayDeque<>(deviceIds);
	}

	/** Whether any GPU is under this allocator's control. */
	boolean managesAny() {
		return !all.isEmpty();
	}

	synchronized List<String> take(int count, String job) {
		if (count == 0) {
			return List.of();
		}
		if (count > free.size()) {
			throw new FiberException("job " + job + " asks for " + count + " GPU(s) but the local backend has "
					+ free.size() + " free of " + all + " (set fiber.local-gpus to the device ids it may hand out)");
		}
		List<String> taken = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			taken.add(free.poll());
		}
		return taken;
	}

	synchronized void release(List<String> ids) {
		free.addAll(ids);
	}
}
