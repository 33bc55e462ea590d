package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.Dispatcher;
import io.ferry.rpc.remoting.Greeter;
import io.ferry.rpc.remoting.internal.codec.FrameDecoder;
import io.ferry.rpc.remoting.internal.codec.FrameEncoder;
import io.ferry.rpc.remoting.internal.codec.RequestCodec;
import io.ferry.rpc.remoting.internal.service.ProviderService;
import io.ferry.rpc.remoting.internal.service.ServiceSchema;
import io.ferry.rpc.remoting.internal.service.ServiceTable;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Direct memory runs out while an answer is being built: the request still ends, with an error answer when one can
 * be built and with the connection closed when not, and it is always counted out of the requests in flight (a
 * graceful shutdown would otherwise wait its whole timeout for it).
 */
class AnswerPathErrorTest {
    private static final int LIMIT = 64 * 1024;
    private static final ServiceSchema GREETER = ServiceSchema.of(Greeter.class, ClassAllowList.none(),
            ServiceSchema.Side.PROVIDER);

    /** Fails its next {@code failures} allocations the way an exhausted direct-memory pool does. */
    private static final class ExhaustedAllocator extends AbstractByteBufAllocator {
        final AtomicInteger failures = new AtomicInteger();

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            return Unpooled.buffer(initialCapacity, maxCapacity);
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            return Unpooled.buffer(initialCapacity, maxCapacity);
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }

        @Override
        public ByteBuf ioBuffer(int initialCapacity) {
            if (failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new OutOfMemoryError("Cannot reserve " + initialCapacity + " bytes of direct buffer memory");
            }
            return super.ioBuffer(initialCapacity);
        }
    }

    private final ExhaustedAllocator allocator = new ExhaustedAllocator();
    private final ServerHandler handler = handler();
    private final EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(FrameDecoder.Side.PROVIDER, LIMIT),
            handler);

    private static ServerHandler handler() {
        ServiceTable services = new ServiceTable();
        services.add(new ProviderService(GREETER, "", "",
                invocation -> CompletableFuture.completedFuture(Result.of("hello"))));
        // the direct dispatcher answers on the channel's own thread: the test needs no waiting
        return new ServerHandler(services, new BusinessPools(new BusinessPool(new ThreadPoolExecutor(1, 1, 0,
                TimeUnit.SECONDS, new SynchronousQueue<>()), 1)), Dispatcher.DIRECT, LIMIT,
                new DefaultChannelGroup(GlobalEventExecutor.INSTANCE), 0, Ticker.system());
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    private static ByteBuf hello(long id) throws Exception {
        Invocation invocation = new Invocation(Greeter.class.getName(), "", "", Greeter.class.getMethod("hello",
                String.class), new Object[] {"x"}, Map.of(), Deadline.after(Duration.ofSeconds(30), Ticker.system()),
                false, Runnable::run);
        return FrameEncoder.encode(ByteBufAllocator.DEFAULT, 0xC2, (byte) 0, id, GREETER.serializerFactory(), LIMIT,
                out -> RequestCodec.write(out, invocation, GREETER.method(invocation.method())));
    }

    @Test
    void whenOnlyTheAnswerCannotBeBuiltTheCallerGetsBadResponse() throws Exception {
        channel.config().setAllocator(allocator);
        allocator.failures.set(1);
        channel.writeInbound(hello(1));
        ByteBuf answer = channel.readOutbound();
        assertEquals(RpcStatus.BAD_RESPONSE.wireCode(), answer.getByte(3));
        assertEquals(1, answer.getLong(4));
        answer.release();
        assertTrue(channel.isOpen());
        assertEquals(0, handler.inFlight().count());
    }

    @Test
    void whenNoAnswerAtAllCanBeBuiltTheConnectionIsClosedAndTheRequestCountedOut() throws Exception {
        channel.config().setAllocator(allocator);
        allocator.failures.set(Integer.MAX_VALUE);
        channel.writeInbound(hello(2));
        channel.runPendingTasks();
        assertNull(channel.readOutbound());
        assertFalse(channel.isOpen(), "the caller learns from the close, not at its timeout");
        assertEquals(0, handler.inFlight().count());
    }
}
