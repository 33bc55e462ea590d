package io.ferry.rpc.remoting.internal.exchange;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Result;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.Greeter;
import io.ferry.rpc.remoting.fuzz.LeakTrackingAllocator;
import io.ferry.rpc.remoting.fuzz.PipelineSpy;
import io.ferry.rpc.remoting.internal.codec.FrameDecoder;
import io.ferry.rpc.remoting.internal.codec.FrameEncoder;
import io.ferry.rpc.remoting.internal.codec.RequestCodec;
import io.ferry.rpc.remoting.internal.service.MethodSchema;
import io.ferry.rpc.remoting.internal.service.ServiceSchema;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.HashedWheelTimer;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.junit.jupiter.api.AfterAll;

import java.time.Duration;
import java.util.HashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Any byte stream a provider may send to a consumer with one call pending: answers (to that call's id, so bodies
 * get decoded), heartbeats, readonly events, oversize frames and garbage. The call always ends, never with an
 * {@code Error}; no exception reaches the pipeline; every buffer is released once the connection closes.
 */
class ConsumerFrameFuzzTest {
    private static final int LIMIT = 64 * 1024;
    private static final ServiceSchema GREETER = ServiceSchema.of(Greeter.class, ClassAllowList.none(),
            ServiceSchema.Side.CONSUMER);
    private static final HashedWheelTimer TIMER = new HashedWheelTimer(new DefaultThreadFactory("fuzz-timer", true));

    private final LeakTrackingAllocator allocator = new LeakTrackingAllocator();

    @AfterAll
    static void stopTimer() {
        TIMER.stop();
    }

    @FuzzTest
    void anyAnswerStreamEndsThePendingCallAndLeavesNothingBehind(byte[] stream) throws Exception {
        run(stream, stream.length % 3);
    }

    /** Sends one call of the method {@code which} picks, feeds {@code stream} as what came back, and closes. */
    void run(byte[] stream, int which) throws Exception {
        ClientHandler handler = new ClientHandler();
        PipelineSpy spy = new PipelineSpy();
        EmbeddedChannel channel = new EmbeddedChannel(false, false);
        channel.config().setAllocator(allocator);
        Connection connection = Connections.bind(handler, channel, "fuzzed-provider", TIMER, Ticker.system());
        channel.pipeline().addLast(new FrameDecoder(FrameDecoder.Side.CONSUMER, LIMIT), spy, handler);
        channel.register();

        MethodSchema method = GREETER.method(Greeter.class.getMethod(method(which), parameterTypes(which)));
        Invocation invocation = new Invocation(Greeter.class.getName(), "", "", method.method(),
                new Object[] {null}, new HashMap<>(), Deadline.after(Duration.ofMinutes(1), Ticker.system()), false,
                Runnable::run);
        ByteBuf request = FrameEncoder.encode(allocator, 0xC2, (byte) 0, 0, GREETER.serializerFactory(), LIMIT,
                out -> RequestCodec.write(out, invocation, method));
        CompletableFuture<Result> call = connection.send(request, invocation, method, GREETER.serializerFactory());
        channel.runPendingTasks(); // the event loop writes the request
        ByteBuf sent = channel.readOutbound();
        long id = sent.getLong(4);
        sent.release();

        byte[] answer = stream.clone();
        if (answer.length >= 12 && (answer[2] & 0x80) == 0) {
            Unpooled.wrappedBuffer(answer).setLong(4, id); // an answer: make it answer the pending call
        }
        channel.writeInbound(allocator.tracked(Unpooled.wrappedBuffer(answer)));
        channel.runPendingTasks();
        channel.finishAndReleaseAll(); // a call still pending fails with the close
        channel.releaseOutbound();

        if (!call.isDone()) {
            throw new AssertionError("the call did not end");
        }
        try {
            call.join();
        } catch (CompletionException e) {
            for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
                if (t instanceof Error error) {
                    throw new AssertionError("the call ended with an Error", error);
                }
            }
        }
        spy.assertNoException();
        allocator.assertAllReleased("the consumer's pipeline");
    }

    /** The input also picks which method's answer it is, so value, list and object decoding all get fuzzed. */
    private static String method(int which) {
        return switch (which) {
            case 0 -> "hello";
            case 1 -> "describe";
            default -> "items";
        };
    }

    private static Class<?>[] parameterTypes(int which) {
        return switch (which) {
            case 0 -> new Class<?>[] {String.class};
            case 1 -> new Class<?>[] {Object.class};
            default -> new Class<?>[] {int.class};
        };
    }
}
