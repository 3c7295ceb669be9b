package io.fiberjvm.transport.rsocket;

import io.fiberjvm.testing.BlockHoundContract;

/** This suite's JVM runs with BlockHound. */
class BlockHoundInstalledTest implements BlockHoundContract {
}
