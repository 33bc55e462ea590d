package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.Dispatcher;
import io.ferry.rpc.remoting.internal.codec.Frame;
import io.ferry.rpc.remoting.internal.codec.FrameDecoder;
import io.ferry.rpc.remoting.internal.service.ServiceTable;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The business pool refuses a request only when {@code threads + queues} requests are really queued or running:
 * the count is taken on the IO thread as a request is admitted and given back when its task ends.
 */
class AdmissionTest {
    private static final int LIMIT = 64 * 1024;

    /** A request the provider takes and then cannot decode: a business thread answers it 40 (BAD_REQUEST). */
    private static ByteBuf request(long id) {
        byte[] body = "not a real body".getBytes(StandardCharsets.US_ASCII);
        return Unpooled.buffer().writeShort(Frame.MAGIC).writeByte(0xC2).writeByte(0).writeLong(id)
                .writeInt(body.length).writeBytes(body);
    }

    @Test
    void theRequestOverCapacityIsRefusedAndTheNextOneAfterATaskEndsIsTaken() throws Exception {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
        CountDownLatch busy = new CountDownLatch(1);
        pool.execute(() -> {
            try {
                busy.await(); // occupies the one thread, outside the admission count
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(FrameDecoder.Side.PROVIDER, LIMIT),
                new ServerHandler(new ServiceTable(), new BusinessPools(new BusinessPool(pool, 2)), Dispatcher.ALL,
                        LIMIT, new DefaultChannelGroup(GlobalEventExecutor.INSTANCE), 0, Ticker.system()));
        try {
            channel.writeInbound(request(1));
            channel.writeInbound(request(2));
            assertTrue(channel.outboundMessages().isEmpty(), "two places: both queued, neither refused");
            channel.writeInbound(request(3));
            assertEquals(Map.of(3L, (int) 100), answers(channel), "the third finds both places held");

            busy.countDown();
            pool.submit(() -> { }).get(10, TimeUnit.SECONDS); // FIFO: requests 1 and 2 have run and ended
            channel.writeInbound(request(4));
            pool.submit(() -> { }).get(10, TimeUnit.SECONDS);
            Map<Long, Integer> later = answers(channel);
            assertEquals(3, later.size(), later.toString());
            later.forEach((id, status) -> assertEquals(40, status, "request " + id + " was taken and decoded"));
        } finally {
            channel.finishAndReleaseAll();
            pool.shutdownNow();
        }
    }

    @Test
    void aPlaceGoesBackWithTheRequestNotWhenItsWorkerIsBackAtTheQueue() throws Exception {
        CountDownLatch slowAfterAnswer = new CountDownLatch(1);
        CountDownLatch answered = new CountDownLatch(1);
        // a deliberately slow answer path: the worker lingers after each request it answered, before it takes
        // the next
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>()) {
            @Override
            protected void afterExecute(Runnable task, Throwable error) {
                answered.countDown();
                try {
                    slowAfterAnswer.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(FrameDecoder.Side.PROVIDER, LIMIT),
                new ServerHandler(new ServiceTable(), new BusinessPools(new BusinessPool(pool, 1)), Dispatcher.ALL,
                        LIMIT, new DefaultChannelGroup(GlobalEventExecutor.INSTANCE), 0, Ticker.system()));
        try {
            channel.writeInbound(request(1));
            assertTrue(answered.await(10, TimeUnit.SECONDS));
            // the caller has its answer and sends its next request while the worker is not back yet: one thread,
            // one request in flight, so it is taken (a SynchronousQueue hand-off would refuse it here)
            channel.writeInbound(request(2));
            slowAfterAnswer.countDown();
            pool.submit(() -> { }).get(10, TimeUnit.SECONDS);
            Map<Long, Integer> statuses = answers(channel);
            assertEquals(Map.of(1L, 40, 2L, 40), statuses, "both taken and decoded, neither refused");
        } finally {
            slowAfterAnswer.countDown();
            channel.finishAndReleaseAll();
            pool.shutdownNow();
        }
    }

    @Test
    void onceThreeQuartersAreHeldAConnectionOverItsFairShareIsRefusedAndOthersAreNot() {
        Admission admission = new Admission(8);
        AtomicInteger flooding = new AtomicInteger();
        AtomicInteger quiet = new AtomicInteger();
        for (int i = 0; i < 6; i++) {
            assertNotNull(admission.tryAcquire(flooding, () -> 2), "under three quarters no share applies");
        }
        assertNull(admission.tryAcquire(flooding, () -> 2), "6 of 8 held: the flooding connection is over its 4");
        assertNotNull(admission.tryAcquire(quiet, () -> 2), "a quiet connection still gets in");
        Admission.Ticket last = admission.tryAcquire(quiet, () -> 2);
        assertNotNull(last);
        assertNull(admission.tryAcquire(quiet, () -> 2), "8 of 8: full for everyone");
        last.run();
        last.run();
        assertEquals(1, quiet.get(), "a place given back counts once, for its own connection");
        assertEquals(6, flooding.get());
    }

    private static Map<Long, Integer> answers(EmbeddedChannel channel) {
        Map<Long, Integer> statuses = new HashMap<>();
        ByteBuf answer;
        while ((answer = channel.readOutbound()) != null) {
            statuses.put(answer.getLong(4), (int) answer.getByte(3));
            answer.release();
        }
        return statuses;
    }
}
