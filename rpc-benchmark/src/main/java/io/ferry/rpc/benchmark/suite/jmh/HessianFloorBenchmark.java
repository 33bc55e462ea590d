package io.ferry.rpc.benchmark.suite.jmh;

import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import com.alibaba.com.caucho.hessian.io.SerializerFactory;
import io.ferry.rpc.benchmark.suite.workload.User;
import io.ferry.rpc.remoting.HessianBodies;
import io.ferry.rpc.benchmark.suite.workload.UserPage;
import io.ferry.rpc.benchmark.suite.workload.UserService;
import io.ferry.rpc.benchmark.suite.workload.Users;
import io.netty.buffer.Unpooled;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The serialization floor of one workload call over the dubbo protocol, whatever the framework: hessian2 writes and
 * reads the request body (version, path, method, descriptor, the argument, the attachments) and the answer body
 * (the value and the answer's attachments), one thread, no network. Both Ferry and Dubbo pay at least this per call,
 * split between the consumer (write the request, read the answer) and the provider (the other two); the echo pays
 * none of it, which bounds how close an RPC can come to it, and how far ahead of Dubbo it can get.
 *
 * <p>{@code codec} sets hessian-lite on its own beside Ferry's codec as Ferry runs it, in the same run: the same
 * bytes written by Ferry's output, and read by its guarded input ({@link HessianBodies}) with Ferry's strings and all
 * of its checks (the service's allow-list, lengths, depth, the decode budget), which hessian-lite alone skips.
 *
 * <pre>
 *   java -cp "rpc-benchmark/target/classes:$(cat rpc-benchmark/target/classpath.txt)" org.openjdk.jmh.Main HessianFloor
 *   # the two codecs side by side on the two methods of issue 24's target:
 *   ... org.openjdk.jmh.Main HessianFloorBenchmark -p method=getUser,listUser -f 1 -wi 3 -i 5 -w 1s -r 1s
 * </pre>
 * A call's cost is the sum of its four benchmarks (writeRequest, readRequest, writeAnswer, readAnswer).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class HessianFloorBenchmark {
    private static final String SERVICE = UserService.class.getName();

    /** What one call of a workload method puts in its two bodies. */
    private record Call(String descriptor, Object argument, Class<?> argumentType, Object value, Class<?> valueType) {
        static Call of(String method) {
            return switch (method) {
                case "existUser" -> new Call("Ljava/lang/String;", "ada1@example.com", String.class, true,
                        boolean.class);
                case "createUser" -> new Call("L" + User.class.getName().replace('.', '/') + ";", Users.user(1),
                        User.class, true, boolean.class);
                case "getUser" -> new Call("J", 1L, long.class, Users.user(1), User.class);
                case "listUser" -> new Call("I", 1, int.class, Users.page(1), UserPage.class);
                default -> throw new IllegalArgumentException("method: " + method);
            };
        }
    }

    @Param({"existUser", "createUser", "getUser", "listUser"})
    public String method;

    @Param({"hessian-lite", "ferry"})
    public String codec;

    /** Ferry's bodies, or null for hessian-lite on its own. */
    private HessianBodies ferry;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(4096);
    private Hessian2Output out;
    private final Map<String, Object> requestAttachments = new LinkedHashMap<>();
    private final Map<String, Object> answerAttachments = Map.of("dubbo", "2.0.2");
    private Call call;
    private byte[] request;
    private byte[] answer;

    @Setup
    public void setUp() throws IOException {
        switch (codec) {
            case "hessian-lite" -> {
                out = new Hessian2Output(bytes);
                out.setSerializerFactory(new SerializerFactory());
            }
            case "ferry" -> {
                ferry = HessianBodies.forServices(java.util.List.of(UserService.class));
                out = ferry.output(bytes);
            }
            default -> throw new IllegalArgumentException("codec: " + codec);
        }
        requestAttachments.put("path", SERVICE);
        requestAttachments.put("interface", SERVICE);
        requestAttachments.put("version", "0.0.0");
        requestAttachments.put("timeout", "10000");
        call = Call.of(method);
        writeRequest();
        request = bytes.toByteArray();
        writeAnswer();
        answer = bytes.toByteArray();
    }

    /** Returns the body's size, not a copy: the codecs write into the frame's buffer and copy nothing. */
    @Benchmark
    public int writeRequest() throws IOException {
        start();
        out.writeString("2.0.2");
        out.writeString(SERVICE);
        out.writeString("0.0.0");
        out.writeString(method);
        out.writeString(call.descriptor());
        out.writeObject(call.argument());
        out.writeObject(requestAttachments);
        return finish();
    }

    @Benchmark
    public Object readRequest() throws IOException {
        Hessian2Input in = input(request);
        try {
            in.readString();
            in.readString();
            in.readString();
            in.readString();
            in.readString();
            Object argument = in.readObject(call.argumentType());
            Object attachments = in.readObject(Map.class);
            return argument != null ? attachments : null;
        } finally {
            done(in);
        }
    }

    @Benchmark
    public int writeAnswer() throws IOException {
        start();
        out.writeInt(4); // a value with attachments
        out.writeObject(call.value());
        out.writeObject(answerAttachments);
        return finish();
    }

    @Benchmark
    public Object readAnswer() throws IOException {
        Hessian2Input in = input(answer);
        try {
            in.readInt();
            Object value = in.readObject(call.valueType());
            in.readObject(Map.class);
            return value;
        } finally {
            done(in);
        }
    }

    private void start() {
        bytes.reset();
        out.init(bytes);
    }

    private int finish() throws IOException {
        out.flush();
        return bytes.size();
    }

    private void done(Hessian2Input in) {
        if (ferry != null) {
            HessianBodies.done(in);
        }
    }

    private Hessian2Input input(byte[] body) {
        if (ferry != null) {
            return ferry.open(Unpooled.wrappedBuffer(body)); // as Ferry's decoders take it
        }
        Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(body));
        in.setSerializerFactory(out.getSerializerFactory());
        return in;
    }
}
