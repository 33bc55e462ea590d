package io.ferry.rpc.remoting.fuzz;

import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.Greeter;
import io.ferry.rpc.remoting.internal.codec.Frame;
import io.ferry.rpc.remoting.internal.codec.FrameEncoder;
import io.ferry.rpc.remoting.internal.codec.RequestCodec;
import io.ferry.rpc.remoting.internal.codec.ResponseCodec;
import io.ferry.rpc.remoting.internal.service.ServiceSchema;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the fuzz tests' seed corpus: well-formed frames of every kind the fuzzers then mutate. Run from the
 * module directory after a change of the wire format, and commit what it writes:
 * {@code java -cp target/test-classes:target/classes:$(cat target/cp.txt) io.ferry.rpc.remoting.fuzz.SeedCorpus
 * src/test/resources} (with {@code mvn dependency:build-classpath -Dmdep.outputFile=target/cp.txt}).
 */
public final class SeedCorpus {
    private static final ServiceSchema GREETER = ServiceSchema.of(Greeter.class, ClassAllowList.none(),
            ServiceSchema.Side.CONSUMER);
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;

    private SeedCorpus() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0], "io", "ferry", "rpc", "remoting", "internal");
        Path provider = root.resolve("server/ProviderFrameFuzzTestInputs/anyStreamIsAnsweredOrClosedAndLeavesNothingBehind");
        Path bodies = root.resolve("server/RequestBodyFuzzTestInputs/anyBodyIsAnsweredAndTheConnectionStaysOpen");
        Path consumer = root.resolve("exchange/ConsumerFrameFuzzTestInputs/anyAnswerStreamEndsThePendingCallAndLeavesNothingBehind");
        Path answers = root.resolve("exchange/ResponseBodyFuzzTestInputs/anyAnswerBodyEndsTheCall");

        byte[] hello = request("hello", new Class<?>[] {String.class}, "ann");
        byte[] describe = request("describe", new Class<?>[] {Object.class}, new Greeter.Item("x", 2));
        byte[] items = request("items", new Class<?>[] {int.class}, 3);
        byte[] heartbeat = bytes(FrameEncoder.heartbeatRequest(ALLOC, 9));
        byte[] readonly = bytes(FrameEncoder.readonlyEvent(ALLOC, 10, true));
        write(provider, "hello", hello);
        write(provider, "describe", describe);
        write(provider, "items", items);
        write(provider, "heartbeat", heartbeat);
        write(provider, "readonly", readonly);
        write(provider, "two-requests", concat(hello, items));
        write(provider, "foreign-serialization", frame(0xD7, 0, 11, new byte[] {1, 2, 3}));
        write(provider, "big-event", frame(0xE2, 0, 12, new byte[64]));
        write(bodies, "hello", body(hello));
        write(bodies, "describe", body(describe));
        write(bodies, "items", body(items));

        byte[] helloAnswer = answer(true, "hello ann");
        byte[] itemsAnswer = answer(false, List.of(new Greeter.Item("a", 1), new Greeter.Item("b", 2)));
        byte[] exception = bytes(FrameEncoder.encode(ALLOC, Frame.HESSIAN2, Frame.STATUS_OK, 0,
                GREETER.serializerFactory(), Integer.MAX_VALUE, out -> ResponseCodec.writeException(out, true,
                        new IllegalStateException("no"), Map.of("k", "v"))));
        byte[] error = bytes(FrameEncoder.errorResponse(ALLOC, 0, (byte) 40, "Method not found: x"));
        write(consumer, "hello-answer", helloAnswer);         // length 0 mod 3 would pick hello
        write(consumer, "items-answer", itemsAnswer);
        write(consumer, "exception", exception);
        write(consumer, "error", error);
        write(consumer, "heartbeat-and-readonly", concat(heartbeat, readonly));
        // the first byte picks status and method: 0 = OK, hello; 11 = OK, describe; 22 = OK, items; 4 = 40, hello
        write(answers, "hello", concat(new byte[] {0}, body(helloAnswer)));
        write(answers, "items", concat(new byte[] {22}, body(itemsAnswer)));
        write(answers, "exception", concat(new byte[] {11}, body(exception)));
        write(answers, "error", concat(new byte[] {4}, body(error)));
    }

    private static byte[] request(String name, Class<?>[] types, Object argument) throws Exception {
        Invocation invocation = new Invocation(Greeter.class.getName(), "", "", Greeter.class.getMethod(name, types),
                new Object[] {argument}, new HashMap<>(Map.of("trace", "t-1")),
                Deadline.after(Duration.ofSeconds(3), Ticker.system()), false, Runnable::run);
        return bytes(FrameEncoder.encode(ALLOC, 0xC2, (byte) 0, 1, GREETER.serializerFactory(), Integer.MAX_VALUE,
                out -> RequestCodec.write(out, invocation, GREETER.method(invocation.method()))));
    }

    private static byte[] answer(boolean withAttachments, Object value) throws IOException {
        return bytes(FrameEncoder.encode(ALLOC, Frame.HESSIAN2, Frame.STATUS_OK, 0, GREETER.serializerFactory(),
                Integer.MAX_VALUE, out -> ResponseCodec.writeValue(out, withAttachments, value, Map.of("k", "v"))));
    }

    private static byte[] frame(int flag, int status, long id, byte[] body) {
        return bytes(Unpooled.buffer().writeShort(Frame.MAGIC).writeByte(flag).writeByte(status).writeLong(id)
                .writeInt(body.length).writeBytes(body));
    }

    private static byte[] body(byte[] frame) {
        return Arrays.copyOfRange(frame, Frame.HEADER_LENGTH, frame.length);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    private static byte[] bytes(ByteBuf buf) {
        try {
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    private static void write(Path dir, String name, byte[] bytes) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve(name), bytes);
    }
}
