package io.ferry.rpc.config;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.fixtures.WhoAmI;
import io.ferry.rpc.option.RegistryOptionKeys;
import io.ferry.rpc.registry.RegistryOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A registry address where no ZooKeeper answers: errors that say so, and a close that does not hang. */
class WrongRegistryTest {
    @TempDir
    Path tmp;

    private static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort(); // closed: nothing listens there
        }
    }

    @Test
    void withCheckFalseAReferenceSaysTheRegistryIsUnreachableAndCloseIsQuick() throws Exception {
        int port = closedPort();
        Ferry consumer = Ferry.builder().shutdownHook(false)
                .consumer(ConsumerConfig.builder().connectTimeout(Duration.ofMillis(500)).build())
                .registry(RegistryConfig.of(RegistryOptions.parse("zookeeper://127.0.0.1:" + port)
                        .connectionTimeout(Duration.ofMillis(500)).option(RegistryOptionKeys.CHECK, false)
                        .cacheFile(tmp.resolve("c.cache")).build()))
                .build();
        try {
            RpcException e = assertThrows(RpcException.class,
                    () -> consumer.reference(ReferenceConfig.builder(WhoAmI.class).build()));
            assertEquals(RpcStatus.NO_PROVIDER, e.status());
            assertTrue(e.getMessage().contains("ZooKeeper 127.0.0.1:" + port + ", unreachable for"), e.getMessage());
        } finally {
            long start = System.nanoTime();
            consumer.close();
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(took < 1500, "close took " + took + " ms");
        }
    }

    @Test
    void withCheckAsDubboDefaultsTheFirstUseOfAnUnreachableRegistryFailsTheStartNamingCheck() throws Exception {
        int port = closedPort();
        Ferry consumer = Ferry.builder().shutdownHook(false)
                .registry(RegistryConfig.of(RegistryOptions.parse("zookeeper://127.0.0.1:" + port)
                        .option(RegistryOptionKeys.CHECK, true)
                        .connectionTimeout(Duration.ofMillis(300)).cacheFile(tmp.resolve("d.cache")).build()))
                .build();
        try {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> consumer.reference(ReferenceConfig.builder(WhoAmI.class).build()));
            assertTrue(e.getMessage().startsWith("registry: zookeeper://127.0.0.1:" + port + " did not "
                    + "answer within 300 ms (check=true fails the start; without it, or with check=\"false\""),
                    e.getMessage());
        } finally {
            consumer.close();
        }
    }
}
