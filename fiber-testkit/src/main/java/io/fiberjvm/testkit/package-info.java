/**
 * Contract tests for people who write a backend or a transport of their own: JUnit 5 interfaces whose default
 * methods say what every {@link io.fiberjvm.backend.Backend} ({@link io.fiberjvm.testkit.BackendContract}) and
 * every {@link io.fiberjvm.transport.Transport} ({@link io.fiberjvm.testkit.TransportContract}) must do. A test
 * class implements one and says how to make the thing under test; Fiber's own local backend, Kubernetes backend
 * and RSocket transport are tested with them.
 *
 * <p>Test code, written as tests are: nullness is not stated here, and JUnit, AssertJ, Awaitility and
 * reactor-test come with this module.
 */
@NullUnmarked
package io.fiberjvm.testkit;

import org.jspecify.annotations.NullUnmarked;
