package io.ferry.rpc.remoting.internal.codec;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.remoting.Greeter;
import io.ferry.rpc.remoting.internal.service.MethodSchema;
import io.ferry.rpc.remoting.internal.service.ServiceSchema;
import io.ferry.rpc.remoting.internal.exchange.ClientHandler;
import io.ferry.rpc.remoting.internal.exchange.Connection;
import io.ferry.rpc.remoting.internal.exchange.Connections;
import io.ferry.rpc.remoting.internal.service.ServiceTable;
import io.ferry.rpc.remoting.internal.serialize.GuardedHessian2Input;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.HashedWheelTimer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The frame codec fed byte by byte through Netty's EmbeddedChannel. */
class FrameCodecTest {
    private static final int LIMIT = 64 * 1024;
    private static final ServiceSchema GREETER = ServiceSchema.of(Greeter.class, ClassAllowList.none(),
            ServiceSchema.Side.CONSUMER);
    private static final HashedWheelTimer TIMER = new HashedWheelTimer();

    @AfterAll
    static void stopTimer() {
        TIMER.stop();
    }

    static MethodSchema method(String name) {
        for (var m : Greeter.class.getMethods()) {
            if (m.getName().equals(name)) {
                return GREETER.method(m);
            }
        }
        throw new IllegalArgumentException(name);
    }

    static ByteBuf request(long id, String argument) throws Exception {
        return FrameEncoder.encode(Unpooled.buffer().alloc(), 0xC2, (byte) 0, id, GREETER.serializerFactory(), LIMIT,
                out -> RequestCodec.write(out, hello(argument), method("hello")));
    }

    static Invocation hello(String argument) {
        return new Invocation(Greeter.class.getName(), "", "", method("hello").method(), new Object[] {argument},
                Map.of(), Deadline.after(java.time.Duration.ofSeconds(30), Ticker.system()), false, Runnable::run);
    }

    private static EmbeddedChannel provider() {
        return new EmbeddedChannel(new FrameDecoder(FrameDecoder.Side.PROVIDER, LIMIT));
    }

    private static byte[] bytes(ByteBuf buf) {
        byte[] b = ByteBufUtil.getBytes(buf);
        buf.release();
        return b;
    }

    @Test
    void requestRoundTripsWithHeadReadBeforeArguments() throws Exception {
        EmbeddedChannel ch = provider();
        ch.writeInbound(request(-42L, "ann"));
        InboundFrame frame = ch.readInbound();
        assertTrue(frame.isRequest() && frame.isTwoWay() && !frame.isEvent());
        assertEquals(-42L, frame.id());
        assertEquals(Frame.HESSIAN2, frame.serialization());
        GuardedHessian2Input in = new GuardedHessian2Input(frame.body(), GREETER.serializerFactory());
        RequestCodec.Head head = RequestCodec.readHead(in);
        assertEquals(new RequestCodec.Head("2.0.2", Greeter.class.getName(), "0.0.0", "hello",
                "Ljava/lang/String;"), head);
        assertArrayEquals(new Object[] {"ann"}, RequestCodec.readArguments(in, method("hello")));
        assertEquals(Greeter.class.getName(), RequestCodec.readAttachments(in).get("path"));
        frame.release();
        assertFalse(ch.finish());
    }

    @Test
    void aFrameIsAllocatedOnceAtItsSizeInsteadOfGuessedAndGrown() throws Exception {
        ByteBuf frame = request(1, "x".repeat(3_000));
        try {
            assertEquals(frame.readableBytes(), frame.capacity());
        } finally {
            frame.release();
        }
    }

    @Test
    void anEmptyBodyIsAHeaderWithLengthZero() throws Exception {
        byte[] b = bytes(FrameEncoder.encode(Unpooled.buffer().alloc(), Frame.HESSIAN2, Frame.STATUS_OK, 5,
                GREETER.serializerFactory(), LIMIT, out -> { }));
        assertEquals(Frame.HEADER_LENGTH, b.length);
        assertEquals(5L, Unpooled.wrappedBuffer(b).getLong(4));
        assertEquals(0, Unpooled.wrappedBuffer(b).getInt(12));
    }

    @Test
    void aBodyLargerThanHessiansOwnBufferArrivesWhole() throws Exception {
        String big = "y".repeat(40_000); // five times hessian's 8 KiB: handed over in pieces, the buffer grows
        EmbeddedChannel ch = provider();
        ch.writeInbound(request(2, big));
        InboundFrame frame = ch.readInbound();
        GuardedHessian2Input in = new GuardedHessian2Input(frame.body(), GREETER.serializerFactory());
        RequestCodec.readHead(in);
        assertArrayEquals(new Object[] {big}, RequestCodec.readArguments(in, method("hello")));
        frame.release();
        assertFalse(ch.finish());
    }

    @Test
    void aBodyOverThePayloadLimitIsRefusedWhetherItPassesAtTheFirstPieceOrALaterOneAndNothingIsKept() {
        java.util.List<ByteBuf> taken = new java.util.ArrayList<>();
        io.netty.buffer.ByteBufAllocator recording = (io.netty.buffer.ByteBufAllocator) java.lang.reflect.Proxy
                .newProxyInstance(getClass().getClassLoader(), new Class<?>[] {io.netty.buffer.ByteBufAllocator.class},
                        (proxy, m, args) -> {
                            Object result = m.invoke(Unpooled.buffer().alloc(), args);
                            if (result instanceof ByteBuf buf) {
                                taken.add(buf);
                            }
                            return result;
                        });
        for (int size : new int[] {3_000, 40_000}) {
            int limit = 2_000 + size / 4; // under the first piece of the smaller body, past it for the larger
            Invocation call = hello("z".repeat(size));
            FrameEncoder.PayloadTooLargeException e = assertThrows(FrameEncoder.PayloadTooLargeException.class,
                    () -> FrameEncoder.encode(recording, 0xC2, (byte) 0, 3, GREETER.serializerFactory(), limit,
                            out -> RequestCodec.write(out, call, method("hello"))));
            assertTrue(e.length() > limit, e.getMessage());
        }
        assertEquals(1, taken.size(), "only the larger body got as far as a buffer");
        assertEquals(0, taken.get(0).refCnt());
    }

    @Test
    void headerBytesMatchTheDubboLayout() throws Exception {
        byte[] b = bytes(request(0x0102030405060708L, "p1"));
        assertEquals((byte) 0xda, b[0]);
        assertEquals((byte) 0xbb, b[1]);
        assertEquals((byte) 0xc2, b[2]);
        assertEquals(0, b[3]);
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, java.util.Arrays.copyOfRange(b, 4, 12));
        assertEquals(b.length - 16, Unpooled.wrappedBuffer(b).getInt(12));
        // body starts with the short hessian string "2.0.2"
        assertEquals(0x05, b[16]);
        assertEquals("2.0.2", new String(b, 17, 5, StandardCharsets.US_ASCII));
    }

    @Test
    void responseRoundTripsWithAndWithoutAttachments() throws Exception {
        for (boolean withAttachments : new boolean[] {true, false}) {
            ByteBuf frame = FrameEncoder.encode(Unpooled.buffer().alloc(), Frame.HESSIAN2, Frame.STATUS_OK, 7,
                    GREETER.serializerFactory(), LIMIT,
                    out -> ResponseCodec.writeValue(out, withAttachments, "pong", Map.of("k", "v")));
            EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(FrameDecoder.Side.CONSUMER, LIMIT));
            ch.writeInbound(frame);
            InboundFrame in = ch.readInbound();
            assertEquals(0x94 - (withAttachments ? 0 : 3), in.body().getUnsignedByte(in.body().readerIndex()),
                    "the flag is a hessian int: 4 is 0x94, 1 is 0x91");
            ResponseCodec.Outcome outcome = ResponseCodec.read(
                    new GuardedHessian2Input(in.body(), GREETER.serializerFactory()), String.class);
            assertEquals("pong", outcome.value());
            if (withAttachments) {
                assertEquals("v", outcome.attachments().get("k"));
                assertEquals("2.0.2", outcome.attachments().get("dubbo"));
            } else {
                assertTrue(outcome.attachments().isEmpty());
            }
            in.release();
        }
    }

    private static Object decodeValue(ByteBuf frame) throws Exception {
        try {
            ByteBuf body = frame.slice(Frame.HEADER_LENGTH, frame.readableBytes() - Frame.HEADER_LENGTH);
            return ResponseCodec.read(new GuardedHessian2Input(body, GREETER.serializerFactory()), Object.class)
                    .value();
        } finally {
            frame.release();
        }
    }

    private static ByteBuf itemsAnswer(java.util.List<Greeter.Item> items, FrameEncoder.BodyWriter inside)
            throws java.io.IOException {
        return FrameEncoder.encode(Unpooled.buffer().alloc(), Frame.HESSIAN2, Frame.STATUS_OK, 1,
                GREETER.serializerFactory(), LIMIT, out -> {
                    inside.write(out);
                    ResponseCodec.writeValue(out, false, items, Map.of());
                });
    }

    @Test
    void framesEncodedOneAfterAnotherOnOneThreadEachCarryTheirOwnClassDefinitions() throws Exception {
        java.util.List<Greeter.Item> items = java.util.List.of(new Greeter.Item("a", 1));
        ByteBuf first = itemsAnswer(items, out -> { });
        ByteBuf second = itemsAnswer(items, out -> { });
        // decoded alone, each frame must define Item itself: the reused output forgot the first one's definitions
        assertEquals(items, decodeValue(second));
        assertEquals(items, decodeValue(first));
    }

    @Test
    void aFrameEncodedWhileAnotherIsBeingEncodedOnTheSameThreadIsNotCorrupted() throws Exception {
        java.util.List<Greeter.Item> items = java.util.List.of(new Greeter.Item("outer", 1));
        java.util.List<Greeter.Item> nested = java.util.List.of(new Greeter.Item("inner", 2));
        ByteBuf[] inner = new ByteBuf[1];
        ByteBuf outer = itemsAnswer(items, out -> inner[0] = itemsAnswer(nested, o -> { }));
        assertEquals(nested, decodeValue(inner[0]));
        assertEquals(items, decodeValue(outer));
    }

    @Test
    void versionDecidesWhetherAnswersCarryAttachments() {
        assertTrue(Frame.supportsResponseAttachments("2.0.2"));
        assertTrue(Frame.supportsResponseAttachments("2.0.99"));
        assertFalse(Frame.supportsResponseAttachments("2.5.3"));
        assertFalse(Frame.supportsResponseAttachments("2.0.1"));
        assertFalse(Frame.supportsResponseAttachments(null));
    }

    @Test
    void heartbeatIsEchoedOnTheIoThreadWithTheDubboBytes() throws Exception {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(FrameDecoder.Side.PROVIDER, LIMIT),
                new io.ferry.rpc.remoting.internal.server.ServerHandler(new ServiceTable(),
                        null, io.ferry.rpc.remoting.Dispatcher.ALL, LIMIT, new io.netty.channel.group.DefaultChannelGroup(
                        io.netty.util.concurrent.GlobalEventExecutor.INSTANCE), 0, io.ferry.rpc.Ticker.system()));
        ch.writeInbound(FrameEncoder.heartbeatRequest(Unpooled.buffer().alloc(), 99));
        byte[] answer = bytes(ch.readOutbound());
        assertEquals("dabb22140000000000000063000000014e", ByteBufUtil.hexDump(answer));
        ch.finishAndReleaseAll();
    }

    @Test
    void fastjson2HeartbeatIsEchoedInItsOwnSerialization() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(FrameDecoder.Side.PROVIDER, LIMIT),
                new io.ferry.rpc.remoting.internal.server.ServerHandler(new ServiceTable(),
                        null, io.ferry.rpc.remoting.Dispatcher.ALL, LIMIT, new io.netty.channel.group.DefaultChannelGroup(
                        io.netty.util.concurrent.GlobalEventExecutor.INSTANCE), 0, io.ferry.rpc.Ticker.system()));
        ByteBuf heartbeat = Unpooled.buffer();
        heartbeat.writeShort(Frame.MAGIC).writeByte(0xF7).writeByte(0).writeLong(3).writeInt(5)
                .writeBytes(new byte[] {0, 0, 0, 1, (byte) 0xaf});
        ch.writeInbound(heartbeat);
        assertEquals("dabb3714000000000000000300000005000000" + "01af", ByteBufUtil.hexDump(bytes(ch.readOutbound())));
        ch.finishAndReleaseAll();
    }

    @Test
    void framesSplitAtEveryByteBoundaryDecodeIdentically() throws Exception {
        byte[] whole = bytes(request(5, "split me"));
        for (int cut = 1; cut < whole.length; cut++) {
            EmbeddedChannel ch = provider();
            ch.writeInbound(Unpooled.wrappedBuffer(whole, 0, cut));
            assertNull(ch.readInbound(), "nothing before the frame is complete (cut " + cut + ")");
            ch.writeInbound(Unpooled.wrappedBuffer(whole, cut, whole.length - cut));
            InboundFrame frame = ch.readInbound();
            assertEquals(5, frame.id());
            assertEquals(whole.length - 16, frame.body().readableBytes());
            frame.release();
            assertTrue(ch.isOpen());
            ch.finishAndReleaseAll();
        }
        EmbeddedChannel oneByOne = provider();
        for (byte b : whole) {
            oneByOne.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
        }
        InboundFrame frame = oneByOne.readInbound();
        assertEquals(5, frame.id());
        frame.release();
        oneByOne.finishAndReleaseAll();
    }

    @Test
    void wrongMagicClosesTheConnectionWithoutAnswer() {
        EmbeddedChannel ch = provider();
        ch.writeInbound(Unpooled.wrappedBuffer("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
        assertNull(ch.readInbound());
        assertNull(ch.readOutbound());
        assertFalse(ch.isOpen());
    }

    @Test
    void foreignSerializationIsAnsweredBadRequestAndTheNextFrameStillDecodes() throws Exception {
        ByteBuf stream = Unpooled.buffer();
        // a fastjson2 (23) two-way request with a 5-byte body, then a valid hessian2 request
        stream.writeShort(Frame.MAGIC).writeByte(0xD7).writeByte(0).writeLong(11).writeInt(5).writeBytes(new byte[5]);
        stream.writeBytes(request(12, "next"));
        EmbeddedChannel ch = provider();
        ch.writeInbound(stream);
        ByteBuf answer = ch.readOutbound();
        assertEquals(RpcStatus.BAD_REQUEST.wireCode(), answer.getByte(3));
        assertEquals(11, answer.getLong(4));
        assertTrue(ErrorBodies.readString(Frame.HESSIAN2, answer.slice(16, answer.readableBytes() - 16))
                .contains("serialization id 23"));
        answer.release();
        InboundFrame next = ch.readInbound();
        assertEquals(12, next.id());
        next.release();
        assertTrue(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    @Test
    void lengthOverTheLimitIsAnsweredBadRequestThenClosed() {
        ByteBuf header = Unpooled.buffer();
        header.writeShort(Frame.MAGIC).writeByte(0xC2).writeByte(0).writeLong(21).writeInt(LIMIT + 1);
        EmbeddedChannel ch = provider();
        ch.writeInbound(header);
        ByteBuf answer = ch.readOutbound();
        assertEquals(RpcStatus.BAD_REQUEST.wireCode(), answer.getByte(3));
        assertEquals(21, answer.getLong(4));
        answer.release();
        assertNull(ch.readInbound());
        assertFalse(ch.isOpen());
    }

    @Test
    void negativeLengthIsAnsweredBadRequestThenClosed() {
        ByteBuf header = Unpooled.buffer();
        header.writeShort(Frame.MAGIC).writeByte(0xC2).writeByte(0).writeLong(22).writeInt(-1);
        EmbeddedChannel ch = provider();
        ch.writeInbound(header);
        ByteBuf answer = ch.readOutbound();
        assertEquals(RpcStatus.BAD_REQUEST.wireCode(), answer.getByte(3));
        answer.release();
        assertFalse(ch.isOpen());
    }

    @Test
    void truncatedHeaderWaitsForTheRest() throws Exception {
        byte[] whole = bytes(request(31, "t"));
        EmbeddedChannel ch = provider();
        ch.writeInbound(Unpooled.wrappedBuffer(whole, 0, 10));
        assertNull(ch.readInbound());
        assertNull(ch.readOutbound());
        assertTrue(ch.isOpen());
        ch.writeInbound(Unpooled.wrappedBuffer(whole, 10, whole.length - 10));
        InboundFrame frame = ch.readInbound();
        assertEquals(31, frame.id());
        frame.release();
        ch.finishAndReleaseAll();
    }

    // ---- consumer side ----

    private static final class ConsumerEnd {
        final EmbeddedChannel channel;
        final Connection connection;

        ConsumerEnd(int limit) {
            ClientHandler handler = new ClientHandler();
            channel = new EmbeddedChannel();
            Connections.bind(handler, channel, "peer", TIMER, Ticker.system());
            channel.pipeline().addLast(new FrameDecoder(FrameDecoder.Side.CONSUMER, limit), handler);
            connection = Connections.of(channel);
        }

        /** Sends a hello call; returns its future and the id it went out with. */
        CompletableFuture<Result> call(long[] idOut) throws Exception {
            CompletableFuture<Result> f = connection.send(request(0, "x"), hello("x"), method("hello"),
                    GREETER.serializerFactory());
            channel.runPendingTasks(); // requests are written by the event loop
            ByteBuf sent = channel.readOutbound();
            idOut[0] = sent.getLong(4);
            sent.release();
            return f;
        }
    }

    static ByteBuf okAnswer(long id, String value) throws Exception {
        return FrameEncoder.encode(Unpooled.buffer().alloc(), Frame.HESSIAN2, Frame.STATUS_OK, id,
                GREETER.serializerFactory(), Integer.MAX_VALUE,
                out -> ResponseCodec.writeValue(out, true, value, Map.of()));
    }

    @Test
    void fastjson2ErrorAnswerFailsOnlyItsCallAndKeepsTheConnection() throws Exception {
        ConsumerEnd end = new ConsumerEnd(LIMIT);
        long[] a = new long[1];
        long[] b = new long[1];
        CompletableFuture<Result> first = end.call(a);
        CompletableFuture<Result> second = end.call(b);
        // what a stock Dubbo 3 provider sends: status 100, a JSONB string (0x79 + JSONB int length) behind an int32
        byte[] message = "Server side(10.0.0.1,20880) thread pool is exhausted".getBytes(StandardCharsets.US_ASCII);
        ByteBuf body = Unpooled.buffer();
        body.writeInt(1 + 2 + message.length).writeByte(0x79).writeByte(0x38 + (message.length >> 8))
                .writeByte(message.length & 0xff).writeBytes(message);
        ByteBuf error = Unpooled.buffer();
        error.writeShort(Frame.MAGIC).writeByte(0x17).writeByte(100).writeLong(a[0]).writeInt(body.readableBytes())
                .writeBytes(body);
        body.release();
        end.channel.writeInbound(error);
        ExecutionException e = assertThrows(ExecutionException.class, () -> first.get(1, TimeUnit.SECONDS));
        RpcException rpc = assertInstanceOf(RpcException.class, e.getCause());
        assertEquals(RpcStatus.THREADPOOL_EXHAUSTED, rpc.status());
        assertTrue(rpc.getMessage().contains("thread pool is exhausted"), rpc.getMessage());
        assertFalse(second.isDone());
        end.channel.writeInbound(okAnswer(b[0], "fine"));
        assertEquals("fine", second.get(1, TimeUnit.SECONDS).value());
        assertTrue(end.channel.isOpen());
        end.channel.finishAndReleaseAll();
    }

    @Test
    void hessian2ErrorAnswerBecomesAnRpcExceptionWithItsStatusAndMessage() throws Exception {
        ConsumerEnd end = new ConsumerEnd(LIMIT);
        long[] id = new long[1];
        CompletableFuture<Result> call = end.call(id);
        end.channel.writeInbound(FrameEncoder.errorResponse(Unpooled.buffer().alloc(), id[0], (byte) 70,
                "Not found exported service: demo.Missing:0.0.0"));
        ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(1, TimeUnit.SECONDS));
        RpcException rpc = (RpcException) e.getCause();
        assertEquals(RpcStatus.SERVICE_NOT_FOUND, rpc.status(), "Dubbo's wording of a missing service");
        assertTrue(rpc.getMessage().endsWith("Not found exported service: demo.Missing:0.0.0"), rpc.getMessage());
        assertTrue(end.channel.isOpen());
        end.channel.finishAndReleaseAll();
    }

    @Test
    void errorAnswerWhoseBodyIsNotAStringStillEndsItsCall() throws Exception {
        ConsumerEnd end = new ConsumerEnd(LIMIT);
        long[] id = new long[1];
        CompletableFuture<Result> call = end.call(id);
        ByteBuf hostile = Unpooled.buffer();
        byte[] body = new byte[20_000];
        for (int i = 0; i < body.length; i += 2) {
            body[i] = 'M';
            body[i + 1] = 0;
        }
        hostile.writeShort(Frame.MAGIC).writeByte(0x02).writeByte(40).writeLong(id[0]).writeInt(body.length)
                .writeBytes(body);
        end.channel.writeInbound(hostile);
        ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(1, TimeUnit.SECONDS));
        RpcException rpc = (RpcException) e.getCause();
        assertEquals(RpcStatus.BAD_REQUEST, rpc.status());
        assertTrue(rpc.getMessage().contains("no readable message"), rpc.getMessage());
        end.channel.finishAndReleaseAll();
    }

    @Test
    void oversizeAnswerFailsOnlyItsCallAndItsBytesAreSkippedExactly() throws Exception {
        ConsumerEnd end = new ConsumerEnd(1024);
        long[] a = new long[1];
        long[] b = new long[1];
        CompletableFuture<Result> big = end.call(a);
        CompletableFuture<Result> small = end.call(b);
        ByteBuf oversize = okAnswer(a[0], "z".repeat(5000));
        ByteBuf following = okAnswer(b[0], "small");
        // the oversize body arrives in pieces, the next answer right behind it
        while (oversize.isReadable()) {
            end.channel.writeInbound(oversize.readRetainedSlice(Math.min(700, oversize.readableBytes())));
        }
        oversize.release();
        end.channel.writeInbound(following);
        ExecutionException e = assertThrows(ExecutionException.class, () -> big.get(1, TimeUnit.SECONDS));
        assertEquals(RpcStatus.PAYLOAD_TOO_LARGE, ((RpcException) e.getCause()).status());
        assertEquals("small", small.get(1, TimeUnit.SECONDS).value());
        assertTrue(end.channel.isOpen());
        end.channel.finishAndReleaseAll();
    }

    @Test
    void closingTheConnectionFailsEveryPendingCallAtOnceNamingThePeer() throws Exception {
        ConsumerEnd end = new ConsumerEnd(LIMIT);
        long[] id = new long[1];
        CompletableFuture<Result> a = end.call(id);
        CompletableFuture<Result> b = end.call(id);
        end.channel.close();
        for (CompletableFuture<Result> f : java.util.List.of(a, b)) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(1, TimeUnit.SECONDS));
            RpcException rpc = (RpcException) e.getCause();
            assertEquals(RpcStatus.NETWORK, rpc.status());
            assertTrue(rpc.getMessage().contains("connection to peer closed"), rpc.getMessage());
        }
    }

    @Test
    void readonlyEventMarksTheConnection() {
        ConsumerEnd end = new ConsumerEnd(LIMIT);
        end.channel.writeInbound(FrameEncoder.readonlyEvent(Unpooled.buffer().alloc(), 1, true));
        assertTrue(end.connection.isReadonly());
        end.channel.writeInbound(FrameEncoder.readonlyEvent(Unpooled.buffer().alloc(), 2, false));
        assertFalse(end.connection.isReadonly());
        end.channel.finishAndReleaseAll();
    }

    @Test
    void lateAnswerAfterTimeoutIsDroppedQuietly() throws Exception {
        ConsumerEnd end = new ConsumerEnd(LIMIT);
        Invocation quick = new Invocation(Greeter.class.getName(), "", "", method("hello").method(),
                new Object[] {"x"}, Map.of(), Deadline.after(java.time.Duration.ofMillis(50), Ticker.system()), false,
                Runnable::run);
        CompletableFuture<Result> f = end.connection.send(request(0, "x"), quick, method("hello"),
                GREETER.serializerFactory());
        end.channel.runPendingTasks();
        ByteBuf sent = end.channel.readOutbound();
        long id = sent.getLong(4);
        sent.release();
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(5, TimeUnit.SECONDS));
        assertEquals(RpcStatus.TIMEOUT, ((RpcException) e.getCause()).status());
        end.channel.writeInbound(okAnswer(id, "too late"));
        assertEquals(0, end.connection.pendingCalls());
        assertTrue(end.channel.isOpen());
        end.channel.finishAndReleaseAll();
    }
}
