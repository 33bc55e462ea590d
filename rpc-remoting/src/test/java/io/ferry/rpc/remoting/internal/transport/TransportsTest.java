package io.ferry.rpc.remoting.internal.transport;

import io.ferry.rpc.remoting.Client;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.FastThreadLocalThread;
import org.junit.jupiter.api.Test;

import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ferry's IO threads are known as such, so that a synchronous call made on one can fail instead of blocking it. */
class TransportsTest {
    @Test
    void theThreadsOfFerrysGroupsAreIoThreadsAndNoOthers() throws Exception {
        EventLoopGroup ferry = Transports.newGroup(2, "transports-test");
        EventLoopGroup foreign = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            assertTrue(ferry.submit(Transports::inEventLoop).get(5, TimeUnit.SECONDS));
            assertTrue(ferry.submit(Client::isIoThread).get(5, TimeUnit.SECONDS));
            assertTrue(ferry.submit(() -> Thread.currentThread() instanceof FastThreadLocalThread)
                    .get(5, TimeUnit.SECONDS), "still Netty's fast thread-locals");
            assertTrue(ferry.submit(() -> Thread.currentThread().getName()).get(5, TimeUnit.SECONDS)
                    .startsWith("transports-test"));
            assertTrue(ferry.submit(() -> Thread.currentThread().isDaemon()).get(5, TimeUnit.SECONDS));

            assertFalse(Transports.inEventLoop(), "the test's own thread");
            FutureTask<Boolean> onWorker = new FutureTask<>(Transports::inEventLoop);
            new DefaultThreadFactory("business", true).newThread(onWorker).start();
            assertFalse(onWorker.get(5, TimeUnit.SECONDS), "a business-pool or callback thread may block");
            assertFalse(foreign.submit(Transports::inEventLoop).get(5, TimeUnit.SECONDS),
                    "another library's event loop is not Ferry's to police");
        } finally {
            ferry.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
            foreign.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }
}
