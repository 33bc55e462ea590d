package io.ferry.rpc.remoting.internal.server;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.Result;
import io.ferry.rpc.remoting.Dispatcher;
import io.ferry.rpc.remoting.Greeter;
import io.ferry.rpc.remoting.fuzz.LeakTrackingAllocator;
import io.ferry.rpc.remoting.fuzz.PipelineSpy;
import io.ferry.rpc.remoting.internal.codec.FrameDecoder;
import io.ferry.rpc.remoting.internal.codec.PartialFrames;
import io.ferry.rpc.remoting.internal.service.ProviderService;
import io.ferry.rpc.remoting.internal.service.ServiceSchema;
import io.ferry.rpc.remoting.internal.service.ServiceTable;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.MockTicker;
import io.netty.util.concurrent.Ticker;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Any byte stream a consumer may send, cut into two reads at a point the input chooses, through the provider's
 * whole pipeline (decoder, handler, request decoding, a real service, answers): no exception reaches the pipeline,
 * every buffer is released once the connection closes, and frames left incomplete meet their deadline. Headers,
 * events and bodies all come from the fuzzer; the seeds are well-formed requests, heartbeats and events.
 */
class ProviderFrameFuzzTest {
    private static final int LIMIT = 64 * 1024;
    private static final ServiceTable SERVICES = new ServiceTable();

    static {
        SERVICES.add(new ProviderService(ServiceSchema.of(Greeter.class, ClassAllowList.none(),
                ServiceSchema.Side.PROVIDER), "", "", invocation -> CompletableFuture.completedFuture(
                Result.of(switch (invocation.method().getName()) {
                    case "hello" -> "hello " + invocation.arguments()[0];
                    case "describe" -> String.valueOf(invocation.arguments()[0]);
                    default -> List.of(new Greeter.Item("a", 1));
                }))));
    }

    private final LeakTrackingAllocator allocator = new LeakTrackingAllocator();
    private final BusinessPools pools = new BusinessPools(new BusinessPool(new ThreadPoolExecutor(1, 1, 0,
            TimeUnit.SECONDS, new SynchronousQueue<>()), 1));

    @FuzzTest
    void anyStreamIsAnsweredOrClosedAndLeavesNothingBehind(byte[] stream) {
        int split = stream.length == 0 ? 0 : (stream[stream.length - 1] & 0xff) % (stream.length + 1);
        run(stream, split);
    }

    /**
     * Feeds {@code stream} in two reads, the first {@code split} bytes long, then lets every frame deadline pass and
     * closes; returns whether the connection was still open before the close.
     */
    boolean run(byte[] stream, int split) {
        MockTicker ticker = Ticker.newMockTicker();
        PipelineSpy spy = new PipelineSpy();
        EmbeddedChannel channel = EmbeddedChannel.builder().ticker(ticker).handlers(
                new FrameDecoder(FrameDecoder.Side.PROVIDER, LIMIT, new PartialFrames(
                        TimeUnit.SECONDS.toNanos(10), 1 << 20)),
                spy,
                new ServerHandler(SERVICES, pools, Dispatcher.DIRECT, LIMIT,
                        new DefaultChannelGroup(GlobalEventExecutor.INSTANCE), 0, io.ferry.rpc.Ticker.system())).build();
        channel.config().setAllocator(allocator);
        channel.writeInbound(allocator.tracked(Unpooled.copiedBuffer(stream, 0, split)));
        if (channel.isOpen()) {
            channel.writeInbound(allocator.tracked(Unpooled.copiedBuffer(stream, split, stream.length - split)));
        }
        channel.runPendingTasks();
        boolean open = channel.isOpen();
        ticker.advance(11, TimeUnit.SECONDS); // past every frame's deadline
        channel.runScheduledPendingTasks();
        channel.finishAndReleaseAll();
        spy.assertNoException();
        allocator.assertAllReleased("the provider's pipeline");
        return open;
    }
}
