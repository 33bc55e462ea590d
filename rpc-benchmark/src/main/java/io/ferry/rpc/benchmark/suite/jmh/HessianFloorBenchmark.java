package io.ferry.rpc.benchmark.suite.jmh;

import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import com.alibaba.com.caucho.hessian.io.SerializerFactory;
import io.ferry.rpc.benchmark.suite.workload.User;
import io.ferry.rpc.benchmark.suite.workload.Users;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The serialization floor of one getUser call over the dubbo protocol, whatever the framework: hessian2 writes and
 * reads the request body (version, path, method, descriptor, the id, the attachments) and the answer body (a User
 * and the answer's attachments), one thread, no network. Both Ferry and Dubbo pay at least this per call, split
 * between the consumer (write the request, read the answer) and the provider (the other two); the pipelined echo
 * pays none of it, which bounds how close an RPC can come to it.
 *
 * <pre>
 *   java -cp "rpc-benchmark/target/classes:$(cat rpc-benchmark/target/classpath.txt)" org.openjdk.jmh.Main HessianFloor
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class HessianFloorBenchmark {
    private final SerializerFactory factory = new SerializerFactory();
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(1024);
    private final Hessian2Output out = new Hessian2Output(bytes);
    private final User user = Users.user(1);
    private final Map<String, Object> requestAttachments = new LinkedHashMap<>();
    private final Map<String, Object> answerAttachments = Map.of("dubbo", "2.0.2");
    private byte[] request;
    private byte[] answer;

    public HessianFloorBenchmark() {
        out.setSerializerFactory(factory);
        requestAttachments.put("path", "io.ferry.rpc.benchmark.suite.workload.UserService");
        requestAttachments.put("interface", "io.ferry.rpc.benchmark.suite.workload.UserService");
        requestAttachments.put("version", "0.0.0");
        requestAttachments.put("timeout", "10000");
        try {
            writeRequest();
            request = bytes.toByteArray();
            writeAnswer();
            answer = bytes.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Returns the body's size, not a copy: the codecs write into the frame's buffer and copy nothing. */
    @Benchmark
    public int writeRequest() throws IOException {
        start();
        out.writeString("2.0.2");
        out.writeString("io.ferry.rpc.benchmark.suite.workload.UserService");
        out.writeString("0.0.0");
        out.writeString("getUser");
        out.writeString("J");
        out.writeLong(1L);
        out.writeObject(requestAttachments);
        return finish();
    }

    @Benchmark
    public Object readRequest() throws IOException {
        Hessian2Input in = input(request);
        in.readString();
        in.readString();
        in.readString();
        in.readString();
        in.readString();
        long id = in.readLong();
        Object attachments = in.readObject(Map.class);
        return id == 1 ? attachments : null;
    }

    @Benchmark
    public int writeAnswer() throws IOException {
        start();
        out.writeInt(4); // a value with attachments
        out.writeObject(user);
        out.writeObject(answerAttachments);
        return finish();
    }

    private void start() {
        bytes.reset();
        out.init(bytes);
    }

    private int finish() throws IOException {
        out.flush();
        return bytes.size();
    }

    @Benchmark
    public Object readAnswer() throws IOException {
        Hessian2Input in = input(answer);
        in.readInt();
        Object value = in.readObject(User.class);
        in.readObject(Map.class);
        return value;
    }

    private Hessian2Input input(byte[] body) {
        Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(body));
        in.setSerializerFactory(factory);
        return in;
    }
}
